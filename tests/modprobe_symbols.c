// SPDX-License-Identifier: GPL-2.0
/*
 * modprobe_symbols: a kernel.modprobe for the fault injection sweep of
 * symbol_request(): it runs the real modprobe for "symbol:NAME" requests
 * and refuses every other request at once.  physmap asks for three
 * partition parsers that the lab does not build on every probe; the real
 * modprobe would take a second for them on the debug kernel under TCG,
 * on each of a few hundred probes.
 */
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strncmp(argv[i], "symbol:", 7)) {
			execv("/sbin/modprobe", argv);
			return 1;
		}
	return 1;
}
