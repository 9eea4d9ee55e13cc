/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Emulated autofocus controls running v4l2-autofocus (autofocus.h). */
#include "autofocus.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "priv.h"

#ifndef LV2_AUTOFOCUS_PATH
#define LV2_AUTOFOCUS_PATH "/usr/bin/v4l2-autofocus"
#endif

extern char **environ;

static const uint32_t ids[] = {
	V4L2_CID_FOCUS_AUTO,
	V4L2_CID_AUTO_FOCUS_START,
	V4L2_CID_AUTO_FOCUS_STOP,
	V4L2_CID_AUTO_FOCUS_STATUS,
};
#define NIDS (sizeof(ids) / sizeof(ids[0]))

static int ours(uint32_t id)
{
	for (size_t i = 0; i < NIDS; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

static const char *daemon_path(void)
{
	const char *p = secure_getenv("LIBV4L2_AUTOFOCUS");

	return p && *p ? p : LV2_AUTOFOCUS_PATH;
}

static void describe(uint32_t id, struct v4l2_queryctrl *q)
{
	memset(q, 0, sizeof(*q));
	q->id = id;
	switch (id) {
	case V4L2_CID_FOCUS_AUTO:
		q->type = V4L2_CTRL_TYPE_BOOLEAN;
		snprintf((char *)q->name, sizeof(q->name),
			 "Focus, Automatic Continuous");
		q->maximum = 1;
		q->step = 1;
		break;
	case V4L2_CID_AUTO_FOCUS_START:
		q->type = V4L2_CTRL_TYPE_BUTTON;
		snprintf((char *)q->name, sizeof(q->name), "Auto Focus, Start");
		q->flags = V4L2_CTRL_FLAG_WRITE_ONLY |
			   V4L2_CTRL_FLAG_EXECUTE_ON_WRITE;
		break;
	case V4L2_CID_AUTO_FOCUS_STOP:
		q->type = V4L2_CTRL_TYPE_BUTTON;
		snprintf((char *)q->name, sizeof(q->name), "Auto Focus, Stop");
		q->flags = V4L2_CTRL_FLAG_WRITE_ONLY |
			   V4L2_CTRL_FLAG_EXECUTE_ON_WRITE;
		break;
	default:
		q->type = V4L2_CTRL_TYPE_BITMASK;
		snprintf((char *)q->name, sizeof(q->name),
			 "Auto Focus, Status");
		q->maximum = V4L2_AUTO_FOCUS_STATUS_BUSY |
			     V4L2_AUTO_FOCUS_STATUS_REACHED |
			     V4L2_AUTO_FOCUS_STATUS_FAILED;
		q->flags = V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_VOLATILE;
		break;
	}
}

static int lower_queryctrl(struct lv2_dev *dev, struct v4l2_queryctrl *q)
{
	return lv2_dispatch_lower(dev, VIDIOC_QUERYCTRL, q);
}

void lv2_af_probe(struct lv2_dev *dev)
{
	struct v4l2_queryctrl q;

	dev->af.offered = 0;
	dev->af.status_fd = -1;
	if (dev->ops != &lv2_share_ops ||
	    lv2_share_device(dev->priv, dev->af.device,
			     sizeof(dev->af.device)) < 0)
		return;
	memset(&q, 0, sizeof(q));
	q.id = V4L2_CID_FOCUS_ABSOLUTE;
	if (lower_queryctrl(dev, &q) < 0 || (q.flags & V4L2_CTRL_FLAG_DISABLED))
		return;
	memset(&q, 0, sizeof(q));
	q.id = V4L2_CID_FOCUS_AUTO;
	if (lower_queryctrl(dev, &q) == 0)
		return; /* the camera focuses itself */
	if (access(daemon_path(), X_OK) < 0)
		return;
	dev->af.offered = 1;
}

/* Take the daemon's latest reports; notice its exit. */
static void poll_daemon(struct lv2_af *af)
{
	char buf[64];
	ssize_t n;
	int st;

	while (af->status_fd >= 0 &&
	       (n = read(af->status_fd, buf, sizeof(buf))) > 0) {
		switch (buf[n - 1]) {
		case 'B':
			af->status = V4L2_AUTO_FOCUS_STATUS_BUSY;
			break;
		case 'R':
			af->status = V4L2_AUTO_FOCUS_STATUS_REACHED;
			break;
		case 'F':
			af->status = V4L2_AUTO_FOCUS_STATUS_FAILED;
			break;
		}
	}
	if (af->pid > 0 && waitpid(af->pid, &st, WNOHANG) == af->pid) {
		af->pid = 0;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			af->status = V4L2_AUTO_FOCUS_STATUS_FAILED;
		else if (af->status == V4L2_AUTO_FOCUS_STATUS_BUSY)
			af->status = V4L2_AUTO_FOCUS_STATUS_IDLE;
		af->on = 0;
	}
	if (!af->pid && af->status_fd >= 0) {
		close(af->status_fd);
		af->status_fd = -1;
	}
}

static void stop_daemon(struct lv2_af *af)
{
	if (af->pid > 0) {
		kill(af->pid, SIGTERM);
		/* It stops within a frame or so; do not leave a zombie. */
		for (int i = 0; i < 200; i++) {
			struct timespec t = { 0, 10 * 1000 * 1000 };

			if (waitpid(af->pid, NULL, WNOHANG) == af->pid)
				break;
			if (i == 199) {
				kill(af->pid, SIGKILL);
				waitpid(af->pid, NULL, 0);
			}
			nanosleep(&t, NULL);
		}
		af->pid = 0;
	}
	if (af->status_fd >= 0) {
		close(af->status_fd);
		af->status_fd = -1;
	}
	af->on = 0;
	af->status = V4L2_AUTO_FOCUS_STATUS_IDLE;
}

static int start_daemon(struct lv2_af *af, int once)
{
	static const char vcam[] = "libv4l-vcam:";
	posix_spawn_file_actions_t fa;
	char fdarg[16];
	const char *argv[10];
	char **env;
	size_t nenv = 0;
	int p[2], n = 0, r;

	if (af->pid > 0)
		return 0;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	argv[n++] = "v4l2-autofocus";
	if (!strncmp(af->device, vcam, sizeof(vcam) - 1)) {
		argv[n++] = "--vcam";
		argv[n++] = af->device + sizeof(vcam) - 1;
	} else {
		argv[n++] = "--device";
		argv[n++] = af->device;
	}
	/* fd 3 in the daemon: dup2 clears close-on-exec there. */
	snprintf(fdarg, sizeof(fdarg), "%d", 3);
	argv[n++] = "--status-fd";
	argv[n++] = fdarg;
	if (once)
		argv[n++] = "--once";
	argv[n] = NULL;
	/* Our environment without preloaded shims: the daemon uses libv4l2. */
	while (environ && environ[nenv])
		nenv++;
	env = calloc(nenv + 1, sizeof(*env));
	if (!env) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	for (size_t i = 0, k = 0; i < nenv; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11))
			env[k++] = environ[i];
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 3);
	r = posix_spawn(&af->pid, daemon_path(), &fa, NULL, (char *const *)argv,
			env);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	close(p[1]);
	if (r != 0) {
		close(p[0]);
		af->pid = 0;
		af->status = V4L2_AUTO_FOCUS_STATUS_FAILED;
		errno = r;
		return -1;
	}
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	af->status_fd = p[0];
	af->status = V4L2_AUTO_FOCUS_STATUS_BUSY;
	return 0;
}

