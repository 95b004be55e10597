#!/bin/sh
# The trim kernels' UNUSED_KSYMS_WHITELIST: every symbol the lab's test
# modules in DIR import (nm -u of their .ko), one a line, less those the
# series' lookups are about (cfi_cmdset_*, i915_*): a test module must not
# keep an export that the kernel's own modules would otherwise lose.
#
# usage: trim.sh DIR >WHITELIST
set -eu
dir=$1
set -- "$dir"/*.ko
[ -f "$1" ] || { echo "trim: no test module in $dir" >&2; exit 1; }
nm -u "$@" | awk '$1 == "U" { print $2 }' | grep -v '^cfi_cmdset_\|^i915_' | sort -u
