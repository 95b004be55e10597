// SPDX-License-Identifier: GPL-2.0
/*
 * vkms through libdrm, end to end: find vkms's connected virtual
 * connector, scan out a dumb buffer holding a known pattern with an atomic
 * modeset, flip to a second pattern with a vblank (page flip) event, and
 * read each frame back through vkms's writeback connector, byte for byte.
 *
 * Needs vkms loaded with enable_writeback=1.  Reports KTAP through the
 * kernel's kselftest.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

#include "kselftest.h"

#define FENCE_TIMEOUT_MS 10000

struct dumb {
	uint32_t handle, pitch, fb_id;
	uint64_t size;
	uint8_t *map;
};

struct kms {
	int fd;
	uint32_t crtc_id, conn_id, wb_id, plane_id;
	drmModeModeInfo mode;
};

static int drm_open_vkms(void)
{
	char path[32];

	for (int i = 0; i < 16; i++) {
		drmVersionPtr v;
		int fd;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		if (v && !strcmp(v->name, "vkms")) {
			drmFreeVersion(v);
			return fd;
		}
		drmFreeVersion(v);
		close(fd);
	}
	return -1;
}

/* The id of property NAME on object ID of TYPE, 0 if it has none. */
static uint32_t prop_id(int fd, uint32_t id, uint32_t type, const char *name)
{
	drmModeObjectPropertiesPtr props;
	uint32_t ret = 0;

	props = drmModeObjectGetProperties(fd, id, type);
	if (!props)
		return 0;
	for (uint32_t i = 0; i < props->count_props && !ret; i++) {
		drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);

		if (p && !strcmp(p->name, name))
			ret = p->prop_id;
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return ret;
}

static uint64_t prop_value(int fd, uint32_t id, uint32_t type,
			   const char *name)
{
	drmModeObjectPropertiesPtr props;
	uint64_t ret = UINT64_MAX;

	props = drmModeObjectGetProperties(fd, id, type);
	if (!props)
		return ret;
	for (uint32_t i = 0; i < props->count_props; i++) {
		drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);

		if (p && !strcmp(p->name, name))
			ret = props->prop_values[i];
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return ret;
}

static int add(drmModeAtomicReqPtr req, int fd, uint32_t obj, uint32_t type,
	       const char *name, uint64_t value)
{
	uint32_t id = prop_id(fd, obj, type, name);

	if (!id) {
		ksft_print_msg("object %u has no property %s\n", obj, name);
		return -1;
	}
	return drmModeAtomicAddProperty(req, obj, id, value) < 0 ? -1 : 0;
}

static int find_kms(struct kms *k)
{
	drmModeResPtr res = drmModeGetResources(k->fd);
	drmModePlaneResPtr pres;
	int connected = 0;

	if (!res)
		return -1;
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnectorPtr c = drmModeGetConnector(k->fd,
							    res->connectors[i]);

		if (!c)
			continue;
		if (c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK) {
			k->wb_id = c->connector_id;
		} else if (c->connection == DRM_MODE_CONNECTED &&
			   c->count_modes > 0 && !k->conn_id) {
			k->conn_id = c->connector_id;
			k->mode = c->modes[0];
			for (int m = 0; m < c->count_modes; m++)
				if (c->modes[m].type & DRM_MODE_TYPE_PREFERRED) {
					k->mode = c->modes[m];
					break;
				}
			connected++;
		}
		drmModeFreeConnector(c);
	}
	if (res->count_crtcs > 0)
		k->crtc_id = res->crtcs[0];
	drmModeFreeResources(res);

	pres = drmModeGetPlaneResources(k->fd);
	for (uint32_t i = 0; pres && i < pres->count_planes; i++) {
		if (prop_value(k->fd, pres->planes[i], DRM_MODE_OBJECT_PLANE,
			       "type") == DRM_PLANE_TYPE_PRIMARY) {
			k->plane_id = pres->planes[i];
			break;
		}
	}
	drmModeFreePlaneResources(pres);
	ksft_print_msg("connector %u (%dx%d@%d), crtc %u, primary plane %u, writeback connector %u\n",
		       k->conn_id, k->mode.hdisplay, k->mode.vdisplay,
		       k->mode.vrefresh, k->crtc_id, k->plane_id, k->wb_id);
	return connected;
}

static int dumb_create(int fd, struct dumb *b, uint32_t w, uint32_t h)
{
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	uint64_t offset;

	if (drmModeCreateDumbBuffer(fd, w, h, 32, 0, &b->handle, &b->pitch,
				    &b->size))
		return -1;
	handles[0] = b->handle;
	pitches[0] = b->pitch;
	if (drmModeAddFB2(fd, w, h, DRM_FORMAT_XRGB8888, handles, pitches,
			  offsets, &b->fb_id, 0))
		return -1;
	if (drmModeMapDumbBuffer(fd, b->handle, &offset))
		return -1;
	b->map = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      offset);
	return b->map == MAP_FAILED ? -1 : 0;
}

