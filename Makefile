# The lab: apply the series to Debian's linux-source, build a QEMU test
# kernel, boot it and run the guest tests.  Each target is a stage; each
# stage is a short script in qemu/ or tests/; stamp files skip a stage
# whose inputs did not change.
#
#   make             packages, tree, apply, config, kernel, initramfs, boot,
#                    results: the smoke tests on the patched tree
#   make check       everything: all tests on the patched tree and the
#                    baseline, static, bisect, linked, stress, coverage,
#                    mail; one closing summary
#   make baseline    the same tests on the unpatched tree (empty series),
#                    in its own build folder
#   make static | bisect | linked | coverage | mail    the gates one by
#                    one (see README.md)
#   make compile     apply, configure, compile the folders the series
#                    changes: no link, no boot (.ci/run, KVER=6.12)
#   make fresh       make, from nothing, in a new Debian 12 root
#   make help        the variables below

# Variables, with their defaults.
KVER     ?= 6.1#          linux-source-$(KVER) from Debian
BUILD    ?= build#        build folder (ignored by git)
SERIES   ?= series#       the series to apply (VARIANT=baseline: none)
VARIANT  ?= patched#      patched | baseline
TESTS    ?= $(SMOKE_TESTS)#  guest tests to run (names in tests/, no .sh)
ACCEL    ?= tcg#          tcg | kvm (falls back to tcg without /dev/kvm)
TIMEOUT  ?= 900#          seconds before a hung guest is killed
STRESS_TIMEOUT ?= 3300#   make stress: seconds before a guest is killed
STRESS_TEST_TIMEOUT ?= 2700#  make stress: seconds for each guest test
FRESH    ?= make#         make fresh: the command run in the new root
JOBS     ?= $(shell nproc)
V        ?= 0#            1: show the commands of every stage

SMOKE_TESTS := mtd_physmap mtd_mtdram mtd_nandsim drm_vkms drm_ips_table
# 7.x: symbol_get() against symbol namespaces (patches/module).
NS_TESTS := $(if $(filter 7.%,$(KVER)),module_ns)
CHECK_TESTS := $(SMOKE_TESTS) mtd_cfi_sim intel_ips $(NS_TESTS)
# make stress, on the debug kernel (qemu/debug.config): the stress tests,
# then the smoke tests (under KASAN and lockdep, and for make coverage;
# after stress_badinput, which needs lockdep still on: drm_ips_table's
# non-GPL module turns it off), stress_reports last: kmemleak, taint.
STRESS_TESTS := stress_physmap stress_race stress_failnth stress_failnth_lpddr stress_nand \
	stress_mtdtests mtd_cfi_sim intel_ips $(NS_TESTS) stress_badinput $(SMOKE_TESTS) stress_reports
CYCLES   ?= 1000#         make stress: physmap bind/unbind cycles (the rest scales)
CHECK_CYCLES ?= 300#      make check's stress run, unless CYCLES is given
BASE_FRAGMENTS := qemu/base.config qemu/mtd.config qemu/drm.config
FRAGMENTS    = $(BASE_FRAGMENTS) $(EXTRA_FRAGMENTS)
BISECT_CONFIGS ?= modular builtin nomodules

