#!/bin/sh
# Print the Debian archive this machine's apt uses: the first URIs: of a
# deb822 source, or the first deb line of sources.list (not the security
# archive); deb.debian.org if neither names one.  Used by fresh.sh (the
# new root's debootstrap) and packages.sh (the unstable suite).
mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
	sed -n 's/^URIs: *\([^ ]*\).*/\1/p' | grep -v security | head -n1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) .*/\2/p' \
	/etc/apt/sources.list 2>/dev/null | grep -v security | head -n1)
echo "${mirror:-http://deb.debian.org/debian}"
