/* Child processes: started from an argument vector (never a shell) with an environment
 * the caller fixes, each leading its own process group, registered with core/cleanup.h
 * from its start until it is reaped, so a signal or an abort never leaves one behind. */
#ifndef PD_PROC_H
#define PD_PROC_H

#include <sys/types.h>

/* fds[i] of a pd_proc_spec: the child's descriptor i opened on /dev/null. */
#define PD_PROC_DEVNULL (-2)

struct pd_proc_spec {
	const char *file;  /* the program, looked up in the caller's PATH */
	char *const *argv; /* NULL-ended */
	char *const *envp; /* the child's whole environment, NULL-ended */
	const int *fds;    /* fds[i] becomes the child's i; -1 leaves i as it is */
	int n_fds;         /* descriptors from n_fds up are closed in the child */
};

/* Starts the child with every signal at its default and none blocked. 0 with *pid set,
 * or a positive errno (ENOENT: the program is not on PATH). */
int pd_proc_start(pid_t *pid, const struct pd_proc_spec *spec);

/* Waits for the child pid to end (through EINTR), its waitpid status in *status. With
 * idle_s > 0, a child whose process has neither read nor written a byte for idle_s
 * seconds (its /proc/PID/io counters) is killed with its group and reaped: returns 1
 * then. 0 once it ended, -1 with errno when it cannot be waited for. */
int pd_proc_wait(pid_t pid, int *status, double idle_s);

/* Kills the child's process group and reaps the child; a no-op for pid <= 0. */
void pd_proc_kill(pid_t pid);

#endif
