// SPDX-License-Identifier: GPL-2.0
/*
 * failnth: fault injection on one probe path, one fault point at a time
 * (Documentation/fault-injection/fault-injection.rst, "/proc/<pid>/fail-nth").
 *
 * For N = 1, 2, ... run ACTION with the Nth fault point of this task made
 * to fail (failslab and fail_page_alloc, as configured in debugfs), until
 * ACTION passes fewer than N points: then every point of the path has
 * been failed once.  After each run the state (module refcounts, paths
 * that exist, the number of MTD devices) must be the state before it (the
 * probe failed cleanly) or the state that a run without faults gives (it
 * passed anyway; UNDO then takes it back).  No fork per run: the whole
 * sweep is this one process, so that it stays short on a debug kernel.
 *
 * usage: failnth [-n MAX] [-p PREP]... [-u UNDO]... [-m MODULE]...
 *                [-e PATH]... [-r DEVICE] [-c] [-P FILE] ACTION
 *   ACTION, PREP, UNDO:  write:PATH:STRING   write(2) STRING to PATH
 *                        load:MODULE.ko:PARAMS   finit_module(2)
 *                        rmmod:NAME          delete_module(2)
 *                        rmmod-idle:NAME     the same, if loaded, unused
 *   -p  before each run;  -u  after a run that passed
 *   -m  a module whose refcnt is part of the state (not loaded: 0)
 *   -e  a path whose existence is part of the state
 *   -r  a device that must read after a run that passed
 *   -c  a run that passed may also leave the state before it: the action
 *       succeeded, what it started failed cleanly (a module whose init
 *       registers a device: the driver core does not fail the init when
 *       the device's probe fails); counted as failed, UNDO then runs
 *   -n  give up after MAX runs (default 5000)
 *   -P  write N to FILE before the Nth run, for a progress line (written
 *       while no fault is armed)
 *
 * Prints "# " lines (the states, every run that broke the rule) and a
 * last line "points=P failed=F passed=S other-driver=O bad=B" (O: passed
 * runs served by another driver than without faults); exits 0 when B is 0 and
 * the sweep ended with a run past all points, 1 otherwise, 2 on misuse.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAXLIST 16

static const char *prep[MAXLIST], *undo[MAXLIST], *mods[MAXLIST], *paths[MAXLIST];
static int nprep, nundo, nmods, npaths;

static void add(const char **list, int *n, const char *item)
{
	if (*n == MAXLIST) {
		fprintf(stderr, "failnth: too many items\n");
		exit(2);
	}
	list[(*n)++] = item;
}

/*
 * The module refcounts, then after "| " the paths and MTD devices, as one
 * line.
 */
static void state(char *buf, size_t size)
{
	char path[256], val[32];
	struct dirent *d;
	size_t len = 0;
	int i, fd, mtd = 0;
	ssize_t r;
	DIR *dir;

	buf[0] = '\0';
	for (i = 0; i < nmods; i++) {
		snprintf(path, sizeof(path), "/sys/module/%s/refcnt", mods[i]);
		strcpy(val, "0");
		fd = open(path, O_RDONLY);
		if (fd >= 0) {
			r = read(fd, val, sizeof(val) - 1);
			val[r > 0 ? r : 0] = '\0';
			val[strcspn(val, "\n")] = '\0';
			close(fd);
		}
		len += snprintf(buf + len, size - len, "%s=%s ", mods[i], val);
	}
	len += snprintf(buf + len, size - len, "| ");
	for (i = 0; i < npaths; i++)
		len += snprintf(buf + len, size - len, "%s:%s ", paths[i],
				access(paths[i], F_OK) ? "no" : "yes");
	dir = opendir("/sys/class/mtd");
	while (dir && (d = readdir(dir)))
		if (!strncmp(d->d_name, "mtd", 3) && !strchr(d->d_name, 'r'))
			mtd++;
	if (dir)
		closedir(dir);
	snprintf(buf + len, size - len, "mtd-devices=%d", mtd);
}