static void dumb_destroy(int fd, struct dumb *b)
{
	if (b->map && b->map != MAP_FAILED)
		munmap(b->map, b->size);
	if (b->fb_id)
		drmModeRmFB(fd, b->fb_id);
	if (b->handle)
		drmModeDestroyDumbBuffer(fd, b->handle);
	memset(b, 0, sizeof(*b));
}

/*
 * XRGB8888 with X = 0xff: vkms writes 0xff there on the writeback side,
 * so a faithful pipeline gives back exactly these bytes.
 */
static void fill(struct dumb *b, uint32_t w, uint32_t h, uint32_t seed)
{
	for (uint32_t y = 0; y < h; y++) {
		uint32_t *row = (uint32_t *)(b->map + (size_t)y * b->pitch);

		for (uint32_t x = 0; x < w; x++) {
			seed = seed * 1103515245u + 12345u;
			row[x] = 0xff000000u | (seed >> 8);
		}
	}
}

/* Rows compared byte for byte; the number of differing bytes. */
static size_t compare(const struct dumb *a, const struct dumb *b, uint32_t w,
		      uint32_t h)
{
	size_t diff = 0;

	for (uint32_t y = 0; y < h; y++) {
		const uint8_t *ra = a->map + (size_t)y * a->pitch;
		const uint8_t *rb = b->map + (size_t)y * b->pitch;

		for (uint32_t x = 0; x < w * 4; x++)
			diff += ra[x] != rb[x];
	}
	return diff;
}

static int wait_fence(int fence)
{
	struct pollfd p = { .fd = fence, .events = POLLIN };
	int ret = poll(&p, 1, FENCE_TIMEOUT_MS);

	close(fence);
	return ret == 1 ? 0 : -1;
}

static void flip_handler(int fd, unsigned int seq, unsigned int sec,
			 unsigned int usec, unsigned int crtc_id, void *data)
{
	unsigned int *got = data;

	got[0]++;
	got[1] = crtc_id;
	got[2] = seq;
}

/*
 * One atomic commit.  With MODESET: mode, ACTIVE, ON routed to the CRTC,
 * OFF routed away from it, a full-screen primary plane.  Always: the
 * primary plane shows FB; with WB_FB, a writeback job into WB_FB whose
 * out-fence lands in *FENCE.  FLAGS as drmModeAtomicCommit() takes them.
 */
