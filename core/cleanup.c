#define _GNU_SOURCE /* getdents64's syscall number */
#include "cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_TREES    8
#define MAX_CHILDREN 16
#define PATH_ROOM    4096
/* The report's tree is the directory, charts/ and their files: deeper is not ours. */
#define MAX_DEPTH 4

static char trees[MAX_TREES][PATH_ROOM]; /* "" where free */
static pid_t children[MAX_CHILDREN];     /* 0 where free */
static volatile sig_atomic_t caught;
static sigset_t held_mask; /* the mask before the outermost hold */
static int holds;

static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define N_SIGNALS (sizeof(signals) / sizeof(*signals))

void pd_cleanup_hold(void)
{
	sigset_t set, old;
	sigemptyset(&set);
	for (size_t i = 0; i < N_SIGNALS; i++)
		sigaddset(&set, signals[i]);
	sigprocmask(SIG_BLOCK, &set, &old);
	if (holds++ == 0)
		held_mask = old;
}

void pd_cleanup_release(void)
{
	if (holds > 0 && --holds == 0)
		sigprocmask(SIG_SETMASK, &held_mask, NULL);
}

void pd_cleanup_add_tree(const char *path)
{
	size_t n = strlen(path);
	if (n >= PATH_ROOM)
		return;
	pd_cleanup_hold();
	for (size_t i = 0; i < MAX_TREES; i++)
		if (!trees[i][0]) {
			memcpy(trees[i], path, n + 1);
			break;
		}
	pd_cleanup_release();
}

void pd_cleanup_drop_tree(const char *path)
{
	pd_cleanup_hold();
	for (size_t i = 0; i < MAX_TREES; i++)
		if (trees[i][0] && !strcmp(trees[i], path))
			trees[i][0] = '\0';
	pd_cleanup_release();
}

void pd_cleanup_add_child(pid_t pid)
{
	pd_cleanup_hold();
	for (size_t i = 0; i < MAX_CHILDREN; i++)
		if (!children[i]) {
			children[i] = pid;
			break;
		}
	pd_cleanup_release();
}

void pd_cleanup_drop_child(pid_t pid)
{
	pd_cleanup_hold();
	for (size_t i = 0; i < MAX_CHILDREN; i++)
		if (children[i] == pid)
			children[i] = 0;
	pd_cleanup_release();
}

/* Empties the directory open as dfd (closed here), never following a symlink. */
static void empty_dir(int dfd, int depth)
{
	char buf[4096];
	long n;
	while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct {
				uint64_t ino;
				int64_t off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *d = (void *)(buf + off);
			off += d->reclen;
			if (!strcmp(d->name, ".") || !strcmp(d->name, ".."))
				continue;
			if (unlinkat(dfd, d->name, 0) == 0 || depth >= MAX_DEPTH)
				continue;
			int sub = openat(dfd, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
			if (sub >= 0)
				empty_dir(sub, depth + 1);
			unlinkat(dfd, d->name, AT_REMOVEDIR);
		}
	}
	close(dfd);
}

static void remove_tree(const char *path)
{
	if (unlink(path) == 0)
		return;
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (dfd >= 0)
		empty_dir(dfd, 1);
	rmdir(path);
}

void pd_cleanup_run(void)
{
	int saved = errno;
	for (size_t i = 0; i < MAX_CHILDREN; i++) {
		pid_t pid = children[i];
		if (pid <= 0)
			continue;
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL); /* should it have left its group */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		children[i] = 0;
	}
	for (size_t i = 0; i < MAX_TREES; i++)
		if (trees[i][0]) {
			remove_tree(trees[i]);
			trees[i][0] = '\0';
		}
	errno = saved;
}

static void on_signal(int sig)
{
	caught = sig;
	pd_cleanup_run();
	_exit(128 + sig);
}

void pd_cleanup_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask); /* one handler at a time */
	for (size_t i = 0; i < N_SIGNALS; i++) {
		struct sigaction old;
		/* a signal ignored from the start stays ignored (nohup, a background job) */
		if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(signals[i], &sa, NULL);
	}
	/* past ulimit -f a write fails with EFBIG, reported as any write error, instead of
	 * a SIGXFSZ that would end us with the temporary output left behind */
	signal(SIGXFSZ, SIG_IGN);
}

int pd_cleanup_signal(void)
{
	return caught;
}