/*
 * Run one action; with ctl >= 0, arm fail-nth with n just before the
 * system call and read what is left of it right after.  Returns 0 or
 * -errno; *left is 0 when the Nth point was reached.
 */
static int run(const char *spec, int ctl, unsigned int n, long *left)
{
	char buf[512], num[16], *what, *arg1, *arg2;
	int fd = -1, rc;
	ssize_t len;

	snprintf(buf, sizeof(buf), "%s", spec);
	what = buf;
	arg1 = strchr(what, ':');
	if (!arg1)
		goto bad;
	*arg1++ = '\0';
	arg2 = strchr(arg1, ':');
	if (arg2)
		*arg2++ = '\0';

	if (!strcmp(what, "rmmod-idle")) {
		char path[256], val[16] = "";

		snprintf(path, sizeof(path), "/sys/module/%s/refcnt", arg1);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return 0;
		len = read(fd, val, sizeof(val) - 1);
		close(fd);
		fd = -1;
		if (len <= 0 || atoi(val) != 0)
			return 0;
		what = "rmmod";
	}
	if (!strcmp(what, "write")) {
		if (!arg2)
			goto bad;
		fd = open(arg1, O_WRONLY);
	} else if (!strcmp(what, "load")) {
		fd = open(arg1, O_RDONLY);
	} else if (strcmp(what, "rmmod")) {
		goto bad;
	}
	if (strcmp(what, "rmmod") && fd < 0) {
		fprintf(stderr, "failnth: %s: %s\n", arg1, strerror(errno));
		exit(2);
	}

	if (ctl >= 0) {
		len = snprintf(num, sizeof(num), "%u", n);
		if (pwrite(ctl, num, len, 0) != len) {
			fprintf(stderr, "failnth: cannot arm fail-nth: %s\n", strerror(errno));
			exit(2);
		}
	}
	if (!strcmp(what, "write"))
		rc = write(fd, arg2, strlen(arg2)) == (ssize_t)strlen(arg2) ? 0 : -errno;
	else if (!strcmp(what, "load"))
		rc = syscall(SYS_finit_module, fd, arg2 ? arg2 : "", 0) ? -errno : 0;
	else
		rc = syscall(SYS_delete_module, arg1, O_NONBLOCK) ? -errno : 0;
	if (ctl >= 0) {
		/* Read back, then disarm, before anything else allocates. */
		memset(num, 0, sizeof(num));
		len = pread(ctl, num, sizeof(num) - 1, 0);
		if (len <= 0 || pwrite(ctl, "0", 1, 0) != 1) {
			fprintf(stderr, "failnth: cannot read back fail-nth\n");
			exit(2);
		}
		*left = strtol(num, NULL, 10);
	}
	if (fd >= 0)
		close(fd);
	return rc;
bad:
	fprintf(stderr, "failnth: %s: not write:PATH:STRING, load:FILE:PARAMS, rmmod:NAME or rmmod-idle:NAME\n",
		spec);
	exit(2);
}

static void run_all(const char **list, int n)
{
	int i;

	for (i = 0; i < n; i++)
		run(list[i], -1, 0, NULL);
}

static const char *devices(const char *state)
{
	const char *bar = strchr(state, '|');

	return bar ? bar : state;
}

static int readable(const char *dev)
{
	char buf[512];
	int fd = open(dev, O_RDONLY);
	ssize_t len;

	if (fd < 0)
		return 0;
	len = read(fd, buf, sizeof(buf));
	close(fd);
	return len == sizeof(buf);
}

