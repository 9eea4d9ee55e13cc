/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Video4Linux version 1 API, as V4L1 programs expect it: the kernel's
 * own definition (linux/videodev.h) was removed in Linux 2.6.38, so programs
 * built for V4L1 get it from here and run through libv4l1 (or the
 * v4l1compat.so preload shim) on V4L2 drivers.
 *
 * Written from the documented V4L1 API: device types, palettes, the
 * structures of the 21 ioctls libv4l1 emulates, and the ioctl numbers
 * (magic 'v', numbers 1..29, sized by their structures as the kernel's
 * _IOR/_IOW/_IOWR macros do).
 */
#ifndef __LINUX_VIDEODEV_H
#define __LINUX_VIDEODEV_H

#include <stdint.h>
#include <sys/ioctl.h>
#include <linux/ioctl.h>
#include <linux/types.h>

/* Device types (video_capability.type). */
/* The definitions in their columns. */
/* clang-format off */
#define VID_TYPE_CAPTURE	1	/* can capture to memory */
#define VID_TYPE_TUNER		2	/* has a tuner */
#define VID_TYPE_TELETEXT	4	/* has teletext (VBI) */
#define VID_TYPE_OVERLAY	8	/* can overlay onto a frame buffer */
#define VID_TYPE_CHROMAKEY	16	/* overlay by chromakey */
#define VID_TYPE_CLIPPING	32	/* overlay clipping */
#define VID_TYPE_FRAMERAM	64	/* overlay overwrites frame buffer memory */
#define VID_TYPE_SCALES		128	/* image scaling */
#define VID_TYPE_MONOCHROME	256	/* grey only */
#define VID_TYPE_SUBCAPTURE	512	/* can capture part of the image */
#define VID_TYPE_MPEG_DECODER	1024
#define VID_TYPE_MPEG_ENCODER	2048
#define VID_TYPE_MJPEG_DECODER	4096
#define VID_TYPE_MJPEG_ENCODER	8192

struct video_capability {
	char name[32];
	int type;		/* VID_TYPE_* */
	int channels;		/* number of inputs */
	int audios;		/* number of audio devices */
	int maxwidth;
	int maxheight;
	int minwidth;
	int minheight;
};

struct video_channel {
	int channel;
	char name[32];
	int tuners;
#define VIDEO_VC_TUNER		1	/* the channel has a tuner */
#define VIDEO_VC_AUDIO		2	/* the channel has audio */
	__u32 flags;
#define VIDEO_TYPE_TV		1
#define VIDEO_TYPE_CAMERA	2
	__u16 type;
	__u16 norm;		/* VIDEO_MODE_* */
};

struct video_tuner {
	int tuner;
	char name[32];
	unsigned long rangelow, rangehigh;	/* tuner range */
#define VIDEO_TUNER_PAL		1
#define VIDEO_TUNER_NTSC	2
#define VIDEO_TUNER_SECAM	4
#define VIDEO_TUNER_LOW		8	/* frequencies in 1/16 kHz, not MHz */
#define VIDEO_TUNER_NORM	16	/* the norm can be set */
#define VIDEO_TUNER_STEREO_ON	128	/* stereo is being received */
#define VIDEO_TUNER_RDS_ON	256	/* RDS is being received */
#define VIDEO_TUNER_MBS_ON	512	/* MBS is being received */
	__u32 flags;
#define VIDEO_MODE_PAL		0
#define VIDEO_MODE_NTSC		1
#define VIDEO_MODE_SECAM	2
#define VIDEO_MODE_AUTO		3
	__u16 mode;		/* VIDEO_MODE_* */
	__u16 signal;		/* signal strength, 0..65535 */
};

struct video_picture {
	__u16 brightness;	/* 0..65535 for every level */
	__u16 hue;
	__u16 colour;
	__u16 contrast;
	__u16 whiteness;	/* black and white only */
	__u16 depth;		/* bits per pixel of the palette */
	__u16 palette;		/* VIDEO_PALETTE_* */
#define VIDEO_PALETTE_GREY	1	/* linear greyscale */
#define VIDEO_PALETTE_HI240	2	/* high 240 cube (BT848) */
#define VIDEO_PALETTE_RGB565	3	/* 565 16 bit RGB */
#define VIDEO_PALETTE_RGB24	4	/* 24 bit, in memory order B, G, R */
#define VIDEO_PALETTE_RGB32	5	/* 32 bit, in memory order B, G, R, x */
#define VIDEO_PALETTE_RGB555	6	/* 555 15 bit RGB */
#define VIDEO_PALETTE_YUV422	7	/* YUV 4:2:2 (as YUYV) */
#define VIDEO_PALETTE_YUYV	8
#define VIDEO_PALETTE_UYVY	9
#define VIDEO_PALETTE_YUV420	10	/* as YUV420P */
#define VIDEO_PALETTE_YUV411	11	/* YUV 4:1:1 packed */
#define VIDEO_PALETTE_RAW	12	/* raw capture (VBI samples) */
#define VIDEO_PALETTE_YUV422P	13	/* YUV 4:2:2 planar */
#define VIDEO_PALETTE_YUV411P	14	/* YUV 4:1:1 planar */
#define VIDEO_PALETTE_YUV420P	15	/* YUV 4:2:0 planar */
#define VIDEO_PALETTE_YUV410P	16	/* YUV 4:1:0 planar */
#define VIDEO_PALETTE_PLANAR	13	/* first planar palette */
#define VIDEO_PALETTE_COMPONENT	7	/* first YUV palette */
};

