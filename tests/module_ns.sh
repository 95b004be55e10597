#!/bin/sh
# symbol_get() and symbol_request() against symbol namespaces (7.x): a
# symbol exported to one module (EXPORT_SYMBOL_FOR_MODULES) or into a
# namespace (EXPORT_SYMBOL_NS_GPL) is given only to the modules the loader
# would let link against it: the one named, one that imports the
# namespace (MODULE_IMPORT_NS); any other is refused, with one warning
# that names it, the symbol and the namespace, and no reference taken on
# the owner.  A symbol in no namespace goes to any GPL module.
#
# The modules are tests/modules/ns: ns_owner exports ns_test_plain (1),
# ns_test_ns (2, LAB_NS_TEST) and ns_test_for_modules (3, for
# ns_user_named); ns_user_named, ns_user_import (imports LAB_NS_TEST) and
# ns_user_other each symbol_get() all three at load and hold what they
# got; ns_request symbol_request()s ns_test_for_modules with ns_owner not
# loaded.  The i915_ips_ops export to intel_ips alone is tested where it
# is used: tests/intel_ips.sh (intel_ips takes it) and
# tests/drm_ips_table.sh (another module is refused).
. /tests/ktap.sh
. /tests/mtd_lib.sh

# kmod's insmod and depmod, not the shell's busybox applets: busybox's
# insmod loads a module a second time when the first attempt fails
# (finit_module(), then init_module()), which doubles every kernel line
# counted here; its depmod writes no .bin indexes for the kernel's
# /sbin/modprobe (kmod).
insmod() { /sbin/insmod "$@"; }

M=/tests/modules
USERS="ns_user_named ns_user_import ns_user_other"

ktap_print_header
ktap_set_plan 11

if [ ! -f $M/ns_owner.ko ]; then
	ktap_print_msg "no tests/modules/ns modules: this tree has no EXPORT_SYMBOL_FOR_MODULES"
	for t in owner_loads plain_given_to_all for_modules_given_to_named \
		ns_given_to_importer for_modules_refused_to_others ns_refused_without_import \
		refusals_warn_once owner_holds_what_was_given owner_free_after_put \
		request_refused_not_pinned request_owner_unloads; do
		ktap_test_fail "$t"
	done
	ktap_finished
fi

# got MODULE PARAM: what MODULE's symbol_get() of it returned (0: NULL).
got() { cat "/sys/module/$1/parameters/$2" 2>/dev/null || echo absent; }
# said CALLER SYMBOL NAMESPACE: kernel lines naming all three.
said() { dmesg | grep "$1" | grep "$2" | grep -c -- "$3"; }

dmesg -c >/dev/null
insmod $M/ns_owner.ko
ktap_expect_eq owner_loads "insmod ns_owner exit code" "$?" 0
for u in $USERS; do
	insmod $M/$u.ko || ktap_print_msg "insmod $u failed: $?"
done
dmesg | grep 'ns_' | sed 's/^/# kernel: /'

ktap_expect_eq plain_given_to_all "ns_test_plain() to $USERS" \
	"$(got ns_user_named got_plain) $(got ns_user_import got_plain) $(got ns_user_other got_plain)" "1 1 1"
ktap_expect_eq for_modules_given_to_named "ns_test_for_modules() (module:ns_user_named) to ns_user_named" \
	"$(got ns_user_named got_for_modules)" 3
ktap_expect_eq ns_given_to_importer "ns_test_ns() (LAB_NS_TEST) to ns_user_import, which imports it" \
	"$(got ns_user_import got_ns)" 2
ktap_expect_eq for_modules_refused_to_others "ns_test_for_modules() to ns_user_import, ns_user_other (0: refused)" \
	"$(got ns_user_import got_for_modules) $(got ns_user_other got_for_modules)" "0 0"
ktap_expect_eq ns_refused_without_import "ns_test_ns() to ns_user_named, ns_user_other (0: refused)" \
	"$(got ns_user_named got_ns) $(got ns_user_other got_ns)" "0 0"
ktap_expect_eq refusals_warn_once "kernel lines naming caller, symbol and namespace, per refusal" \
	"$(said ns_user_import ns_test_for_modules module:ns_user_named) $(said ns_user_other ns_test_for_modules module:ns_user_named) $(said ns_user_named ns_test_ns LAB_NS_TEST) $(said ns_user_other ns_test_ns LAB_NS_TEST)" \
	"1 1 1 1"
# A reference for each symbol given: plain three times, the other two once.
ktap_expect_eq owner_holds_what_was_given "ns_owner refcnt with the three users loaded" \
	"$(refcnt ns_owner)" 5
for u in $USERS; do
	rmmod $u
done
ktap_expect_eq owner_free_after_put "ns_owner refcnt after the users' symbol_put()s; rmmod ns_owner exit code" \
	"$(refcnt ns_owner) $(rmmod ns_owner; echo $?)" "0 0"

# symbol_request(): modprobe "symbol:ns_test_for_modules" finds ns_owner
# through modules.symbols, loads it, and the lookup refuses the symbol.
kver=$(uname -r)
mkdir -p /lib/modules/$kver/extra
cp $M/ns_owner.ko /lib/modules/$kver/extra/
/sbin/depmod -a
ktap_print_msg "modules.symbols: $(grep -c 'symbol:ns_test_for_modules ns_owner' /lib/modules/$kver/modules.symbols) alias line(s) for ns_test_for_modules"
ktap_print_msg "the kernel runs $(cat /proc/sys/kernel/modprobe), which would: $(/sbin/modprobe -n -v symbol:ns_test_for_modules 2>&1 | tr '\n' ' ')"
dmesg -c >/dev/null
insmod $M/ns_request.ko
rc=$?
dmesg | grep 'ns_' | sed 's/^/# kernel: /'
ktap_expect_eq request_refused_not_pinned "insmod ns_request exit code; what it got (0: refused); ns_owner loaded by the request, its refcnt" \
	"$rc $(got ns_request got) $([ -d /sys/module/ns_owner ] && echo loaded || echo absent) $(refcnt ns_owner)" \
	"0 0 loaded 0"
rmmod ns_owner 2>/dev/null
ktap_expect_eq request_owner_unloads "rmmod ns_owner with ns_request loaded: exit code" "$?" 0
rmmod ns_request 2>/dev/null
[ ! -d /sys/module/ns_owner ] || rmmod ns_owner
rm -f /lib/modules/$kver/extra/ns_owner.ko
/sbin/depmod -a
ktap_finished
