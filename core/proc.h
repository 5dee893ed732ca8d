/* Child processes: started from an argument vector (never a shell) with an environment
 * the caller fixes, each leading its own process group, registered with core/cleanup.h
 * from its start until it is reaped, so a signal or an abort never leaves one behind, and
 * killed by the kernel when perfdelta dies (PR_SET_PDEATHSIG), even by SIGKILL. */
#ifndef PD_PROC_H
#define PD_PROC_H

#include "buf.h"

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

/* Starts the child (fork and exec) with every signal at its default and none blocked. 0
 * with *pid set, or a positive errno (ENOENT: the program is not on PATH). */
int pd_proc_start(pid_t *pid, const struct pd_proc_spec *spec);

/* What the child writes to a pipe (its stderr), drained while pd_proc_wait waits, so
 * that noise can neither block it nor fill a disk: the first PD_PROC_KEEP bytes and the
 * last PD_PROC_TAIL - 1 are kept, the rest dropped. */
#define PD_PROC_KEEP (64 << 10)
#define PD_PROC_TAIL 256
struct pd_proc_capture {
	int fd;                  /* the pipe's read end (closed by the release), or -1 */
	struct pd_buf head;      /* the first PD_PROC_KEEP bytes */
	char tail[PD_PROC_TAIL]; /* the last tail_len bytes, NUL-terminated */
	size_t tail_len;
	unsigned long long total; /* every byte drained */
};
#define PD_PROC_CAPTURE_INIT                                                                   \
	{                                                                                      \
		.fd = -1, .head = PD_BUF_INIT                                                  \
	}
void pd_proc_capture_release(struct pd_proc_capture *c);

/* What pd_proc_wait watches. Progress is the child's file offsets moving (what it has
 * read of its input files and written into its output files): writing to a pipe or
 * /dev/null, or reading /dev/zero, is not. */
struct pd_proc_watch {
	double idle_s;                   /* end it after this long without progress; 0 never */
	double total_s;                  /* and after this long in all; 0 never */
	struct pd_proc_capture *capture; /* drained while waiting, or NULL */
};
enum { PD_PROC_IDLE = 1, PD_PROC_OVERTIME = 2 };

/* Waits for the child pid to end (through EINTR), its waitpid status in *status. A child
 * that passes a limit of w is killed with its group and reaped: returns PD_PROC_IDLE or
 * PD_PROC_OVERTIME then. 0 once it ended, -1 with errno when it cannot be waited for. */
int pd_proc_wait(pid_t pid, int *status, const struct pd_proc_watch *w);

/* Kills the child's process group and reaps the child; a no-op for pid <= 0. */
void pd_proc_kill(pid_t pid);

#endif
