#!/bin/sh
# vkms through libdrm: the writeback round trip (drm_vkms_writeback, KTAP
# of its own, nested here) and modetest's view of the connector.
. /tests/ktap.sh

ktap_print_header
ktap_set_plan 6

# vkms on one CPU.  Up to 6.12, vkms stops its vblank hrtimer with
# hrtimer_cancel() from ->disable_vblank, which DRM calls with its
# vblank locks held and interrupts off (drm_crtc_vblank_off(), the
# off-delay timer), while the timer's callback takes those locks
# (drm_crtc_handle_vblank()): with the callback on the other CPU, both
# CPUs spin for good.  Seen on the 6.1 debug kernel under TCG (2 runs of
# 50 beside two busy host CPUs): QEMU's registers showed CPU 0 in
# hrtimer_cancel() from an ioctl and CPU 1 in queued_spin_lock_slowpath()
# under __hrtimer_run_queues(), both with interrupts off; no lockup
# report, as no CPU was left to make one.  7.x's vkms uses DRM's vblank
# timer, which cancels with hrtimer_try_to_cancel().  Not the series'
# code: so that the test sees vkms's output and not this race, the
# test's tasks and the unbound workqueues (nonblocking commits, vkms's
# composer) run on CPU 0, where the timer is then started and stopped
# alike (the lab's kernels have no NO_HZ, so hrtimers do not migrate).
# The workqueue mask is given back at the end.
wq_mask=/sys/devices/virtual/workqueue/cpumask
wq_was=$(cat $wq_mask)
echo 1 >$wq_mask
taskset -p 1 $$ >/dev/null
ktap_print_msg "vkms on CPU 0: unbound workqueue cpumask $(cat $wq_mask) (was $wq_was), $(taskset -p $$)"

modprobe vkms enable_writeback=1
rc=$?
ktap_expect_eq vkms_modprobe "modprobe vkms enable_writeback=1 exit code" "$rc" 0

/tests/drm_vkms_writeback >/tmp/vkms.ktap 2>&1
rc=$?
ktap_nest drm_vkms_writeback </tmp/vkms.ktap
if [ "$rc" -eq 0 ]; then
	ktap_test_pass drm_vkms_writeback
else
	ktap_test_fail drm_vkms_writeback
fi

# modetest -c: "id encoder status name size (mm) modes encoders", then
# one line per connector; vkms's Virtual connector must be connected.
modetest -M vkms -c >/tmp/modetest.txt 2>&1
rc=$?
ktap_expect_eq vkms_modetest_exit "modetest -M vkms -c exit code" "$rc" 0
connected=$(grep -c -E '^[0-9]+[[:space:]]+[0-9]+[[:space:]]+connected[[:space:]]+Virtual-' /tmp/modetest.txt)
ktap_expect_eq vkms_modetest_connected "connected Virtual connectors listed by modetest" \
	"$connected" 1
[ "$connected" = 1 ] || sed 's/^/# /' /tmp/modetest.txt

rmmod vkms
rc=$?
ktap_expect_eq vkms_unloads "rmmod vkms exit code" "$rc" 0

echo "$wq_was" >$wq_mask
ktap_expect_eq vkms_workqueue_cpumask_restored "unbound workqueue cpumask after the test" \
	"$(cat $wq_mask)" "$wq_was"
ktap_finished