int main(int argc, char **argv)
{
	char clean[1024], ok[1024], now[1024];
	unsigned int n, max = 5000;
	unsigned int failed = 0, passed = 0, other = 0, bad = 0;
	const char *dev = NULL, *action, *progress = NULL;
	char num[16];
	long left = 0;
	int opt, ctl, rc = 0, may_stay_clean = 0, pfd = -1;

	while ((opt = getopt(argc, argv, "n:p:u:m:e:r:cP:")) != -1) {
		switch (opt) {
		case 'c': may_stay_clean = 1; break;
		case 'n': max = strtoul(optarg, NULL, 10); break;
		case 'p': add(prep, &nprep, optarg); break;
		case 'u': add(undo, &nundo, optarg); break;
		case 'm': add(mods, &nmods, optarg); break;
		case 'e': add(paths, &npaths, optarg); break;
		case 'r': dev = optarg; break;
		case 'P': progress = optarg; break;
		default: goto usage;
		}
	}
	if (optind != argc - 1)
		goto usage;
	action = argv[optind];

	ctl = open("/proc/thread-self/fail-nth", O_RDWR);
	if (ctl < 0) {
		fprintf(stderr, "failnth: /proc/thread-self/fail-nth: %s (CONFIG_FAULT_INJECTION?)\n",
			strerror(errno));
		return 2;
	}

	/* The two states a run may leave: before it, and a run without faults. */
	run_all(prep, nprep);
	state(clean, sizeof(clean));
	rc = run(action, -1, 0, NULL);
	state(ok, sizeof(ok));
	printf("# before: %s\n# after a run without faults (rc %d): %s\n", clean, rc, ok);
	if (rc) {
		printf("points=0 failed=0 passed=0 bad=1\n");
		return 1;
	}
	run_all(undo, nundo);

	if (progress) {
		pfd = open(progress, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (pfd < 0) {
			fprintf(stderr, "failnth: %s: %s\n", progress, strerror(errno));
			return 2;
		}
	}
	for (n = 1; n <= max; n++) {
		if (pfd >= 0) {
			int len = snprintf(num, sizeof(num), "%u\n", n);

			if (pwrite(pfd, num, len, 0) != len)
				fprintf(stderr, "failnth: %s: %s\n", progress, strerror(errno));
		}
		run_all(prep, nprep);
		rc = run(action, ctl, n, &left);
		state(now, sizeof(now));
		if (rc == 0) {
			if (may_stay_clean && !left && !strcmp(now, clean)) {
				/* The action passed, what it started failed cleanly. */
				failed++;
			} else {
				passed++;
				/*
				 * The devices must be those of a run without
				 * faults; the drivers serving them may differ
				 * (physmap falls back from cfi_probe to
				 * map_rom, for one).
				 */
				if (strcmp(devices(now), devices(ok)) || (dev && !readable(dev))) {
					bad++;
					printf("# N=%u: passed, then %s%s\n", n, now,
					       dev && !readable(dev) ? ", device unreadable" : "");
				} else if (strcmp(now, ok)) {
					other++;
				}
			}
			run_all(undo, nundo);
			state(now, sizeof(now));
			if (strcmp(now, clean)) {
				bad++;
				printf("# N=%u: after undo: %s\n", n, now);
			}
		} else {
			failed++;
			if (strcmp(now, clean)) {
				bad++;
				printf("# N=%u: failed with %d, then %s\n", n, rc, now);
			}
			if (left) {
				bad++;
				printf("# N=%u: failed with %d, but no fault was injected\n", n, rc);
			}
		}
		if (left)
			break;
	}
	if (n > max) {
		bad++;
		printf("# no end after %u runs\n", max);
	}
	/* The last run reached no Nth point: it is not a fault point. */
	printf("points=%u failed=%u passed=%u other-driver=%u bad=%u\n", n - 1, failed,
	       passed - (left && rc == 0), other, bad);
	return bad ? 1 : 0;
usage:
	fprintf(stderr, "usage: failnth [-n MAX] [-p PREP]... [-u UNDO]... [-m MODULE]... [-e PATH]... [-r DEVICE] [-c] [-P FILE] ACTION\n");
	return 2;
}