override BUILD := $(abspath $(BUILD))
K        := $(BUILD)/$(KVER)
PRISTINE := $(K)/pristine
LAB_SERIES := $(SERIES)
TARBALL  := /usr/src/linux-source-$(KVER).tar.xz
ifneq ($(filter baseline baseline-%,$(VARIANT)),)
override SERIES := qemu/empty.series
export XFAIL := $(CURDIR)/qemu/baseline.xfail
endif
# A variant builds in build/KVER/FOLDER, its own folder but for the
# linked kernels (make linked), whose name says which: builtin,
# nomodules, nomodules-nointelext, and baseline-NAME on the baseline.
# They build in the folders of make bisect's last steps (the same
# configuration at the last patch), one after the other, so that each is
# an incremental build of the one before; every test name says which
# kernel it ran on.  The nomodules kernels have a folder of their own
# (without module support nearly every object differs); the builtin ones
# build in the baseline's: the same kernel with the MTD chip drivers,
# i915 and intel_ips switched from m to y, which kbuild rebuilds, with
# what depends on those options (630 of the 1621 objects), instead
# of the whole kernel in a new folder.  make baseline switches it back.
#
# On 7.x a fourth: trim (qemu/trim.config, CONFIG_TRIM_UNUSED_KSYMS, the
# command sets modular), in a folder of its own for the patched tree and
# the baseline: symbol_get() records its symbol for modpost there (7.2
# does, 6.12 does not), so that the series' lookups keep the command
# sets' exports, where the baseline's lookup by a run-time name cannot.
# The lab's test modules keep their imports through trim.whitelist
# (qemu/trim.sh).
LINKED := builtin nomodules nomodules-nointelext $(if $(filter 6.%,$(KVER)),,trim)
LINKED_NAME := $(VARIANT:baseline-%=%)
FOLDER   := $(VARIANT)
ifeq ($(LINKED_NAME),trim)
FOLDER   := trim
EXTRA_FRAGMENTS := qemu/trim.config
TESTS := mtd_physmap $(if $(filter baseline-%,$(VARIANT)),,drm_ips_table)
export RESULT_PREFIX := trim.
else ifneq ($(filter $(LINKED),$(LINKED_NAME)),)
FOLDER   := $(patsubst builtin,baseline,$(firstword $(subst -, ,$(LINKED_NAME))))
EXTRA_FRAGMENTS := qemu/builtin.config \
	$(if $(findstring nomodules,$(LINKED_NAME)),qemu/nomodules.config) \
	$(if $(findstring nointelext,$(LINKED_NAME)),qemu/nointelext.config)
TESTS := $(if $(findstring nointelext,$(LINKED_NAME)),mtd_physmap_no_cmdset,mtd_physmap_linked)
KERNEL_TARGETS := $(if $(findstring nomodules,$(LINKED_NAME)),bzImage)
export RESULT_PREFIX := $(LINKED_NAME).
endif
VD       := $(K)/$(FOLDER)
RD       := $(K)/$(VARIANT)
SRC      := $(VD)/src
OBJ      := $(VD)/obj
# The coverage kernels instrument the files the series changes.
ifneq ($(filter qemu/coverage.config,$(EXTRA_FRAGMENTS)),)
export KBUILD_ARGS := $(shell KVER=$(KVER) qemu/coverage.sh kbuild-args $(LAB_SERIES))
endif
PATCHES  := $(wildcard $(shell KVER=$(KVER) qemu/series.sh $(SERIES) 2>/dev/null))
RUNDIR    = $(RD)/runs/$(RUN_ID)
RUN_ID   := $(shell date +%Y%m%d-%H%M%S)

export V JOBS ACCEL TIMEOUT VARIANT KVER CMDLINE
Q := $(if $(filter 1,$(V)),,@)

.PHONY: FORCE all check check-all check-stages $(addprefix stage-,$(STAGES)) check-tests baseline stress bench smoke bisect static mail packages tree apply config kernel \
	linked coverage compile \
	initramfs help clean prune distclean fresh
.DELETE_ON_ERROR:

all: smoke

