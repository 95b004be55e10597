// SPDX-License-Identifier: GPL-2.0
/*
 * deadline: run one guest test with a time limit that holds whatever the
 * test's processes do.  tests/run.sh used busybox's timeout, which kills
 * the test's shell only: a program the script started and that hangs
 * (in the kernel or not) keeps the output pipe to the runner open, so the
 * runner waited on it, and with it every later test and the power-off,
 * until QEMU's own timeout, with nothing in the logs to say where it hung.
 *
 * Here the test runs in a session of its own, its output relayed through
 * a pipe of ours.  At the deadline, every task of that session, and every
 * task of the guest that is running or in uninterruptible sleep (the
 * kernel threads the test may be waiting on), is listed with its state,
 * wchan and kernel stack (/proc/PID/task/TID/stack, where the kernel has
 * CONFIG_STACKTRACE), as KTAP diagnostics on stdout and, in case the
 * results port itself is what stalled, in the kernel log; then the session
 * is killed.  What does not die within KILL_WAIT_S is named and left
 * behind: its end of the pipe no longer matters.
 *
 * usage: deadline SECONDS CMD [ARG...]
 * exit:  CMD's exit code (128 + signal if a signal ended it), 124 when the
 *        deadline passed, 125 when CMD could not be started.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KILL_WAIT_S 10

static int kmsg = -1;

/* One diagnostic line: "# LINE" on stdout, "deadline: LINE" in the log. */
static void say(const char *fmt, ...)
{
	char line[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	printf("# %s\n", line);
	fflush(stdout);
	if (kmsg >= 0) {
		/* One write, one record of the log. */
		char rec[sizeof(line) + 16];
		int n = snprintf(rec, sizeof(rec), "deadline: %s\n", line);

		if (write(kmsg, rec, n) < 0)
			kmsg = -1;
	}
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/*
 * /proc/PID/task/TID/stat: "tid (comm) S ppid pgrp session ...": the comm,
 * the state and the session.  The comm may hold spaces and parentheses:
 * it ends at the last ')'.
 */
static int task_stat(const char *dir, char *comm, size_t len, char *state,
		     int *session)
{
	char path[96], buf[1024], *open_p, *close_p;
	int ppid, pgrp;

	snprintf(path, sizeof(path), "%s/stat", dir);
	if (slurp(path, buf, sizeof(buf)) < 0)
		return -1;
	open_p = strchr(buf, '(');
	close_p = strrchr(buf, ')');
	if (!open_p || !close_p || close_p < open_p)
		return -1;
	snprintf(comm, len, "%.*s", (int)(close_p - open_p - 1), open_p + 1);
	if (sscanf(close_p + 2, "%c %d %d %d", state, &ppid, &pgrp, session) != 4)
		return -1;
	return 0;
}

static void show_task(const char *dir, int tid, const char *comm, char state)
{
	char path[96], buf[4096], *line, *save;

	snprintf(path, sizeof(path), "%s/wchan", dir);
	if (slurp(path, buf, sizeof(buf)) < 0)
		strcpy(buf, "?");
	say("task %d (%s) state %c wchan %s", tid, comm, state, buf);
	snprintf(path, sizeof(path), "%s/stack", dir);
	if (slurp(path, buf, sizeof(buf)) <= 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		say("    %s", line);
}

/*
 * Every task of SESSION, and every other task that is running (R) or in
 * uninterruptible sleep (D), except this program.
 */
static void show_tasks(int session)
{
	DIR *procs = opendir("/proc");
	struct dirent *p, *t;

	if (!procs)
		return;
	while ((p = readdir(procs))) {
		char tasks[32];
		int pid = atoi(p->d_name);
		DIR *td;

		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(tasks, sizeof(tasks), "/proc/%d/task", pid);
		td = opendir(tasks);
		if (!td)
			continue;
		while ((t = readdir(td))) {
			char dir[64], comm[64], state;
			int tid = atoi(t->d_name), sid;

			if (tid <= 0)
				continue;
			snprintf(dir, sizeof(dir), "%s/%d", tasks, tid);
			if (task_stat(dir, comm, sizeof(comm), &state, &sid))
				continue;
			if (sid == session || state == 'R' || state == 'D')
				show_task(dir, tid, comm, state);
		}
		closedir(td);
	}
	closedir(procs);
}

/* Tasks left in SESSION. */
static int count_session(int session)
{
	DIR *procs = opendir("/proc");
	struct dirent *p;
	int n = 0;

	if (!procs)
		return 0;
	while ((p = readdir(procs))) {
		char dir[32], comm[64], state;
		int pid = atoi(p->d_name), sid;

		if (pid <= 0)
			continue;
		snprintf(dir, sizeof(dir), "/proc/%d", pid);
		if (!task_stat(dir, comm, sizeof(comm), &state, &sid) &&
		    sid == session && state != 'Z')
			n++;
	}
	closedir(procs);
	return n;
}

/*
 * A test may quieten the console while it provokes errors (mtd_lib.sh's
 * faults_quiet: `dmesg -n 1`) and would have set it back at its end; a
 * test that is killed does not: the console gets its default loglevel
 * again (the fourth figure of /proc/sys/kernel/printk), so that what
 * follows, these lines too, reaches it.
 */
static void console_default(void)
{
	int now_level, msg, min, dflt;
	char buf[64];
	FILE *f;

	if (slurp("/proc/sys/kernel/printk", buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%d %d %d %d", &now_level, &msg, &min, &dflt) != 4 ||
	    now_level >= dflt)
		return;
	f = fopen("/proc/sys/kernel/printk", "w");
	if (!f)
		return;
	fprintf(f, "%d\n", dflt);
	fclose(f);
	printf("# console loglevel %d set back to its default, %d\n", now_level, dflt);
}

/* CMD's exit wakes the poll() of main(). */
static int child_pipe[2];

static void on_child(int sig)
{
	int saved = errno;

	/* A full pipe has a wake-up pending already. */
	ssize_t ignored = write(child_pipe[1], "", 1);

	(void)ignored;
	errno = saved;
}

/* Copy what the pipe has to stdout; 0 at its end. */
static int relay(int fd)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n > 0)
		fwrite(buf, 1, n, stdout), fflush(stdout);
	return n > 0 || (n < 0 && errno == EINTR);
}

int main(int argc, char **argv)
{
	double limit, end;
	int out[2], status, open_pipe = 1, stayed;
	pid_t pid;

	if (argc < 3 || (limit = atof(argv[1])) <= 0) {
		fprintf(stderr, "usage: deadline SECONDS CMD [ARG...]\n");
		return 125;
	}
	if (pipe(out) || pipe2(child_pipe, O_NONBLOCK | O_CLOEXEC)) {
		perror("deadline: pipe");
		return 125;
	}
	signal(SIGCHLD, on_child);
	pid = fork();
	if (pid < 0) {
		perror("deadline: fork");
		return 125;
	}
	if (!pid) {
		setsid();
		dup2(out[1], 1);
		dup2(out[1], 2);
		close(out[0]);
		close(out[1]);
		execvp(argv[2], argv + 2);
		fprintf(stderr, "deadline: %s: %s\n", argv[2], strerror(errno));
		_exit(125);
	}
	close(out[1]);
	end = now() + limit;
	/*
	 * Relay the output until CMD exits, then what the pipe still holds
	 * (a task CMD left behind may keep the pipe open: its output after
	 * CMD's end is not waited for); all of it by the deadline.  Waits
	 * only in poll(), on the output and on CMD's exit (SIGCHLD through a
	 * pipe of our own): no wake-up of ours while a test runs quietly.
	 */
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = open_pipe ? out[0] : -1, .events = POLLIN },
			{ .fd = child_pipe[0], .events = POLLIN },
		};
		double left = end - now();
		char c;

		if (waitpid(pid, &status, WNOHANG) == pid) {
			while (open_pipe && now() < end && poll(p, 1, 0) > 0)
				open_pipe = relay(out[0]);
			if (WIFSIGNALED(status))
				return 128 + WTERMSIG(status);
			return WEXITSTATUS(status);
		}
		if (left <= 0)
			break;
		if (poll(p, 2, (int)(left * 1000) + 1) <= 0)
			continue;
		if (p[0].revents)
			open_pipe = relay(out[0]);
		if (p[1].revents)
			while (read(child_pipe[0], &c, 1) == 1)
				;
	}

	console_default();
	kmsg = open("/dev/kmsg", O_WRONLY);
	say("%s did not finish in %g s; its tasks, and every running or blocked task:",
	    argv[2], limit);
	show_tasks(pid);
	kill(-pid, SIGKILL);
	for (int i = 0; i < KILL_WAIT_S * 10 && count_session(pid); i++) {
		waitpid(pid, &status, WNOHANG);
		usleep(100000);
	}
	waitpid(pid, &status, WNOHANG);
	stayed = count_session(pid);
	if (stayed) {
		say("%d task(s) of %s still there %d s after SIGKILL; left behind:",
		    stayed, argv[2], KILL_WAIT_S);
		show_tasks(pid);
	} else {
		say("killed %s and the tasks it started", argv[2]);
	}
	return 124;
}
