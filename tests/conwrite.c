// SPDX-License-Identifier: GPL-2.0
/*
 * conwrite: copy stdin to /dev/console, and never wait on the console for
 * long.  tests/init sends the tests' output to the results port and,
 * through this, to the console, for a person reading console.log.  A write
 * to the console's tty waits for the UART to drain its buffer, which it
 * does on the transmit interrupt; after an oops (the baseline's
 * map_destroy() of a qinfo_probe map) the console has been seen to take
 * no more of it, while the kernel's own messages, which poll the UART,
 * went on: the buffer stayed full, the copy to the console blocked, and
 * with it the tests and the power-off, until QEMU's timeout.  Here a
 * console that takes nothing for STALL_MS is given up: the rest of the
 * output goes to the results port only, and the kernel log says how many
 * bytes the console missed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <unistd.h>

#define STALL_MS 5000

/* usage: conwrite [TTY]   (default /dev/console) */
int main(int argc, char **argv)
{
	struct pollfd p = { .events = POLLOUT };
	unsigned long dropped = 0;
	char buf[4096];
	ssize_t n, off, w;

	p.fd = open(argc > 1 ? argv[1] : "/dev/console", O_WRONLY | O_NONBLOCK | O_NOCTTY);
	while ((n = read(0, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n; off += w) {
			w = p.fd < 0 ? -1 : write(p.fd, buf + off, n - off);
			if (w > 0)
				continue;
			w = 0;
			if (p.fd >= 0 && (errno == EAGAIN || errno == EINTR) &&
			    poll(&p, 1, STALL_MS) > 0)
				continue;
			/* Stalled, or no console: stop trying. */
			if (p.fd >= 0)
				close(p.fd);
			p.fd = -1;
			dropped += n - off;
			break;
		}
	}
	if (dropped) {
		FILE *k = fopen("/dev/kmsg", "w");

		if (k) {
			fprintf(k, "conwrite: the console took nothing for %d ms; %lu bytes of the tests' output went to the results port only\n",
				STALL_MS, dropped);
			fclose(k);
		}
	}
	return 0;
}
