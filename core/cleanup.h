/* What an interrupted or failed process must undo before it goes: the temporary output
 * directories it made and the child process groups it started. The registry is fixed
 * storage, so a signal handler (or the out-of-memory abort) can walk it with
 * async-signal-safe calls only: kill, waitpid, open, getdents, unlinkat, _exit. */
#ifndef PD_CLEANUP_H
#define PD_CLEANUP_H

#include <sys/types.h>

/* Installs the handlers of SIGINT, SIGTERM, SIGHUP and SIGQUIT: each records the signal,
 * runs pd_cleanup_run and exits 128 + the signal (130 for SIGINT, 143 for SIGTERM, 131 for
 * SIGQUIT, without a core dump). A signal ignored when the process started (nohup, a job
 * started with & by a script) stays ignored. SIGXFSZ is ignored: a write past ulimit -f
 * fails with EFBIG. */
void pd_cleanup_catch_signals(void);

/* Registers the temporary tree at path for removal (a copy is kept; a path of 4096
 * bytes or more, or a ninth tree, is not registered), and drops it again. */
void pd_cleanup_add_tree(const char *path);
void pd_cleanup_drop_tree(const char *path);

/* Registers the child pid, leader of its own process group: the group is killed and the
 * child reaped (at most 16 at once). */
void pd_cleanup_add_child(pid_t pid);
void pd_cleanup_drop_child(pid_t pid);

/* Defers the handlers until the matching release (nestable): around a change of the
 * registry together with what it describes, such as renaming a report into place. */
void pd_cleanup_hold(void);
void pd_cleanup_release(void);

/* Kills and reaps every registered child, then removes every registered tree;
 * async-signal-safe. */
void pd_cleanup_run(void);

/* The signal that ended the run, 0 while none came (for tests). */
int pd_cleanup_signal(void);

#endif