static int commit(struct kms *k, bool modeset, uint32_t blob, uint32_t on,
		  uint32_t off, uint32_t fb, uint32_t wb_fb, int32_t *fence,
		  uint32_t flags, void *data)
{
	uint32_t w = k->mode.hdisplay, h = k->mode.vdisplay;
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	int fd = k->fd, ret = 0;

	if (modeset) {
		ret |= add(req, fd, k->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
		ret |= add(req, fd, k->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
		ret |= add(req, fd, on, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", k->crtc_id);
		if (off)
			ret |= add(req, fd, off, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", 0);
		ret |= add(req, fd, k->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_ID", k->crtc_id);
		ret |= add(req, fd, k->plane_id, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
		ret |= add(req, fd, k->plane_id, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
		ret |= add(req, fd, k->plane_id, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)w << 16);
		ret |= add(req, fd, k->plane_id, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)h << 16);
		ret |= add(req, fd, k->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_X", 0);
		ret |= add(req, fd, k->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_Y", 0);
		ret |= add(req, fd, k->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_W", w);
		ret |= add(req, fd, k->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_H", h);
	}
	ret |= add(req, fd, k->plane_id, DRM_MODE_OBJECT_PLANE, "FB_ID", fb);
	if (wb_fb) {
		*fence = -1;
		ret |= add(req, fd, k->wb_id, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_FB_ID", wb_fb);
		ret |= add(req, fd, k->wb_id, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_OUT_FENCE_PTR",
			   (uint64_t)(uintptr_t)fence);
	}
	if (!ret)
		ret = drmModeAtomicCommit(fd, req, flags, data);
	if (ret)
		ksft_print_msg("atomic commit: %s\n", strerror(errno));
	drmModeAtomicFree(req);
	return ret;
}

/* A nonblocking flip to FB (and WB_FB) with a page flip event. */
static bool flip(struct kms *k, uint32_t fb, uint32_t wb_fb, int32_t *fence)
{
	drmEventContext ev = { .version = 3, .page_flip_handler2 = flip_handler };
	struct pollfd p = { .fd = k->fd, .events = POLLIN };
	unsigned int got[3] = { 0 };

	if (commit(k, false, 0, 0, 0, fb, wb_fb, fence,
		   DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK, got))
		return false;
	if (poll(&p, 1, FENCE_TIMEOUT_MS) == 1)
		drmHandleEvent(k->fd, &ev);
	ksft_print_msg("flip: %u event(s), sequence %u, crtc %u\n", got[0],
		       got[2], got[1]);
	return got[0] == 1 && got[1] == k->crtc_id;
}

/* Wait for the writeback job, then compare its frame with SCAN's. */
static bool written_back(struct kms *k, int32_t fence, struct dumb *scan,
			 struct dumb *wb)
{
	size_t diff;

	if (fence < 0 || wait_fence(fence)) {
		ksft_print_msg("writeback fence %d did not signal\n", fence);
		return false;
	}
	diff = compare(scan, wb, k->mode.hdisplay, k->mode.vdisplay);
	ksft_print_msg("writeback: %zu of %u bytes differ\n", diff,
		       k->mode.hdisplay * k->mode.vdisplay * 4);
	return diff == 0;
}

static void result(bool ok, const char *name)
{
	if (ok)
		ksft_test_result_pass("%s\n", name);
	else
		ksft_test_result_fail("%s\n", name);
}

int main(void)
{
	struct dumb scan[2] = { 0 }, wb[2] = { 0 };
	struct kms k = { 0 };
	uint32_t w, h, blob = 0;
	int32_t fence = -1;
	drmModeAtomicReqPtr req;
	int connected;
	bool ok;

	ksft_print_header();
	ksft_set_plan(7);

	k.fd = drm_open_vkms();
	if (k.fd < 0)
		ksft_exit_fail_msg("no DRM card driven by vkms\n");
	if (drmSetClientCap(k.fd, DRM_CLIENT_CAP_ATOMIC, 1) ||
	    drmSetClientCap(k.fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1))
		ksft_exit_fail_msg("atomic/writeback client caps: %s\n",
				   strerror(errno));

	connected = find_kms(&k);
	result(connected == 1 && k.crtc_id && k.plane_id,
	       "vkms_one_connected_connector");
	result(k.wb_id, "vkms_writeback_connector_present");
	if (connected != 1 || !k.wb_id || !k.crtc_id || !k.plane_id)
		ksft_exit_fail_msg("cannot go on without them\n");

	w = k.mode.hdisplay;
	h = k.mode.vdisplay;
	for (int i = 0; i < 2; i++)
		if (dumb_create(k.fd, &scan[i], w, h) ||
		    dumb_create(k.fd, &wb[i], w, h))
			ksft_exit_fail_msg("dumb buffer %d: %s\n", i,
					   strerror(errno));
	fill(&scan[0], w, h, 1);
	fill(&scan[1], w, h, 2);
	if (drmModeCreatePropertyBlob(k.fd, &k.mode, sizeof(k.mode), &blob))
		ksft_exit_fail_msg("mode blob: %s\n", strerror(errno));

	/* The connected connector: modeset, then a flip with its event. */
	ok = !commit(&k, true, blob, k.conn_id, 0, scan[0].fb_id, 0, NULL,
		     DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	result(ok, "vkms_modeset_virtual_connector");
	result(ok && flip(&k, scan[1].fb_id, 0, NULL),
	       "vkms_page_flip_vblank_event");

	/*
	 * The frame as vkms composes it, through the writeback connector.
	 * The CRTC drives it alone: Debian's 6.1 has the "valid clones"
	 * atomic check, and vkms's encoders declare no clones, so the
	 * virtual and the writeback connector cannot share the CRTC.
	 */
	ok = !commit(&k, true, blob, k.wb_id, k.conn_id, scan[0].fb_id,
		     wb[0].fb_id, &fence, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	result(ok, "vkms_modeset_writeback_connector");
	result(ok && written_back(&k, fence, &scan[0], &wb[0]),
	       "vkms_writeback_matches_frame");
	result(ok && flip(&k, scan[1].fb_id, wb[1].fb_id, &fence) &&
	       written_back(&k, fence, &scan[1], &wb[1]),
	       "vkms_writeback_matches_flipped_frame");

	/* Switch the pipe off again, so vkms unloads cleanly. */
	req = drmModeAtomicAlloc();
	if (!(add(req, k.fd, k.crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 0) |
	      add(req, k.fd, k.crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", 0) |
	      add(req, k.fd, k.wb_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", 0) |
	      add(req, k.fd, k.plane_id, DRM_MODE_OBJECT_PLANE, "FB_ID", 0) |
	      add(req, k.fd, k.plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_ID", 0)))
		if (drmModeAtomicCommit(k.fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
			ksft_print_msg("disabling the pipe: %s\n", strerror(errno));
	drmModeAtomicFree(req);
	drmModeDestroyPropertyBlob(k.fd, blob);
	for (int i = 0; i < 2; i++) {
		dumb_destroy(k.fd, &scan[i]);
		dumb_destroy(k.fd, &wb[i]);
	}
	close(k.fd);
	ksft_finished();
}