static int get(struct lv2_dev *dev, uint32_t id, int32_t *value)
{
	struct lv2_af *af = &dev->af;

	poll_daemon(af);
	switch (id) {
	case V4L2_CID_FOCUS_AUTO:
		*value = af->on;
		return 0;
	case V4L2_CID_AUTO_FOCUS_STATUS:
		*value = af->status;
		return 0;
	}
	errno = EACCES; /* buttons are write-only */
	return -1;
}

static int set(struct lv2_dev *dev, uint32_t id, int32_t *value, int apply)
{
	struct lv2_af *af = &dev->af;

	poll_daemon(af);
	switch (id) {
	case V4L2_CID_FOCUS_AUTO:
		*value = *value != 0;
		if (!apply || *value == af->on)
			return 0;
		if (!*value) {
			stop_daemon(af);
			return 0;
		}
		stop_daemon(af);
		if (start_daemon(af, 0) < 0)
			return -1;
		af->on = 1;
		return 0;
	case V4L2_CID_AUTO_FOCUS_START:
		if (af->on) {
			errno = EBUSY; /* continuous focus is running */
			return -1;
		}
		return apply ? (stop_daemon(af), start_daemon(af, 1)) : 0;
	case V4L2_CID_AUTO_FOCUS_STOP:
		if (af->on) {
			errno = EBUSY;
			return -1;
		}
		if (apply)
			stop_daemon(af);
		return 0;
	}
	errno = EACCES; /* the status is read-only */
	return -1;
}