# Everything: all tests on the patched tree and on the baseline, the
# series built patch by patch in every bisect configuration, the linked
# kernels, the stress run on the debug kernel, coverage, the mails.  make
# check is a graph of stages (the stage-* targets below), which a make of
# its own schedules with CHECK_JOBS job slots; each stage runs
# qemu/stage.sh: its whole output in build/KVER/stages/NAME.log, its
# result in NAME.result, its time in NAME.time, and on the terminal one
# line when it starts and ends and its progress lines, prefixed with its
# name.  Every stage runs even if one before it failed; qemu/summary.sh
# closes with one "N passed, N failed" over all of them.  `make -n
# check` shows the graph.
#
#   tree --+-- stress (debug kernel + 2 guests) -- coverage -----------+
#          +-- patched -- baseline --+-- static -- bisect -- linked -----+-- mail
#          |                         +-- nomodules (bisect, linked) -----+
#   guard (no prerequisite)
#
# The order inside a branch is the folders': baseline, static, bisect
# and linked build in build/KVER/baseline one after the other (each an
# incremental build of the one before); nomodules has its folder, stress
# its own (debug).  CHECK_JOBS=3: stress, the baseline folder's chain
# and nomodules side by side (each kernel build runs -j$(JOBS); a guest
# keeps one CPU busy).  Stress's loops run CHECK_CYCLES times, unless
# CYCLES is given (make stress alone: 1000).
#
# Time: with CHECK_DEADLINE (seconds since the epoch; .ci/run gives its
# own end, less a margin), the stages marked -g below (stress, bisect,
# nomodules, linked) run only if they fit before it on a slow day: 2.2 x
# their shortest recent run on this machine (qemu/costs.sh; CI's runs keep
# records of their own, COST_TAG=ci), else the figure given, a slow day's
# run.  A stage cut is counted as skipped and named with the command that
# runs it, coverage goes with stress, and the cover letters lose the
# sentences that stage proves (qemu/mail.sh, "%stage").  Without
# CHECK_DEADLINE everything runs.
CHECK_JOBS ?= 3
# ".recorded" when every step of the configurations given has a record on
# this machine (qemu/bisect.sh): the stage then builds no step, and its
# time is recorded apart, with a slow day's figure of its own; so is
# linked's, which then builds the folders of the last steps itself.  When
# make bisect did not pass (cut for time, or failed), its folders do not
# hold the last steps either, and on a tree whose builtin configuration
# this machine never built, linked's kernels are cold builds: its time
# is kept as linked.cold, with a slow day's figure of 4000 s (two cold
# builtin kernels, ~800 s each on a fast day, and the trim kernels).
# $(call RECORDED_STAGE,CONFIGS,SLOW-RECORDED,SLOW,NAME): qemu/stage.sh's
# start of stage NAME, its time kept as NAME.recorded when every step of
# CONFIGS is on the record.
RECORDED_STAGE = r=$$(KVER=$(KVER) BUILD=$(BUILD) BASE_FRAGMENTS="$(BASE_FRAGMENTS)" \
		qemu/bisect.sh -n $(SERIES) $(1) | sed -n 's/^0$$/.recorded/p'); \
	$(STAGE) -g $$([ -n "$$r" ] && echo $(2) || echo $(3)) -c $(4)$$r $(4)
