/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * usbcam: serve emulated USB cameras to QEMU.
 *
 *   usbcam --dir DIR CAMERA[,FAULT...]...
 *       camera i listens on DIR/cam<i>.sock for QEMU's usb-redir chardev
 *       (-chardev socket,id=camI,path=DIR/camI.sock -device
 *       usb-redir,chardev=camI), logs to DIR/cam<i>.log and takes fault
 *       commands (fault.c) appended to DIR/cam<i>.cmd, or given after the
 *       name ("uvc-iso,unplug 30"). Exits when QEMU has gone (every
 *       connection closed) or on SIGTERM.
 *   usbcam --list          the cameras, one per line: name, driver, ids
 *   usbcam --info CAMERA...  for the VM runner: "module M" per guest driver,
 *                          "smbios OPTS" per DMI identity and "xfer I iso"
 *                          (or bulk) for camera I's streaming endpoint
 */
#include "usbcam.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_CAMS 16

static volatile sig_atomic_t stop;
static int verbose;
static int64_t start_ns;

int64_t usbcam_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void usbcam_log(struct usbcam *c, const char *fmt, ...)
{
	double t = (double)(usbcam_now() - start_ns) / 1e9;
	va_list ap;

	if (c->log) {
		fprintf(c->log, "%.3f ", t);
		va_start(ap, fmt);
		vfprintf(c->log, fmt, ap);
		va_end(ap);
		fputc('\n', c->log);
	}
	if (verbose) {
		fprintf(stderr, "usbcam[%d %s] %.3f ", c->index, c->d->name, t);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
}

const struct usbcam_desc *usbcam_find(const char *name)
{
	for (int i = 0; i < usbcam_ncams; i++)
		if (!strcmp(usbcam_cams[i].name, name))
			return &usbcam_cams[i];
	return NULL;
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int listen_on(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (fd < 0 || strlen(path) >= sizeof(a.sun_path))
		return -1;
	strcpy(a.sun_path, path);
	unlink(path);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 1)) {
		close(fd);
		return -1;
	}
	return fd;
}

struct cmdfile {
	char path[4096];
	off_t off;
};

/* New lines of the camera's command file. */
static void poll_commands(struct usbcam *c, struct cmdfile *cf)
{
	char buf[1024], *line, *save;
	struct stat st;
	ssize_t n;
	int fd;

	if (stat(cf->path, &st) || st.st_size <= cf->off)
		return;
	fd = open(cf->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = pread(fd, buf, sizeof(buf) - 1, cf->off);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	/* only whole lines */
	for (ssize_t i = n - 1; i >= 0; i--) {
		if (buf[i] == '\n') {
			buf[i + 1] = 0;
			n = i + 1;
			break;
		}
		if (i == 0)
			return;
	}
	cf->off += n;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		usbcam_fault_parse(c, line);
}

static int cmd_info(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		char name[64];
		const struct usbcam_desc *d;

		snprintf(name, sizeof(name), "%s", argv[i]);
		name[strcspn(name, ",")] = 0;
		d = usbcam_find(name);
		if (!d) {
			fprintf(stderr, "usbcam: unknown camera %s\n", name);
			return 2;
		}
		printf("module %s\n", d->module);
		printf("xfer %d %s\n", i,
		       d->xfer == USBCAM_ISO ? "iso" : "bulk");
		if (d->smbios)
			printf("smbios %s\n", d->smbios);
	}
	return 0;
}

static int cmd_list(void)
{
	for (int i = 0; i < usbcam_ncams; i++) {
		const struct usbcam_desc *d = &usbcam_cams[i];

		printf("%-14s %-18s %04x:%04x %s %s\n", d->name, d->module,
		       d->vid, d->pid,
		       d->speed == usb_redir_speed_high ? "high" : "full",
		       d->xfer == USBCAM_BULK ? "bulk" : "iso");
	}
	return 0;
}