int lv2_af_claims(struct lv2_dev *dev, unsigned long request, void *arg)
{
	if (!dev->af.offered)
		return 0;
	switch (request) {
	case VIDIOC_QUERYCTRL:
	case VIDIOC_QUERY_EXT_CTRL:
		return 1; /* exact ids, and enumeration merges ours in */
	case VIDIOC_G_CTRL:
	case VIDIOC_S_CTRL:
		return ours(((struct v4l2_control *)arg)->id);
	case VIDIOC_G_EXT_CTRLS:
	case VIDIOC_S_EXT_CTRLS:
	case VIDIOC_TRY_EXT_CTRLS: {
		struct v4l2_ext_controls *e = arg;

		if (e->which == V4L2_CTRL_WHICH_REQUEST_VAL || !e->controls)
			return 0;
		for (uint32_t i = 0; i < e->count; i++)
			if (ours(e->controls[i].id))
				return 1;
		return 0;
	}
	}
	return 0;
}

/* Our smallest id above `after`, or 0. */
static uint32_t next_ours(uint32_t after)
{
	uint32_t best = 0;

	for (size_t i = 0; i < NIDS; i++)
		if (ids[i] > after && (!best || ids[i] < best))
			best = ids[i];
	return best;
}

static int queryctrl(struct lv2_dev *dev, struct v4l2_queryctrl *q)
{
	const uint32_t next = V4L2_CTRL_FLAG_NEXT_CTRL;
	uint32_t base = q->id & ~(next | V4L2_CTRL_FLAG_NEXT_COMPOUND);
	struct v4l2_queryctrl lower = *q;
	uint32_t mine;
	int r, e;

	if (!(q->id & next)) {
		if (ours(q->id)) {
			describe(q->id, q);
			return 0;
		}
		return lower_queryctrl(dev, q);
	}
	mine = next_ours(base);
	r = lower_queryctrl(dev, &lower);
	e = errno;
	if (mine && (r < 0 || lower.id > mine)) {
		describe(mine, q);
		return 0;
	}
	if (r == 0)
		*q = lower;
	errno = e;
	return r;
}