BISECT_NOMODULES := $(filter nomodules,$(BISECT_CONFIGS))
BISECT_OTHERS    := $(filter-out nomodules,$(BISECT_CONFIGS))
LINKED_NOMODULES := $(filter nomodules%,$(LINKED))
LINKED_OTHERS    := $(filter-out nomodules%,$(LINKED))
CHECK_VARIANTS := patched baseline debug $(foreach v,$(LINKED),$(v) baseline-$(v))
STAGES := guard tree stress patched baseline static bisect linked nomodules coverage mail
STAGE = qemu/stage.sh $(K)/stages
check: packages
	$(Q)mkdir -p $(K) && rm -f $(K)/mail.status $(K)/bisect.txt $(K)/bisect-nomodules.txt $(K)/static.txt $(K)/guard.txt \
		$(foreach v,$(CHECK_VARIANTS),$(K)/$(v)/last-run) $(K)/coverage/results.txt $(K)/stages/*.result
	-$(Q)$(MAKE) --no-print-directory -j$(CHECK_JOBS) check-stages
	$(Q)cat $(K)/bisect-nomodules.txt >>$(K)/bisect.txt 2>/dev/null || true
	$(Q)qemu/summary.sh $(K) $(CHECK_VARIANTS)

check-stages: $(addprefix stage-,$(STAGES))
stage-guard:
	$(Q)$(STAGE) guard qemu/guard.sh $(K)/guard.txt
stage-tree:
	$(Q)$(STAGE) tree $(MAKE) --no-print-directory tree
stage-stress: stage-tree
	$(Q)$(STAGE) -g 4400 stress $(MAKE) --no-print-directory stress \
		CYCLES=$(if $(filter command line,$(origin CYCLES)),$(CYCLES),$(CHECK_CYCLES))
stage-patched: stage-tree
	$(Q)$(STAGE) patched $(MAKE) --no-print-directory smoke TESTS="$(CHECK_TESTS)"
stage-baseline: stage-patched
	$(Q)$(STAGE) baseline $(MAKE) --no-print-directory baseline TESTS="$(CHECK_TESTS)"
stage-static: stage-baseline
	$(Q)$(STAGE) static $(MAKE) --no-print-directory static
stage-bisect: stage-static
	$(Q)$(if $(BISECT_OTHERS),$(call RECORDED_STAGE,$(BISECT_OTHERS),300,2900,bisect) \
		$(MAKE) --no-print-directory bisect BISECT_CONFIGS="$(BISECT_OTHERS)")
stage-linked: stage-bisect
	$(Q)if ! grep -qsx ok $(K)/stages/bisect.result; then g='-g 4000 -c linked.cold'; \
		elif grep -qs '(built here' $(K)/bisect.txt; then g='-g 1500 -c linked.recorded'; else g='-g 300'; fi; \
		$(STAGE) $$g linked $(MAKE) --no-print-directory linked LINKED_RUN="$(LINKED_OTHERS)"
stage-nomodules: stage-baseline
	$(Q)$(call RECORDED_STAGE,$(BISECT_NOMODULES),1500,2300,nomodules) sh -c '$(if $(BISECT_NOMODULES),$(MAKE) --no-print-directory bisect \
		BISECT_CONFIGS="$(BISECT_NOMODULES)" BISECT_REPORT=$(K)/bisect-nomodules.txt;) \
		$(MAKE) --no-print-directory linked LINKED_RUN="$(LINKED_NOMODULES)"'
stage-coverage: stage-stress
	$(Q)$(STAGE) -r stress coverage $(MAKE) --no-print-directory coverage COVERAGE_STRESS=0
stage-mail: stage-linked stage-nomodules stage-coverage
	$(Q)$(STAGE) mail sh -c '$(MAIL_STATUS)'

# make mail in make check and check-tests: its exit code in mail.status,
# "skip" without a git identity to sign with.
MAIL_STATUS = if [ -n "$$(git config user.name)" ] && [ -n "$$(git config user.email)" ]; then \
		$(MAKE) --no-print-directory mail; echo $$? >$(K)/mail.status; \
	else echo skip >$(K)/mail.status; fi

# sparse (C=2) and W=1 on the files the series touches: no new warning.
static: packages
	$(Q)$(MAKE) --no-print-directory kernel
	$(Q)$(MAKE) --no-print-directory kernel VARIANT=baseline
	$(Q)qemu/static.sh $(K) $(SERIES)

# The series as mails, one thread per subsystem with a cover letter,
# signed with the sender's git identity, checked by git am.
mail: packages $(VD)/stamp.series
	$(Q)qemu/mail.sh $(SRC) $(SERIES) $(VD)/mail

baseline: packages
	$(Q)$(MAKE) --no-print-directory smoke VARIANT=baseline

# make check's guest tests on the patched tree, and the trim kernels
# where the tree has them: what .ci/run boots of a second tree (7.2).
# Then make mail, as make check runs it (skipped without a git
# identity).  Not the baseline: with it the stage would no longer fit
# CI's time after make check on most days (see README, CI).
CHECK_TESTS_RUNS = $(VARIANT) $(if $(filter trim,$(LINKED)),trim baseline-trim)
check-tests: packages
	$(Q)rm -f $(foreach v,$(CHECK_TESTS_RUNS),$(K)/$(v)/last-run) $(K)/mail.status
	-$(Q)$(MAKE) --no-print-directory smoke TESTS="$(CHECK_TESTS)"
ifneq ($(filter trim,$(LINKED)),)
	-$(Q)$(MAKE) --no-print-directory linked LINKED_RUN=trim
endif
	-$(Q)$(MAIL_STATUS)
	$(Q)qemu/summary.sh -t $(K) $(CHECK_TESTS_RUNS)

# make check on several trees at once (CHECK_TREES): one make whose jobs
# are each tree's make check, so that a guest of one tree runs beside a
# build of the other instead of after it.  Each tree's output goes to
# build/KVER/check.log and, prefixed "[KVER]", to the terminal; then one
# line per tree and the total.  The packages of every tree are installed
# first, one tree after the other (apt takes one lock).  CHECK_DEADLINE
# holds for both.
CHECK_TREES ?= 6.1 7.2#  make check-all: the trees checked at once
check-all:
	$(Q)for t in $(CHECK_TREES); do $(MAKE) --no-print-directory packages KVER=$$t || exit; done
	-$(Q)$(MAKE) --no-print-directory -j$(words $(CHECK_TREES)) $(CHECK_TREES:%=check-tree-%)
	$(Q)qemu/summary.sh -a $(BUILD) $(CHECK_TREES)
check-tree-%:
	$(Q)mkdir -p $(BUILD)/$* && $(MAKE) --no-print-directory check KVER=$* 2>&1 | \
		tee $(BUILD)/$*/check.log | sed -u 's/^/[$*] /'