static int setup_cam(struct usbcam *c, int index, const char *arg,
		     const char *dir, struct cmdfile *cf)
{
	char name[64], path[4096];
	const char *opts = strchr(arg, ',');

	snprintf(name, sizeof(name), "%.*s",
		 (int)(opts ? (size_t)(opts - arg) : strlen(arg)), arg);
	memset(c, 0, sizeof(*c));
	c->index = index;
	c->fd = -1;
	c->d = usbcam_find(name);
	if (!c->d) {
		fprintf(stderr, "usbcam: unknown camera %s (--list)\n", name);
		return -1;
	}
	usbcam_faults_reset(&c->f);
	if (usbcam_build_config(c)) {
		fprintf(stderr, "usbcam: %s: descriptors too large\n", name);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/cam%d.log", dir, index);
	c->log = fopen(path, "w");
	if (c->log)
		setvbuf(c->log, NULL, _IOLBF, 0);
	snprintf(cf->path, sizeof(cf->path), "%s/cam%d.cmd", dir, index);
	cf->off = 0;
	snprintf(path, sizeof(path), "%s/cam%d.sock", dir, index);
	c->lfd = listen_on(path);
	if (c->lfd < 0) {
		fprintf(stderr, "usbcam: cannot listen on %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	usbcam_log(c, "camera %s (%s %04x:%04x)", c->d->name, c->d->module,
		   c->d->vid, c->d->pid);
	for (const char *o = opts; o; o = strchr(o + 1, ','))
		usbcam_fault_parse(c, o + 1);
	/* faults of the command line wait for the device to stream */
	c->f.unplug_now = 0;
	return 0;
}

static void service(struct usbcam *c, struct pollfd *pl, struct pollfd *pc)
{
	if (pl->revents & POLLIN && c->fd < 0) {
		int fd = accept4(c->lfd, NULL, NULL,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd >= 0 && usbcam_redir_open(c, fd))
			close(fd);
		else if (fd >= 0)
			usbcam_log(c, "QEMU connected");
	}
	if (c->p && pc->revents & (POLLIN | POLLHUP | POLLERR)) {
		if (usbredirparser_do_read(c->p) ==
		    usbredirparser_read_io_error) {
			usbcam_log(c, "QEMU went away");
			usbcam_redir_close(c);
			c->lfd = c->lfd >= 0 ? (close(c->lfd), -1) : -1;
		}
	}
}

static void timers(struct usbcam *c)
{
	int64_t now = usbcam_now();

	if (!c->p)
		return;
	if (c->f.unplug_now) {
		c->f.unplug_now = 0;
		c->f.unplug_after = -1;
		usbcam_unplug(c);
		if (c->f.replug_ms >= 0)
			c->f.replug_at =
				now + (int64_t)c->f.replug_ms * 1000000;
	}
	if (c->f.replug_at && now >= c->f.replug_at) {
		c->f.replug_at = 0;
		usbcam_plug(c);
	}
	usbcam_tick(c);
	if (usbredirparser_has_data_to_write(c->p) &&
	    usbredirparser_do_write(c->p) == usbredirparser_write_io_error) {
		usbcam_log(c, "write error: QEMU went away");
		usbcam_redir_close(c);
	}
}

static int serve(struct usbcam *cams, int n, struct cmdfile *cf)
{
	int64_t last_cmd = 0;
	int ever = 0;

	while (!stop) {
		struct pollfd pfd[2 * MAX_CAMS];
		int busy = 0, open_now = 0;

		for (int i = 0; i < n; i++) {
			struct usbcam *c = &cams[i];

			pfd[2 * i] = (struct pollfd){ c->fd < 0 ? c->lfd : -1,
						      POLLIN, 0 };
			pfd[2 * i + 1] = (struct pollfd){ c->fd, POLLIN, 0 };
			if (c->p && usbredirparser_has_data_to_write(c->p))
				pfd[2 * i + 1].events |= POLLOUT;
			busy |= c->s.iso_running || c->s.npending;
			open_now += c->fd >= 0;
		}
		if (ever && !open_now)
			break;
		ever |= open_now > 0;
		if (poll(pfd, (nfds_t)(2 * n), busy ? 1 : 20) < 0 &&
		    errno != EINTR)
			return 1;
		for (int i = 0; i < n; i++)
			service(&cams[i], &pfd[2 * i], &pfd[2 * i + 1]);
		if (usbcam_now() - last_cmd > 20000000) {
			last_cmd = usbcam_now();
			for (int i = 0; i < n; i++)
				poll_commands(&cams[i], &cf[i]);
		}
		for (int i = 0; i < n; i++)
			timers(&cams[i]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct usbcam cams[MAX_CAMS];
	static struct cmdfile cf[MAX_CAMS];
	const char *dir = ".";
	int i = 1, n = 0, rc;

	start_ns = usbcam_now();
	if (argc > 1 && !strcmp(argv[1], "--list"))
		return cmd_list();
	if (argc > 1 && !strcmp(argv[1], "--info"))
		return cmd_info(argc - 2, argv + 2);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--verbose"))
			verbose = 1;
		else
			break;
	}
	if (i >= argc || argc - i > MAX_CAMS) {
		fprintf(stderr,
			"usage: usbcam [--dir DIR] [--verbose] "
			"CAMERA[,FAULT]... | --list | --info CAMERA...\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	for (; i < argc; i++, n++)
		if (setup_cam(&cams[n], n, argv[i], dir, &cf[n]))
			return 1;
	rc = serve(cams, n, cf);
	for (i = 0; i < n; i++) {
		usbcam_redir_close(&cams[i]);
		if (cams[i].log)
			fclose(cams[i].log);
	}
	return rc;
}