static int query_ext(struct lv2_dev *dev, struct v4l2_query_ext_ctrl *q)
{
	const uint32_t flags = q->id & (V4L2_CTRL_FLAG_NEXT_CTRL |
					V4L2_CTRL_FLAG_NEXT_COMPOUND);
	uint32_t base = q->id & ~flags, mine = 0;
	struct v4l2_query_ext_ctrl lower = *q;
	struct v4l2_queryctrl d;
	int r, e;

	if (!flags) {
		if (!ours(q->id))
			return lv2_dispatch_lower(dev, VIDIOC_QUERY_EXT_CTRL,
						  q);
		mine = q->id;
	} else {
		if (flags & V4L2_CTRL_FLAG_NEXT_CTRL)
			mine = next_ours(base);
		r = lv2_dispatch_lower(dev, VIDIOC_QUERY_EXT_CTRL, &lower);
		e = errno;
		if (!mine || (r == 0 && lower.id < mine)) {
			if (r == 0)
				*q = lower;
			errno = e;
			return r;
		}
	}
	describe(mine, &d);
	memset(q, 0, sizeof(*q));
	q->id = d.id;
	q->type = d.type;
	memcpy(q->name, d.name, sizeof(d.name));
	q->maximum = d.maximum;
	q->step = (uint64_t)d.step;
	q->flags = d.flags;
	q->elem_size = sizeof(int32_t);
	q->elems = 1;
	return 0;
}

/*
 * Extended controls mixing ours and the device's: the device's go down in
 * one call (all or nothing there), ours are checked first and applied
 * after, so a failure anywhere changes nothing of ours.
 */
static int ext_ctrls(struct lv2_dev *dev, unsigned long request,
		     struct v4l2_ext_controls *e)
{
	struct v4l2_ext_control rest[64];
	uint32_t map[64], n = 0;
	struct v4l2_ext_controls sub = *e;
	int r = 0;

	if (e->count > 64) {
		errno = E2BIG;
		return -1;
	}
	for (uint32_t i = 0; i < e->count; i++) {
		struct v4l2_ext_control *c = &e->controls[i];

		if (!ours(c->id)) {
			map[n] = i;
			rest[n++] = *c;
			continue;
		}
		if (e->which == V4L2_CTRL_WHICH_DEF_VAL) {
			struct v4l2_queryctrl d;

			if (request != VIDIOC_G_EXT_CTRLS) {
				e->error_idx = e->count;
				errno = EINVAL;
				return -1;
			}
			describe(c->id, &d);
			c->value = d.default_value;
			continue;
		}
		{
			/* The structure is packed: work on a copy. */
			int32_t v = c->value;

			if (request == VIDIOC_G_EXT_CTRLS
				    ? get(dev, c->id, &v)
				    : set(dev, c->id, &v, 0)) {
				e->error_idx = request == VIDIOC_S_EXT_CTRLS
						       ? e->count
						       : i;
				return -1;
			}
			c->value = v;
		}
	}
	if (n) {
		sub.count = n;
		sub.controls = rest;
		r = lv2_dispatch_lower(dev, request, &sub);
		for (uint32_t k = 0; k < n; k++)
			e->controls[map[k]] = rest[k];
		e->error_idx =
			sub.error_idx < n ? map[sub.error_idx] : e->count;
		if (r < 0)
			return r;
	}
	if (request == VIDIOC_S_EXT_CTRLS &&
	    e->which != V4L2_CTRL_WHICH_DEF_VAL)
		for (uint32_t i = 0; i < e->count; i++) {
			int32_t v = e->controls[i].value;

			if (!ours(e->controls[i].id))
				continue;
			if (set(dev, e->controls[i].id, &v, 1))
				return -1;
			e->controls[i].value = v;
		}
	e->error_idx = e->count;
	return 0;
}

int lv2_af_ioctl(struct lv2_dev *dev, unsigned long request, void *arg)
{
	struct v4l2_control *c = arg;

	switch (request) {
	case VIDIOC_QUERYCTRL:
		return queryctrl(dev, arg);
	case VIDIOC_QUERY_EXT_CTRL:
		return query_ext(dev, arg);
	case VIDIOC_G_CTRL:
		return get(dev, c->id, &c->value);
	case VIDIOC_S_CTRL:
		if (set(dev, c->id, &c->value, 0))
			return -1;
		return set(dev, c->id, &c->value, 1);
	}
	return ext_ctrls(dev, request, arg);
}

void lv2_af_close(struct lv2_dev *dev)
{
	if (dev->af.offered)
		stop_daemon(&dev->af);
	dev->af.offered = 0;
}
