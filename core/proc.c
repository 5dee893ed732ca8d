#define _GNU_SOURCE /* posix_spawn_file_actions_addclosefrom_np, SYS_pidfd_open */
#include "proc.h"
#include "cleanup.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void file_actions(posix_spawn_file_actions_t *fa, const struct pd_proc_spec *s)
{
	posix_spawn_file_actions_init(fa);
	for (int i = 0; i < s->n_fds; i++) {
		if (s->fds[i] == PD_PROC_DEVNULL)
			posix_spawn_file_actions_addopen(fa, i, "/dev/null",
							 i ? O_WRONLY : O_RDONLY, 0);
		else if (s->fds[i] >= 0)
			posix_spawn_file_actions_adddup2(fa, s->fds[i], i);
	}
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
	/* then nothing else of ours reaches the child, even one opened without O_CLOEXEC */
	posix_spawn_file_actions_addclosefrom_np(fa, s->n_fds);
#endif
}

int pd_proc_start(pid_t *pid, const struct pd_proc_spec *spec)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, all;
	sigemptyset(&none);
	sigfillset(&all);
	file_actions(&fa, spec);
	posix_spawnattr_init(&attr);
	/* a clean signal state whatever ours is (an ignored SIGPIPE is inherited through
	 * exec), and a group of its own, so it and what it starts end together */
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &all);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
						POSIX_SPAWN_SETPGROUP);
	pd_cleanup_hold(); /* a signal between the start and the registration */
	int rc = posix_spawnp(pid, spec->file, &fa, &attr, spec->argv, spec->envp);
	if (rc == 0)
		pd_cleanup_add_child(*pid);
	pd_cleanup_release();
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

/* Bytes the process has read and written so far, -1 when /proc does not say. */
static long long io_bytes(pid_t pid)
{
	char path[64], text[512];
	long long r = -1, w = -1;
	snprintf(path, sizeof(path), "/proc/%ld/io", (long)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	text[n] = '\0';
	if (sscanf(text, "rchar: %lld wchar: %lld", &r, &w) != 2)
		return -1;
	return r + w;
}

/* Sleeps until the child may have ended: on its pidfd (woken at its exit), else for a
 * while that grows from 1 ms to 50 ms. */
static void pause_for(int pidfd, long *ms)
{
	if (pidfd >= 0) {
		struct pollfd p = {.fd = pidfd, .events = POLLIN};
		poll(&p, 1, 250);
		return;
	}
	struct timespec ts = {0, *ms * 1000000L};
	nanosleep(&ts, NULL);
	*ms = *ms < 50 ? *ms * 2 : 50;
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

static int watch(pid_t pid, int *status, double idle_s)
{
	int pidfd = open_pidfd(pid), rc = -1;
	long long seen = io_bytes(pid);
	double last = pd_clock_now();
	long ms = 1;
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR)) {
			rc = r == pid ? 0 : -1;
			break;
		}
		long long now_io = io_bytes(pid);
		double now = pd_clock_now();
		if (now_io != seen)
			seen = now_io, last = now;
		else if (now - last >= idle_s) {
			pd_proc_kill(pid);
			rc = 1;
			break;
		}
		pause_for(pidfd, &ms);
	}
	if (pidfd >= 0)
		close(pidfd);
	return rc;
}

int pd_proc_wait(pid_t pid, int *status, double idle_s)
{
	int rc = 0;
	if (idle_s > 0) {
		rc = watch(pid, status, idle_s);
	} else {
		while (waitpid(pid, status, 0) < 0)
			if (errno != EINTR) {
				rc = -1;
				break;
			}
	}
	if (rc == 0)
		pd_cleanup_drop_child(pid);
	return rc;
}

void pd_proc_kill(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL); /* should it have left its group */
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	pd_cleanup_drop_child(pid);
}
