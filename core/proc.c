#define _GNU_SOURCE /* execvpe, pipe2, SYS_pidfd_open, SYS_close_range */
#include "proc.h"
#include "cleanup.h"
#include "clock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* In the child: every signal at its default and none blocked (an ignored SIGPIPE is
 * inherited through exec; the parent holds SIGINT and SIGTERM around the fork), the
 * descriptors set, and nothing else of ours open. */
static void child_state(const struct pd_proc_spec *s, int keep)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	sigset_t none;
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL); /* fails harmlessly for SIGKILL, SIGSTOP */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int i = 0; i < s->n_fds; i++) {
		int fd = s->fds[i];
		if (fd == PD_PROC_DEVNULL)
			fd = open("/dev/null", i ? O_WRONLY : O_RDONLY);
		if (fd >= 0 && fd != i)
			dup2(fd, i); /* the copy is open across exec */
		else if (fd == i)
			fcntl(i, F_SETFD, 0);
	}
	for (int fd = s->n_fds; fd < keep; fd++) /* below keep: a few */
		close(fd);
	if (syscall(SYS_close_range, (unsigned)keep + 1, ~0U, 0) < 0)
		for (int fd = keep + 1; fd < 1024; fd++)
			close(fd);
}

/* The child after fork: a group of its own (so that it and what it starts end together),
 * killed when perfdelta dies however it dies (PR_SET_PDEATHSIG; a parent already gone
 * before the call is seen by getppid), then exec. A failed exec writes its errno to
 * report. */
_Noreturn static void child(const struct pd_proc_spec *s, pid_t parent, int report)
{
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	int above = s->n_fds;
	for (int i = 0; i < s->n_fds; i++)
		above = s->fds[i] >= above ? s->fds[i] + 1 : above;
	/* above every descriptor given and set, and closed by the exec */
	report = fcntl(report, F_DUPFD_CLOEXEC, above);
	child_state(s, report);
	execvpe(s->file, s->argv, s->envp);
	int e = errno;
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int pd_proc_start(pid_t *pid, const struct pd_proc_spec *spec)
{
	int report[2], e = 0;
	pid_t parent = getpid();
	if (pipe2(report, O_CLOEXEC) < 0)
		return errno;
	pd_cleanup_hold(); /* a signal between the start and the registration */
	/* vfork: a fork copied the page tables of every sample read (the 12 h pair's 190 MB,
	 * 5 % of its compare) for a child that only sets its descriptors and execs; child()
	 * calls no allocator and never returns */
	*pid = vfork();
	if (*pid == 0)
		child(spec, parent, report[1]);
	if (*pid > 0) {
		setpgid(*pid, *pid); /* as the child does: whichever runs first */
		pd_cleanup_add_child(*pid);
	} else {
		e = errno;
	}
	pd_cleanup_release();
	close(report[1]);
	while (*pid > 0 && read(report[0], &e, sizeof(e)) < 0 && errno == EINTR)
		;
	close(report[0]);
	if (*pid > 0 && e) /* the exec failed: the child is gone */
		pd_proc_kill(*pid);
	return e;
}

/* The sum of the file offsets of the child's descriptors (/proc/PID/fdinfo): what it has
 * read of its script and points, and written into its charts. A pipe, /dev/null or
 * /dev/zero has none, so noise on stderr or a copy of /dev/zero is no progress. -1 when
 * /proc does not say. */
static long long offsets(pid_t pid)
{
	char path[64], text[256];
	long long sum = 0, pos;
	snprintf(path, sizeof(path), "/proc/%ld/fdinfo", (long)pid);
	DIR *d = opendir(path);
	struct dirent *e;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		int fd = e->d_name[0] == '.' ? -1 : openat(dirfd(d), e->d_name, O_RDONLY);
		ssize_t n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;
		if (fd >= 0)
			close(fd);
		if (n <= 0)
			continue;
		text[n] = '\0';
		if (sscanf(text, "pos: %lld", &pos) == 1)
			sum += pos;
	}
	closedir(d);
	return sum;
}

/* Reads what the child has written to c->fd (non-blocking) into c; 1 at its end. */
static int drain(struct pd_proc_capture *c)
{
	char chunk[16384];
	ssize_t n;
	while ((n = read(c->fd, chunk, sizeof(chunk))) > 0) {
		size_t k = (size_t)n, room = PD_PROC_KEEP - c->head.len;
		pd_buf_add(&c->head, chunk, k < room ? k : room);
		c->total += k;
		if (k >= PD_PROC_TAIL - 1) {
			memcpy(c->tail, chunk + k - (PD_PROC_TAIL - 1), PD_PROC_TAIL - 1);
			c->tail_len = PD_PROC_TAIL - 1;
		} else {
			size_t keep = c->tail_len + k < PD_PROC_TAIL ? c->tail_len
								     : PD_PROC_TAIL - 1 - k;
			memmove(c->tail, c->tail + c->tail_len - keep, keep);
			memcpy(c->tail + keep, chunk, k);
			c->tail_len = keep + k;
		}
		c->tail[c->tail_len] = '\0';
	}
	return n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR);
}

/* Sleeps until the child may have ended or written to the capture: on its pidfd (woken at
 * its exit) and the pipe, else for a while that grows from 1 ms to 50 ms. */
static void pause_for(int pidfd, struct pd_proc_capture *c, long *ms)
{
	if (pidfd >= 0) {
		struct pollfd p[2] = {{.fd = pidfd, .events = POLLIN},
				      {.fd = c ? c->fd : -1, .events = POLLIN}};
		poll(p, 2, 250);
	} else {
		struct timespec ts = {0, *ms * 1000000L};
		nanosleep(&ts, NULL);
		*ms = *ms < 50 ? *ms * 2 : 50;
	}
	if (c)
		drain(c);
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

/* Why the watch ends the child now, or 0 while it may go on. */
static int verdict(const struct pd_proc_watch *w, double now, double start, double last)
{
	if (w->idle_s > 0 && now - last >= w->idle_s)
		return PD_PROC_IDLE;
	if (w->total_s > 0 && now - start >= w->total_s)
		return PD_PROC_OVERTIME;
	return 0;
}

static int watch(pid_t pid, int *status, const struct pd_proc_watch *w)
{
	int pidfd = open_pidfd(pid), rc;
	long long seen = offsets(pid);
	double start = pd_clock_now(), last = start;
	long ms = 1;
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR)) {
			rc = r == pid ? 0 : -1;
			break;
		}
		long long pos = offsets(pid);
		double now = pd_clock_now();
		if (pos != seen)
			seen = pos, last = now;
		if ((rc = verdict(w, now, start, last)) > 0) {
			pd_proc_kill(pid);
			break;
		}
		pause_for(pidfd, w->capture, &ms);
	}
	if (pidfd >= 0)
		close(pidfd);
	return rc;
}

int pd_proc_wait(pid_t pid, int *status, const struct pd_proc_watch *w)
{
	struct pd_proc_capture *c = w->capture;
	if (c)
		fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
	int rc = watch(pid, status, w);
	/* what is left in the pipe; a grandchild holding it open is not waited for */
	while (c && !drain(c) && errno == EINTR)
		;
	if (rc == 0)
		pd_cleanup_drop_child(pid);
	return rc;
}

void pd_proc_capture_release(struct pd_proc_capture *c)
{
	if (c->fd >= 0)
		close(c->fd);
	pd_buf_release(&c->head);
	*c = (struct pd_proc_capture)PD_PROC_CAPTURE_INIT;
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
