/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * usbcam: USB cameras emulated for the test VM. One program plays one or
 * more USB devices to QEMU's usb-redir devices over the usbredir protocol
 * (libusbredirparser, "usb-host" role); the guest's real drivers (uvcvideo,
 * gspca_*) bind to them. Each camera is described by data (cams.c): USB
 * ids and speed, transfer type, formats, frame sizes and intervals,
 * controls; a gspca chip adds its register dialogue and stream framing
 * (chip_*.c). Every frame is the virtual camera's picture for a sequence
 * number (picture.c), so the guest can recompute it.
 */
#ifndef USBCAM_H
#define USBCAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <usbredirparser.h>

enum usbcam_xfer { USBCAM_ISO, USBCAM_BULK };

/* UVC entity ids of our topology: camera terminal, processing unit,
 * output terminal. */
enum { UVC_ID_CT = 1, UVC_ID_PU = 2, UVC_ID_OT = 3 };

/* A UVC control: unit, selector, its bit in the unit's bmControls, size in
 * bytes and range (GET_MIN/MAX/RES/DEF; for the AE mode bitmap, res is the
 * mask of supported modes). */
struct usbcam_uvc_ctrl {
	const char *name;
	uint8_t unit, selector, bit, size;
	int32_t min, max, res, def;
};

/* Frame intervals in 100 ns units, as UVC gives them. */
struct usbcam_size {
	uint16_t w, h;
	uint8_t nint;
	uint32_t interval[3];
};

struct usbcam_format {
	uint32_t fourcc;
	uint8_t nsizes;
	struct usbcam_size sizes[4];
};

/* An alternate setting of a vendor-class (gspca) camera's interface 0:
 * its endpoints (address, usbredir type, wMaxPacketSize, bInterval). */
struct usbcam_ep {
	uint8_t addr, type;
	uint16_t maxp;
	uint8_t interval;
};

struct usbcam_alt {
	uint8_t nep;
	struct usbcam_ep ep[3];
};

struct usbcam;
struct usb_redir_control_packet_header;

/*
 * A gspca chip: what a UVC camera's class requests and payload headers do
 * for it (chip_*.c). control(): a vendor request on endpoint 0 (OUT data
 * in `data`, IN answer written to `data`, at most `len` bytes); returns the
 * bytes of the answer (0 for OUT), or -1 to stall. payload(): the next
 * isochronous packet, or the reply to a bulk IN request on endpoint
 * c->s.ep, at most `max` bytes; returns its length, 0 for nothing now
 * (an empty packet; a bulk request then waits). bulk_out(): data the driver
 * writes to a bulk endpoint; < 0 stalls. frame(): the rendered frame of
 * `len` bytes at buf (room for `cap`) as the chip sends it: headers, start
 * markers; returns the new length.
 */
struct usbcam_chip {
	const char *name;
	uint8_t nalts;
	struct usbcam_alt alts[8];
	int (*control)(struct usbcam *c,
		       const struct usb_redir_control_packet_header *h,
		       uint8_t *data, int len);
	int (*payload)(struct usbcam *c, uint8_t *out, int max);
	int (*bulk_out)(struct usbcam *c, uint8_t ep, const uint8_t *data,
			int len);
	size_t (*frame)(struct usbcam *c, uint8_t *buf, size_t len, size_t cap);
};

/* Room the chips' frame() may add in front of a frame. */
#define USBCAM_CHIP_HEADROOM 256

struct usbcam_desc {
	const char *name;   /* command-line name */
	const char *module; /* the guest driver */
	uint16_t vid, pid, bcd;
	uint8_t speed; /* usb_redir_speed_full / _high */
	uint8_t xfer;  /* enum usbcam_xfer */
	const char *vendor, *product;
	unsigned flip;      /* frames sent mirrored / upside down (vcam.h) */
	int lens;           /* in-focus position of the focus motor; 0: none */
	const char *smbios; /* QEMU -smbios options (';'-separated), or NULL */
	const struct usbcam_format *formats;
	int nformats;
	const struct usbcam_uvc_ctrl *ctrls;
	int nctrls;
	const struct usbcam_chip *chip; /* NULL: a UVC camera */
};

extern const struct usbcam_desc usbcam_cams[];
extern const int usbcam_ncams;
const struct usbcam_desc *usbcam_find(const char *name);

/* Faults on demand (fault.c), one-shot unless said otherwise. */
struct usbcam_faults {
	int64_t unplug_after; /* at this total frame count, -1 none */
	int replug_ms;        /* plug back in after this long, -1 never */
	int corrupt;          /* frames whose payload bytes are scrambled */
	int truncate;         /* frames cut short */
	int stall;            /* stream requests stalled from now on, until the
			     * driver clears the halt (bulk cameras) */
	int stall_active;
	int unplug_now;    /* set by the stream, done by the main loop */
	int64_t replug_at; /* monotonic ns, 0 none */
};

