/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The call sequences of the differential libv4l2 test (seq.c), run through
 * one library's entry points; each call leaves a step in the record: its
 * label, return value, errno and up to four key fields.
 */
#ifndef DIFF_SEQ_H
#define DIFF_SEQ_H

#include <stdint.h>
#include <sys/types.h>

/* One library's entry points (dlsym). */
struct lib {
	int (*fd_open)(int fd, int flags);
	int (*close)(int fd);
	int (*ioctl)(int fd, unsigned long request, ...);
	ssize_t (*read)(int fd, void *buf, size_t n);
	void *(*mmap)(void *start, size_t length, int prot, int flags, int fd,
		      int64_t offset);
	int (*munmap)(void *start, size_t length);
};

#define MAX_STEPS 40

struct step {
	char what[40];
	int ret, err;
	uint32_t v[4];
};

struct rec {
	int ran, n;
	struct step steps[MAX_STEPS];
};

struct seq {
	const char *name;
	void (*fn)(const struct lib *l, int fd, struct rec *r);
};

/* The sequences, ended by an entry without a name. */
extern const struct seq seqs[];

/* Random sequences in the fuzz target's style (random.c): the one of
 * this seed. */
void random_seq(const struct lib *l, int fd, struct rec *r, unsigned seed);
#define RANDOM_SEQS 40

#endif