# Stress, fault injection and bad input on the debug kernel (KASAN,
# lockdep, kmemleak, DEBUG_OBJECTS, DEBUG_LIST, failslab), which is also
# the coverage kernel (gcov on the files the series changes): its own
# variant, build/KVER/debug, with the lab's fragments (i915 and intel_ips
# included, for the coverage of the DRM patches: ~5 min of build under
# KASAN, less than a kernel of its own); the table of figures at the end.
STRESS_VARS := VARIANT=debug EXTRA_FRAGMENTS="qemu/debug.config qemu/coverage.config"
# STRESS_BUILD_NICE: a command put before the debug kernel's build (e.g.
# "nice -n 10"; the guests run at the usual priority).  make check gives
# none: at nice 10 beside it the debug build took 85 min of a cold run
# (2026-12-05) and its guest then ran alone, one CPU idle, for 18 min
# after everything else had ended.
#
# The tests run in two guests of the debug kernel at once, each with its
# own flash image: a guest alone keeps about one of the two CPUs busy
# (1.14 CPUs, measured), its tests one after the other.  STRESS_SPLIT
# "auto": balanced by what each test took in this machine's last stress
# run of the tree (qemu/split.sh, its record beside the stage costs), or,
# with none on record, the fail-nth sweeps in guest2 and the others in
# guest1; a list of tests: those in guest2; empty: one guest, as before.
# Each guest keeps STRESS_TESTS' order and ends with stress_reports, so
# that kmemleak and the taint are checked in both.  Each guest's tests
# are named after it (guest1.stress_physmap...); the run's folder holds
# both (qemu/guests.sh).  The split is made once, when make reads this
# for `make stress` (split.sh says on stderr what it is made of); the
# sub-make of the guests gets both lists.
STRESS_SPLIT ?= auto#  make stress: the tests of its second guest (auto: balanced; empty: one guest)
STRESS_FALLBACK := stress_failnth stress_failnth_lpddr
STRESS_KEY := $(KVER).stress
ifeq ($(STRESS_SPLIT),auto)
ifneq ($(filter stress,$(MAKECMDGOALS)),)
STRESS_2 := $(shell qemu/split.sh $(STRESS_KEY) "$(STRESS_FALLBACK)" $(filter-out stress_reports,$(STRESS_TESTS)))
endif
else
STRESS_2 := $(filter $(STRESS_SPLIT),$(STRESS_TESTS))
endif
STRESS_1 := $(filter-out $(STRESS_2),$(STRESS_TESTS))
ifneq ($(and $(STRESS_2),$(filter-out stress_reports,$(STRESS_1))),)
STRESS_2 += $(filter stress_reports,$(STRESS_TESTS))
STRESS_GUESTS := guest1 guest2
else
STRESS_1 := $(STRESS_TESTS)
STRESS_2 :=
STRESS_GUESTS := guest1
endif
STRESS_RUN := $(K)/debug/runs/$(RUN_ID)
stress: packages
	$(Q)$(STRESS_BUILD_NICE) $(MAKE) --no-print-directory initramfs $(STRESS_VARS)
	-$(Q)$(MAKE) --no-print-directory -j2 $(STRESS_GUESTS:%=stress-%) $(STRESS_VARS) RUN_ID=$(RUN_ID) \
		STRESS_1="$(STRESS_1)" STRESS_2="$(STRESS_2)"
	$(Q)ln -sfn runs/$(RUN_ID) $(K)/debug/last-run
	$(Q)qemu/split.sh -r $(STRESS_KEY) $(STRESS_RUN)
	$(Q)qemu/guests.sh $(STRESS_RUN) $(STRESS_GUESTS); \
		rc=$$?; qemu/figures.sh $(STRESS_RUN); exit $$rc

# One guest of make stress (above): booted, then judged by results.sh;
# its lines are printed by qemu/guests.sh, with the others'.  The fail-nth
# sweeps' progress names the points of the newest run that has figures
# (make check removes last-run before it starts).
stress-guest%:
	$(Q)GUEST=guest$* LAST_FIGURES="$$(ls -t $(K)/debug/runs/*/figures.md 2>/dev/null | head -n1)" \
		TIMEOUT=$(STRESS_TIMEOUT) \
		CMDLINE="lab.cycles=$(CYCLES) lab.timeout=$(STRESS_TEST_TIMEOUT) $(CMDLINE)" \
		qemu/boot.sh $(OBJ) $(VD)/initramfs.cpio $(STRESS_RUN)/guest$* $(STRESS_$*)
	$(Q)RESULT_PREFIX=guest$*. qemu/results.sh $(SRC) $(STRESS_RUN)/guest$* >/dev/null || true

