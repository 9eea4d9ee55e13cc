/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The V4L1 ABI facts compared between our <libv4l1-videodev.h> and the
 * distribution's: X(name, value) for sizes, member offsets, ioctl numbers
 * and constants. Included by header_ours.c and header_debian.c.
 */
#include <stddef.h>

#define V4L1_SIZE(s) X("sizeof " #s, sizeof(struct s))
#define V4L1_OFF(s, m) X("offsetof " #s "." #m, offsetof(struct s, m))
#define V4L1_VAL(v) X(#v, (unsigned long)(v))

/* One line an entry. */
/* clang-format off */
#define V4L1_ABI_LIST \
	V4L1_SIZE(video_capability) V4L1_OFF(video_capability, type) \
	V4L1_OFF(video_capability, minheight) \
	V4L1_SIZE(video_channel) V4L1_OFF(video_channel, tuners) \
	V4L1_OFF(video_channel, flags) V4L1_OFF(video_channel, type) \
	V4L1_OFF(video_channel, norm) \
	V4L1_SIZE(video_tuner) V4L1_OFF(video_tuner, rangelow) \
	V4L1_OFF(video_tuner, rangehigh) V4L1_OFF(video_tuner, flags) \
	V4L1_OFF(video_tuner, mode) V4L1_OFF(video_tuner, signal) \
	V4L1_SIZE(video_picture) V4L1_OFF(video_picture, hue) \
	V4L1_OFF(video_picture, colour) V4L1_OFF(video_picture, contrast) \
	V4L1_OFF(video_picture, whiteness) V4L1_OFF(video_picture, depth) \
	V4L1_OFF(video_picture, palette) \
	V4L1_SIZE(video_audio) V4L1_OFF(video_audio, volume) \
	V4L1_OFF(video_audio, bass) V4L1_OFF(video_audio, treble) \
	V4L1_OFF(video_audio, flags) V4L1_OFF(video_audio, name) \
	V4L1_OFF(video_audio, mode) V4L1_OFF(video_audio, balance) \
	V4L1_OFF(video_audio, step) \
	V4L1_SIZE(video_clip) V4L1_OFF(video_clip, next) \
	V4L1_SIZE(video_window) V4L1_OFF(video_window, chromakey) \
	V4L1_OFF(video_window, flags) V4L1_OFF(video_window, clips) \
	V4L1_OFF(video_window, clipcount) \
	V4L1_SIZE(video_buffer) V4L1_OFF(video_buffer, height) \
	V4L1_OFF(video_buffer, width) V4L1_OFF(video_buffer, depth) \
	V4L1_OFF(video_buffer, bytesperline) \
	V4L1_SIZE(video_mmap) V4L1_OFF(video_mmap, height) \
	V4L1_OFF(video_mmap, width) V4L1_OFF(video_mmap, format) \
	V4L1_SIZE(video_mbuf) V4L1_OFF(video_mbuf, frames) \
	V4L1_OFF(video_mbuf, offsets) \
	V4L1_SIZE(vbi_format) V4L1_OFF(vbi_format, samples_per_line) \
	V4L1_OFF(vbi_format, sample_format) V4L1_OFF(vbi_format, start) \
	V4L1_OFF(vbi_format, count) V4L1_OFF(vbi_format, flags) \
	V4L1_VAL(VIDIOCGCAP) V4L1_VAL(VIDIOCGCHAN) V4L1_VAL(VIDIOCSCHAN) \
	V4L1_VAL(VIDIOCGTUNER) V4L1_VAL(VIDIOCSTUNER) V4L1_VAL(VIDIOCGPICT) \
	V4L1_VAL(VIDIOCSPICT) V4L1_VAL(VIDIOCCAPTURE) V4L1_VAL(VIDIOCGWIN) \
	V4L1_VAL(VIDIOCSWIN) V4L1_VAL(VIDIOCGFBUF) V4L1_VAL(VIDIOCSFBUF) \
	V4L1_VAL(VIDIOCGFREQ) V4L1_VAL(VIDIOCSFREQ) V4L1_VAL(VIDIOCGAUDIO) \
	V4L1_VAL(VIDIOCSAUDIO) V4L1_VAL(VIDIOCSYNC) \
	V4L1_VAL(VIDIOCMCAPTURE) V4L1_VAL(VIDIOCGMBUF) \
	V4L1_VAL(VIDIOCGVBIFMT) V4L1_VAL(VIDIOCSVBIFMT) \
	V4L1_VAL(VID_TYPE_CAPTURE) V4L1_VAL(VID_TYPE_TUNER) \
	V4L1_VAL(VID_TYPE_TELETEXT) V4L1_VAL(VID_TYPE_OVERLAY) \
	V4L1_VAL(VID_TYPE_CHROMAKEY) V4L1_VAL(VID_TYPE_CLIPPING) \
	V4L1_VAL(VID_TYPE_FRAMERAM) V4L1_VAL(VID_TYPE_SCALES) \
	V4L1_VAL(VID_TYPE_MONOCHROME) V4L1_VAL(VID_TYPE_SUBCAPTURE) \
	V4L1_VAL(VID_TYPE_MPEG_DECODER) V4L1_VAL(VID_TYPE_MPEG_ENCODER) \
	V4L1_VAL(VID_TYPE_MJPEG_DECODER) V4L1_VAL(VID_TYPE_MJPEG_ENCODER) \
	V4L1_VAL(VIDEO_PALETTE_GREY) V4L1_VAL(VIDEO_PALETTE_HI240) \
	V4L1_VAL(VIDEO_PALETTE_RGB565) V4L1_VAL(VIDEO_PALETTE_RGB24) \
	V4L1_VAL(VIDEO_PALETTE_RGB32) V4L1_VAL(VIDEO_PALETTE_RGB555) \
	V4L1_VAL(VIDEO_PALETTE_YUV422) V4L1_VAL(VIDEO_PALETTE_YUYV) \
	V4L1_VAL(VIDEO_PALETTE_UYVY) V4L1_VAL(VIDEO_PALETTE_YUV420) \
	V4L1_VAL(VIDEO_PALETTE_YUV411) V4L1_VAL(VIDEO_PALETTE_RAW) \
	V4L1_VAL(VIDEO_PALETTE_YUV422P) V4L1_VAL(VIDEO_PALETTE_YUV411P) \
	V4L1_VAL(VIDEO_PALETTE_YUV420P) V4L1_VAL(VIDEO_PALETTE_YUV410P) \
	V4L1_VAL(VIDEO_PALETTE_PLANAR) V4L1_VAL(VIDEO_PALETTE_COMPONENT) \
	V4L1_VAL(VIDEO_VC_TUNER) V4L1_VAL(VIDEO_VC_AUDIO) \
	V4L1_VAL(VIDEO_TYPE_TV) V4L1_VAL(VIDEO_TYPE_CAMERA) \
	V4L1_VAL(VIDEO_TUNER_PAL) V4L1_VAL(VIDEO_TUNER_NTSC) \
	V4L1_VAL(VIDEO_TUNER_SECAM) V4L1_VAL(VIDEO_TUNER_LOW) \
	V4L1_VAL(VIDEO_TUNER_NORM) V4L1_VAL(VIDEO_TUNER_STEREO_ON) \
	V4L1_VAL(VIDEO_TUNER_RDS_ON) V4L1_VAL(VIDEO_TUNER_MBS_ON) \
	V4L1_VAL(VIDEO_MODE_PAL) V4L1_VAL(VIDEO_MODE_NTSC) \
	V4L1_VAL(VIDEO_MODE_SECAM) V4L1_VAL(VIDEO_MODE_AUTO) \
	V4L1_VAL(VIDEO_AUDIO_MUTE) V4L1_VAL(VIDEO_AUDIO_MUTABLE) \
	V4L1_VAL(VIDEO_AUDIO_VOLUME) V4L1_VAL(VIDEO_AUDIO_BASS) \
	V4L1_VAL(VIDEO_AUDIO_TREBLE) V4L1_VAL(VIDEO_AUDIO_BALANCE) \
	V4L1_VAL(VIDEO_SOUND_MONO) V4L1_VAL(VIDEO_SOUND_STEREO) \
	V4L1_VAL(VIDEO_SOUND_LANG1) V4L1_VAL(VIDEO_SOUND_LANG2) \
	V4L1_VAL(VIDEO_WINDOW_INTERLACE) V4L1_VAL(VIDEO_WINDOW_CHROMAKEY) \
	V4L1_VAL(VIDEO_CLIP_BITMAP) V4L1_VAL(VIDEO_CLIPMAP_SIZE) \
	V4L1_VAL(VBI_UNSYNC) \
	V4L1_VAL(VBI_INTERLACED)

struct v4l1_abi_entry {
	const char *name;
	unsigned long value;
};
/* clang-format on */