struct video_audio {
	int audio;		/* audio channel */
	__u16 volume;		/* levels 0..65535 */
	__u16 bass, treble;
#define VIDEO_AUDIO_MUTE	1
#define VIDEO_AUDIO_MUTABLE	2
#define VIDEO_AUDIO_VOLUME	4
#define VIDEO_AUDIO_BASS	8
#define VIDEO_AUDIO_TREBLE	16
#define VIDEO_AUDIO_BALANCE	32
	__u32 flags;
	char name[16];
#define VIDEO_SOUND_MONO	1
#define VIDEO_SOUND_STEREO	2
#define VIDEO_SOUND_LANG1	4
#define VIDEO_SOUND_LANG2	8
	__u16 mode;		/* VIDEO_SOUND_* */
	__u16 balance;		/* stereo balance */
	__u16 step;		/* step the hardware actually uses */
};

struct video_clip {
	__s32 x, y;
	__s32 width, height;
	struct video_clip *next;	/* for the driver's use */
};

struct video_window {
	__u32 x, y;		/* position of the window */
	__u32 width, height;	/* its size */
	__u32 chromakey;
	__u32 flags;
	struct video_clip *clips;	/* clip list, or a bitmap */
	int clipcount;
#define VIDEO_WINDOW_INTERLACE	1
#define VIDEO_WINDOW_CHROMAKEY	16	/* overlay by chromakey */
#define VIDEO_CLIP_BITMAP	-1	/* clipcount: clips is a 1024x625 bitmap */
#define VIDEO_CLIPMAP_SIZE	(128 * 625)
};

struct video_buffer {
	void *base;		/* frame buffer address */
	int height, width;
	int depth;		/* bits per pixel: 8, 15, 16, 24, 32 */
	int bytesperline;
};

struct video_mmap {
	unsigned int frame;	/* frame slot 0..video_mbuf.frames-1 */
	int height, width;
	unsigned int format;	/* VIDEO_PALETTE_* */
};

#ifndef VIDEO_MAX_FRAME
#define VIDEO_MAX_FRAME		32
#endif

struct video_mbuf {
	int size;		/* bytes to map */
	int frames;		/* frame slots */
	int offsets[VIDEO_MAX_FRAME];	/* offset of each slot */
};

struct vbi_format {
	__u32 sampling_rate;	/* Hz */
	__u32 samples_per_line;
	__u32 sample_format;	/* VIDEO_PALETTE_RAW only */
	__s32 start[2];		/* first line of each field */
	__u32 count[2];		/* lines per field */
#define VBI_UNSYNC		1	/* the fields are not synchronised */
#define VBI_INTERLACED		2	/* the fields are interlaced */
	__u32 flags;
};

#define VIDIOCGCAP	_IOR('v', 1, struct video_capability)
#define VIDIOCGCHAN	_IOWR('v', 2, struct video_channel)
#define VIDIOCSCHAN	_IOW('v', 3, struct video_channel)
#define VIDIOCGTUNER	_IOWR('v', 4, struct video_tuner)
#define VIDIOCSTUNER	_IOW('v', 5, struct video_tuner)
#define VIDIOCGPICT	_IOR('v', 6, struct video_picture)
#define VIDIOCSPICT	_IOW('v', 7, struct video_picture)
#define VIDIOCCAPTURE	_IOW('v', 8, int)		/* overlay on/off */
#define VIDIOCGWIN	_IOR('v', 9, struct video_window)
#define VIDIOCSWIN	_IOW('v', 10, struct video_window)
#define VIDIOCGFBUF	_IOR('v', 11, struct video_buffer)
#define VIDIOCSFBUF	_IOW('v', 12, struct video_buffer)
#define VIDIOCGFREQ	_IOR('v', 14, unsigned long)
#define VIDIOCSFREQ	_IOW('v', 15, unsigned long)
#define VIDIOCGAUDIO	_IOR('v', 16, struct video_audio)
#define VIDIOCSAUDIO	_IOW('v', 17, struct video_audio)
#define VIDIOCSYNC	_IOW('v', 18, int)		/* wait for a frame */
#define VIDIOCMCAPTURE	_IOW('v', 19, struct video_mmap)
#define VIDIOCGMBUF	_IOR('v', 20, struct video_mbuf)
#define VIDIOCGVBIFMT	_IOR('v', 28, struct vbi_format)
#define VIDIOCSVBIFMT	_IOW('v', 29, struct vbi_format)

/* clang-format on */
#endif