# The lab's own speed and the series' cost, patched vs baseline: a
# Markdown table (qemu/bench.sh; BENCH_LAB=0 skips the cold lab cycle,
# BENCH_ROUNDS, BENCH_PROBES, BENCH_BOOTS).  Not part of check.
bench: packages
	$(Q)BUILD=$(BUILD) qemu/bench.sh

smoke: packages initramfs
	$(Q)qemu/boot.sh $(OBJ) $(VD)/initramfs.cpio $(RUNDIR) $(TESTS)
	@# The host checks' KTAP is judged by results.sh, with the guest's
	@# (only for the patched and baseline variants: the others are the
	@# same trees).
ifneq ($(filter patched baseline,$(VARIANT)),)
	$(Q)tests/source_checks.sh $(SRC) $(VD)/tests >$(RUNDIR)/source.ktap || true
ifneq ($(PATCHES),)
	$(Q)qemu/checkpatch.sh $(SRC) $(SERIES) $(VD)/checkpatch >$(RUNDIR)/checkpatch.ktap || true
endif
endif
	$(Q)ln -sfn runs/$(RUN_ID) $(RD)/last-run
	$(Q)qemu/results.sh $(SRC) $(RUNDIR)

# The MTD chip drivers and maps linked into the kernel, booted with the
# pflash chip (tests/mtd_physmap_linked.sh): built in (builtin.config),
# without module support (+ nomodules.config: symbol_request() resolves
# at link time), and without module support nor cfi_cmdset_0001
# (+ nointelext.config: the weak reference is NULL,
# tests/mtd_physmap_no_cmdset.sh); each on the patched tree and on the
# baseline.  They build in make bisect's folders (above, FOLDER), each an
# incremental build of the one before.
LINKED_RUN ?= $(LINKED)
linked: packages
	$(Q)rc=0; for v in $(LINKED_RUN); do for b in "" baseline-; do \
		$(MAKE) --no-print-directory smoke VARIANT=$$b$$v || rc=1; done; done; exit $$rc

# Which lines the series adds or changes the guest tests execute, per
# patch (qemu/coverage.sh: an HTML report and the table, in
# build/KVER/coverage/).  The debug kernel carries gcov on the files the
# series changes (qemu/coverage.config), so make stress is the run
# measured: the stress tests with fault injection on the error paths,
# then the smoke tests.  make coverage runs it with COVERAGE_CYCLES (make
# check, with COVERAGE_STRESS=0, reads the run it just made).
COVERAGE_CYCLES ?= 40#    make coverage: lab.cycles of its stress run
coverage: packages
ifneq ($(COVERAGE_STRESS),0)
	-$(Q)$(MAKE) --no-print-directory stress CYCLES=$(COVERAGE_CYCLES)
endif
	$(Q)qemu/coverage.sh report $(PRISTINE) $(SERIES) $(K)/coverage $(K)/debug

# The proof that the two commands install what they need: a new Debian 12
# root from Debian's archive (debootstrap), this repository's HEAD cloned
# into it, $(FRESH) run there from nothing (qemu/fresh.sh): `make`, or
# FRESH="make check", FRESH=.ci/run.  Not part of check: a cold build in
# a root of its own.
fresh:
	$(Q)qemu/packages.sh $(KVER) debootstrap
	$(Q)qemu/fresh.sh $(BUILD)/fresh "$(FRESH)"

# The series compiled without a link or a boot: kbuild's directory target
# of each folder that holds a file the series changes (qemu/compile.sh;
# .ci/run's check of KVER=6.12).
compile: packages $(VD)/stamp.config
	$(Q)qemu/compile.sh $(SRC) $(OBJ) $(SERIES) $(VD)/compile.txt

# Each patch of the series builds on its own, in BISECT_CONFIGS.
bisect: packages tree
	$(Q)BUILD=$(BUILD) BASE_FRAGMENTS="$(BASE_FRAGMENTS)" BISECT_REPORT="$(BISECT_REPORT)" \
		qemu/bisect.sh $(SERIES) $(BISECT_CONFIGS)

# Every file a Debian package provides (the source tarball, SeaBIOS,
# busybox, kmod, mtd-utils, libdrm, the compiler) is read after this
# stage: it is the first prerequisite of every target that reads one, and
# the tarball's own rule, so that make never gives up on a missing
# /usr/src/linux-source-$(KVER).tar.xz before it could install it.  With
# everything installed it is one dpkg query.  qemu/guard.sh (in make
# check) proves the order with `make -n` for a KVER that is not installed.
packages:
	$(Q)LAB_APT_DIR=$(BUILD)/apt qemu/packages.sh $(KVER)

