/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared bits of the OV511/OV518 tests: a SHA-256, a random generator,
 * and a driver for the original's helper programs (ov511-decomp and
 * ov518-decomp): request = w, h, yvu, length (native int32) + the frame;
 * reply = length (w*h*3/2, or -1) + the planes.
 */
#ifndef V4LC_TEST_OVTEST_H
#define V4LC_TEST_OVTEST_H

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/check.h"
#include "../../common/rng.h"
#include "jpeg/ov51x.h"

#define OV_HELPER_DIR "/usr/lib/x86_64-linux-gnu/libv4lconvert0/"

static inline void *ot_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}

/*
 * The decoders, each call with a work buffer of its own, of exactly the
 * size they ask for (a read past it is caught under AddressSanitizer).
 */
static inline int ot_ov511(const uint8_t *in, size_t n, uint8_t *out, int w,
			   int h, unsigned *notes)
{
	uint8_t *work = ot_xmalloc(v4lc_ov51x_work_size(n));
	int r = v4lc_ov511_decode(in, n, out, w, h, work, notes);

	free(work);
	return r;
}

static inline int ot_ov518(const uint8_t *in, size_t n, uint8_t *out, int w,
			   int h, int yvu, unsigned *notes)
{
	uint8_t *work = ot_xmalloc(v4lc_ov51x_work_size(n));
	int r = v4lc_ov518_decode(in, n, out, w, h, yvu, work, notes);

	free(work);
	return r;
}

/* ---- random ---- */
static uint64_t ot_state = 0x9e3779b97f4a7c15ull;

static inline uint32_t ot_rand(void)
{
	return (uint32_t)(xorshift64(&ot_state) >> 16);
}

/* ---- SHA-256 (FIPS 180-4) ---- */
static inline uint32_t ot_ror(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}

static inline void ot_sha256_block(uint32_t h[8], const uint8_t *p)
{
	static const uint32_t k[64] = {
		0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b,
		0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
		0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7,
		0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
		0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152,
		0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
		0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
		0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
		0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
		0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
		0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
		0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
		0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
	};
	uint32_t w[64], a[8];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ot_ror(w[i - 15], 7) ^ ot_ror(w[i - 15], 18) ^
			      (w[i - 15] >> 3);
		uint32_t s1 = ot_ror(w[i - 2], 17) ^ ot_ror(w[i - 2], 19) ^
			      (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(a, h, sizeof(a));
	for (int i = 0; i < 64; i++) {
		uint32_t s1 =
			ot_ror(a[4], 6) ^ ot_ror(a[4], 11) ^ ot_ror(a[4], 25);
		uint32_t ch = (a[4] & a[5]) ^ (~a[4] & a[6]);
		uint32_t t1 = a[7] + s1 + ch + k[i] + w[i];
		uint32_t s0 =
			ot_ror(a[0], 2) ^ ot_ror(a[0], 13) ^ ot_ror(a[0], 22);
		uint32_t mj = (a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]);

		memmove(a + 1, a, 7 * sizeof(uint32_t));
		a[4] += t1;
		a[0] = t1 + s0 + mj;
	}
	for (int i = 0; i < 8; i++)
		h[i] += a[i];
}

/* Hex digest (65 bytes with the NUL). */
static inline void ot_sha256(const uint8_t *d, size_t n, char hex[65])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	uint8_t last[128];
	size_t full = n / 64 * 64, rest = n - full, ln;

	for (size_t i = 0; i < full; i += 64)
		ot_sha256_block(h, d + i);
	memset(last, 0, sizeof(last));
	memcpy(last, d + full, rest);
	last[rest] = 0x80;
	ln = rest + 9 <= 64 ? 64 : 128;
	for (int i = 0; i < 8; i++)
		last[ln - 1 - i] = (uint8_t)((uint64_t)n * 8 >> (8 * i));
	for (size_t i = 0; i < ln; i += 64)
		ot_sha256_block(h, last + i);
	for (int i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08x", h[i]);
}

/* ---- the original's helpers ---- */
struct ot_helper {
	pid_t pid;
	int to, from;
};

static inline int ot_helper_start(struct ot_helper *hp, int is518)
{
	const char *path = is518 ? OV_HELPER_DIR "ov518-decomp"
				 : OV_HELPER_DIR "ov511-decomp";
	int a[2], b[2];

	signal(SIGPIPE, SIG_IGN);
	if (access(path, X_OK) || pipe(a) || pipe(b))
		return -1;
	hp->pid = fork();
	if (hp->pid < 0)
		return -1;
	if (!hp->pid) {
		dup2(a[0], 0);
		dup2(b[1], 1);
		close(a[0]);
		close(a[1]);
		close(b[0]);
		close(b[1]);
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	close(a[0]);
	close(b[1]);
	hp->to = a[1];
	hp->from = b[0];
	return 0;
}

static inline void ot_helper_stop(struct ot_helper *hp)
{
	int st;

	close(hp->to);
	close(hp->from);
	waitpid(hp->pid, &st, 0);
}

static inline int ot_write_all(int fd, const void *p, size_t n)
{
	const uint8_t *c = (const uint8_t *)p;

	while (n) {
		ssize_t k = write(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

static inline int ot_read_all(int fd, void *p, size_t n)
{
	uint8_t *c = (uint8_t *)p;

	while (n) {
		ssize_t k = read(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

/*
 * One request. Returns the reply length (bytes into out, at most cap), -1
 * for a -1 reply, -2 when the helper died or the protocol broke.
 */
static inline int ot_helper_call(struct ot_helper *hp, int w, int h, int yvu,
				 const uint8_t *d, size_t n, uint8_t *out,
				 size_t cap)
{
	int32_t req[4] = { w, h, yvu, (int32_t)n }, len;

	if (ot_write_all(hp->to, req, sizeof(req)) ||
	    ot_write_all(hp->to, d, n) ||
	    ot_read_all(hp->from, &len, sizeof(len)))
		return -2;
	if (len < 0)
		return -1;
	if ((size_t)len > cap || ot_read_all(hp->from, out, (size_t)len))
		return -2;
	return len;
}

/* A fresh helper for one request (its buffers start zero). */
static inline int ot_oracle(int is518, int w, int h, int yvu, const uint8_t *d,
			    size_t n, uint8_t *out, size_t cap)
{
	struct ot_helper hp;
	int r;

	if (ot_helper_start(&hp, is518))
		return -3;
	r = ot_helper_call(&hp, w, h, yvu, d, n, out, cap);
	ot_helper_stop(&hp);
	return r;
}

#endif