/* The stream: the frame being sent, its packetizer position and pacing. */
struct usbcam_stream {
	int on;
	uint32_t fourcc;
	int w, h;
	uint64_t interval_ns;
	uint32_t seq; /* sequence number of the next frame */
	uint8_t *buf; /* the frame being sent */
	size_t cap, len, off;
	int in_frame, fid;
	int frame_cut;      /* the frame was truncated (fault) */
	int64_t t0;         /* stream start, monotonic ns */
	int64_t next_frame; /* the next frame is due */
	uint64_t uframes;   /* (micro)frames served since t0 */
	uint64_t frames;    /* frames sent in this stream */
	uint64_t total;     /* frames sent since the program started */
	int iso;            /* isochronous (else bulk, on request) */
	/* the bus side, kept across stream restarts */
	int iso_running; /* QEMU started the isochronous stream */
	uint8_t iso_ep;  /* its endpoint */
	uint8_t ep;      /* the endpoint being served now */
	int64_t iso_t0;
	uint64_t pending_id[64]; /* bulk IN requests waiting for data */
	uint32_t pending_len[64];
	uint8_t pending_ep[64];
	int npending;
};

#define USBCAM_MAX_CTRLS 16

struct usbcam {
	const struct usbcam_desc *d;
	int index;
	int lfd, fd;
	struct usbredirparser *p;
	int hello, attached;
	uint8_t config;
	uint8_t alt[4];
	uint8_t *cfg; /* configuration descriptor */
	size_t cfg_len;
	struct usbcam_stream s;
	/* UVC */
	uint8_t probe[34], commit[34];
	int32_t ctrl_cur[USBCAM_MAX_CTRLS];
	uint8_t error_code;
	int lens_pos; /* where the focus motor is (picture.c) */
	/* gspca chip: its registers, the register a read will answer, the
	 * frame mode its driver set, a packet counter */
	uint8_t regs[256];
	int reg, mode, pkt;
	uint8_t resp[64];
	int resp_len;
	struct usbcam_faults f;
	FILE *log;
	uint64_t iso_id;
};

/* Monotonic time in ns. */
int64_t usbcam_now(void);
/* A line in the camera's log (the job directory, read by the guest). */
void usbcam_log(struct usbcam *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* desc.c: descriptors. The configuration descriptor is built once. */
int usbcam_build_config(struct usbcam *c);
int usbcam_get_descriptor(struct usbcam *c, uint8_t type, uint8_t index,
			  uint8_t *out, int max);

/* redir.c: the usbredir side. */
int usbcam_redir_open(struct usbcam *c, int fd);
void usbcam_redir_close(struct usbcam *c);
void usbcam_plug(struct usbcam *c);
void usbcam_unplug(struct usbcam *c);
void usbcam_send_ep_info(struct usbcam *c);
/* Serve what the clock makes due (isochronous packets, bulk replies). */
void usbcam_tick(struct usbcam *c);

/* stream.c: frames, pacing, the framer shared by UVC and the chips. */
void usbcam_stream_start(struct usbcam *c, uint32_t fourcc, int w, int h,
			 uint64_t interval_ns);
void usbcam_stream_stop(struct usbcam *c);
/* Begin the next frame if it is due: returns 1 when a frame is ready
 * in s.buf (s.off 0), 0 when not yet. */
int usbcam_stream_next(struct usbcam *c);
/* The frame is out: count it, schedule the next. */
void usbcam_stream_done(struct usbcam *c);

/* uvc.c: the UVC class requests and payloads. */
int usbcam_uvc_control(struct usbcam *c,
		       const struct usb_redir_control_packet_header *h,
		       uint8_t *data, int len);
int usbcam_uvc_payload(struct usbcam *c, uint8_t *out, int max);
void usbcam_uvc_reset(struct usbcam *c);
int32_t usbcam_uvc_ctrl_value(const struct usbcam *c, uint8_t unit,
			      uint8_t selector, int32_t fallback);

/* picture.c: the frame for a sequence number (the only user of src/vcam). */
size_t usbcam_frame_bound(uint32_t fourcc, int w, int h);
int usbcam_render(struct usbcam *c, uint32_t fourcc, int w, int h, uint32_t seq,
		  uint8_t *dst, size_t size);

/* fault.c */
void usbcam_faults_reset(struct usbcam_faults *f);
int usbcam_fault_parse(struct usbcam *c, const char *cmd);
/* Applied to a frame about to be sent; returns its (possibly cut) length. */
size_t usbcam_fault_frame(struct usbcam *c, uint8_t *buf, size_t len);

#endif