$(TARBALL): | packages
	$(Q)test -r $@ || { echo "tree: $@ is still missing after the packages stage" >&2; exit 1; }

tree: $(PRISTINE)/.lab-stamp
$(PRISTINE)/.lab-stamp: $(TARBALL) qemu/tree.sh | packages
	$(Q)qemu/tree.sh $(TARBALL) $(PRISTINE)
	$(Q)touch $@

# A variant's source tree: a git worktree of the pristine tree.
$(VD)/stamp.worktree: $(PRISTINE)/.lab-stamp
	$(Q)rm -rf $(SRC) && mkdir -p $(VD)
	$(Q)git -C $(PRISTINE) worktree prune
	$(Q)git -C $(PRISTINE) worktree add -q --detach $(SRC) pristine
	$(Q)touch $@

apply: $(VD)/stamp.series
$(VD)/stamp.series: $(VD)/stamp.worktree $(SERIES) $(PATCHES) $(VD)/patches \
		$(wildcard patches/*/$(KVER)/*) qemu/series.sh qemu/apply.sh
	$(Q)rm -f $@
	$(Q)qemu/apply.sh $(SRC) $(SERIES)
	$(Q)touch $@

config: $(VD)/stamp.config
$(VD)/stamp.config: $(VD)/stamp.series $(FRAGMENTS) $(VD)/fragments qemu/config.sh
	$(Q)qemu/config.sh $(SRC) $(OBJ) $(FRAGMENTS)
	$(Q)touch $@

# What a folder's stages last ran with, each file rewritten only when it
# changes: the fragments (one added or dropped re-runs the config stage),
# the patches (another series in the same folder, as make bisect and make
# linked do, re-runs apply), kbuild's targets and variables (the build).
$(VD)/fragments: RECORD = $(FRAGMENTS)
$(VD)/patches: RECORD = $(PATCHES)
$(VD)/kbuild: RECORD = $(KERNEL_TARGETS) $(KBUILD_ARGS)
$(VD)/fragments $(VD)/patches $(VD)/kbuild: FORCE
	$(Q)mkdir -p $(VD)
	$(Q)echo '$(RECORD)' | cmp -s - $@ || echo '$(RECORD)' >$@

kernel: $(VD)/stamp.kernel
$(VD)/stamp.kernel: $(VD)/stamp.config $(VD)/kbuild qemu/build.sh
	$(Q)qemu/build.sh $(SRC) $(OBJ) $(KERNEL_TARGETS)
	$(Q)touch $@

# The trim kernels keep what the lab's test modules import (their
# undefined symbols, as built for the patched tree, less the symbols the
# series is about): rewritten only when it changes, which makes kbuild
# run modpost again.
ifeq ($(LINKED_NAME),trim)
$(VD)/stamp.kernel: $(VD)/trim.whitelist
$(VD)/trim.whitelist: FORCE
	$(Q)$(MAKE) --no-print-directory initramfs VARIANT=patched
	$(Q)mkdir -p $(VD) && qemu/trim.sh $(K)/patched/tests/modules >$@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
endif

initramfs: $(VD)/initramfs.cpio
$(VD)/initramfs.cpio: $(VD)/stamp.kernel $(wildcard tests/* tests/*/* tests/*/*/*) qemu/initramfs.sh
	$(Q)$(MAKE) -s -C tests O=$(VD)/tests KSRC=$(SRC) KOBJ=$(OBJ)
	$(Q)qemu/initramfs.sh $(SRC) $(OBJ) $(VD)/tests $@

help:
	@sed -n 's/^\([A-Z_]*\) *?= *\([^#]*\)#* *\(.*\)/  \1=\2  \3/p' Makefile

clean:
	rm -rf $(VD)

# The source trees and objects of every folder of build/KVER, which make
# rebuilds (through ccache) when asked again; the logs, results and mails
# stay.  .ci/run's way to make room for the next tree when the disk is
# short.
prune:
	rm -rf $(K)/*/src $(K)/*/obj $(K)/*/tests $(K)/*/initramfs.cpio* $(K)/*/stamp.* $(K)/pristine

distclean:
	rm -rf $(BUILD)
