#!/bin/sh
# Print the tree the lab builds for KVER, as results and mails name it:
# "Debian's linux-source-KVER VERSION" (the installed package's version).
#
# usage: version.sh [KVER]
kver=${1:-${KVER:-6.1}}
v=$(dpkg-query -W -f='${Version}' "linux-source-$kver" 2>/dev/null) || v=
echo "Debian's linux-source-$kver ${v:-(not installed)}"
