#!/bin/sh
# vkms through libdrm: the writeback round trip (drm_vkms_writeback, KTAP
# of its own, nested here) and modetest's view of the connector.
. /tests/ktap.sh

ktap_print_header
ktap_set_plan 5

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
ktap_finished
