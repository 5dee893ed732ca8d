/* Runs a command (argv, no shell) with stdout sent to /dev/null and prints its wall
 * time, CPU time and peak RSS: "wall_s=0.123 cpu_s=0.100 maxrss_kb=4567 status=0". */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec a, b;
	struct rusage ru;
	int status;
	if (argc < 2) {
		fprintf(stderr, "usage: measure CMD [ARG...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &b);
	/* cpu_s: user + system time of the command and of the children it waited for
	 * (gnuplot), which a shared machine's load changes less than the wall time */
	printf("wall_s=%.4f cpu_s=%.4f maxrss_kb=%ld status=%d\n",
	       (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9,
	       (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
	       ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128);
	return 0;
}
