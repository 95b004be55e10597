// SPDX-License-Identifier: GPL-2.0
/*
 * probetime: how long a platform driver takes to probe and to remove a
 * device, seen from user space.  A write of the device's name to the
 * driver's "bind" file returns when the driver core has run probe() (and
 * "unbind" when remove() has run), so the time of that write() is the
 * probe's, plus a sysfs write.  For physmap: do_map_probe(), the CFI
 * query, the command set lookup and the MTD registration; on unbind,
 * map_destroy() and the release of the command set.
 *
 * usage: probetime N DRIVERDIR DEVICE
 * Prints "probe_us: MEDIAN MIN MAX" and "remove_us: MEDIAN MIN MAX" over
 * N bind/unbind cycles; exits 1 if a bind or unbind fails.  The device is
 * left bound as it was found (bound or not).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Write DEV to DIR/FILE; the time it took in microseconds, or -1. */
static long long timed_write(const char *dir, const char *file, const char *dev)
{
	char path[4096];
	long long t0, t1;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "probetime: %s: %s\n", path, strerror(errno));
		return -1;
	}
	t0 = now_ns();
	n = write(fd, dev, strlen(dev));
	t1 = now_ns();
	if (n < 0)
		fprintf(stderr, "probetime: %s %s: %s\n", file, dev, strerror(errno));
	close(fd);
	return n < 0 ? -1 : (t1 - t0) / 1000;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static void report(const char *what, long long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp);
	/* The median of an even count: the lower middle, a measured value. */
	printf("%s: %lld %lld %lld\n", what, v[(n - 1) / 2], v[0], v[n - 1]);
}

int main(int argc, char **argv)
{
	char bound[4096];
	long long *probe, *remove;
	int i, n, was_bound;

	if (argc != 4 || (n = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: probetime N DRIVERDIR DEVICE\n");
		return 2;
	}
	probe = calloc(n, sizeof(*probe));
	remove = calloc(n, sizeof(*remove));
	if (!probe || !remove)
		return 2;
	snprintf(bound, sizeof(bound), "%s/%s", argv[2], argv[3]);
	was_bound = access(bound, F_OK) == 0;
	if (was_bound && timed_write(argv[2], "unbind", argv[3]) < 0)
		return 1;
	for (i = 0; i < n; i++) {
		probe[i] = timed_write(argv[2], "bind", argv[3]);
		if (probe[i] < 0)
			return 1;
		/* A probe that failed may still let the write succeed. */
		if (access(bound, F_OK) != 0) {
			fprintf(stderr, "probetime: %s not bound after bind %d\n",
				argv[3], i + 1);
			return 1;
		}
		remove[i] = timed_write(argv[2], "unbind", argv[3]);
		if (remove[i] < 0)
			return 1;
	}
	if (was_bound && timed_write(argv[2], "bind", argv[3]) < 0)
		return 1;
	report("probe_us", probe, n);
	report("remove_us", remove, n);
	return 0;
}
