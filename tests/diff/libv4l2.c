/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Differential ioctl-sequence test: call sequences the way programs write
 * them (fields left 0, G_FMT before S_FMT, REQBUFS before and after S_FMT,
 * count 0, read() after REQBUFS, STREAMON twice, QBUF of a queued buffer,
 * S_FMT while mapped) through our libv4l2 and through the distribution's,
 * on the same virtual cameras, comparing each call's return value, errno
 * and key fields.
 *
 *   diff-libv4l2 OURS_LIBV4L2 PLUGIN
 *
 * Each side runs in a child of its own (both libraries are libv4l2.so.0
 * over a libv4lconvert.so.0 of their own) and sends its record through a
 * pipe. Where both fail with the same errno, the fields are not compared
 * (the original leaves its TRY_FMT answer in a refused S_FMT's structure).
 * The camera is the standalone virtual camera module PLUGIN (it
 * needs no libv4lconvert); the distribution's library finds it through
 * this program's glob(), which answers its plugin directory pattern with
 * PLUGIN (ours is given it by LIBV4L2_PLUGIN_DIR). Every difference is
 * printed; the test fails on one that is not in known.h, the table of
 * doc/libv4l2-differences.md, which says why ours is right. Random
 * sequences (random.c) are compared up to their first difference, which
 * must be of a class of that table (random_class).
 * Skipped (77) without the distribution's library. DIFF_SHOW=NAME (a
 * sequence's name, or "random SEED") prints every step of that one.
 */

#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seq.h"

static const char *plugin_path;

/* The pattern to glob: PLUGIN for the distribution's plugin directory. */
static const char *redirect(const char *pattern)
{
	size_t n = strlen(pattern);
	const char *tail = "/libv4l/plugins/*.so";

	if (plugin_path && n >= strlen(tail) &&
	    !strcmp(pattern + n - strlen(tail), tail))
		return plugin_path;
	return pattern;
}

typedef int glob_fn(const char *, int, int (*)(const char *, int), void *);

static int call_real(const char *name, const char *pattern, int flags,
		     int (*errfunc)(const char *, int), void *pglob)
{
	glob_fn *real = (glob_fn *)dlsym(RTLD_NEXT, name);

	return real(redirect(pattern), flags, errfunc, pglob);
}

/*
 * The distribution's libv4l2 globs its compiled-in plugin directory; these
 * definitions, exported by the executable, come first in its lookup (under
 * both names: glob.h renames glob with large file offsets).
 */
__attribute__((visibility("default"))) int
diff_glob(const char *pattern, int flags, int (*errfunc)(const char *, int),
	  void *pglob) __asm__("glob");
int diff_glob(const char *pattern, int flags, int (*errfunc)(const char *, int),
	      void *pglob)
{
	return call_real("glob", pattern, flags, errfunc, pglob);
}

__attribute__((visibility("default"))) int
diff_glob64(const char *pattern, int flags, int (*errfunc)(const char *, int),
	    void *pglob) __asm__("glob64");
int diff_glob64(const char *pattern, int flags,
		int (*errfunc)(const char *, int), void *pglob)
{
	return call_real("glob64", pattern, flags, errfunc, pglob);
}

static int load(struct lib *l, const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		printf("diff-libv4l2: %s: %s\n", path, dlerror());
		return -1;
	}
	*(void **)&l->fd_open = dlsym(h, "v4l2_fd_open");
	*(void **)&l->close = dlsym(h, "v4l2_close");
	*(void **)&l->ioctl = dlsym(h, "v4l2_ioctl");
	*(void **)&l->read = dlsym(h, "v4l2_read");
	*(void **)&l->mmap = dlsym(h, "v4l2_mmap");
	*(void **)&l->munmap = dlsym(h, "v4l2_munmap");
	return l->fd_open && l->close && l->ioctl && l->read && l->mmap &&
			       l->munmap
		       ? 0
		       : -1;
}

/* One sequence on one camera through the library at path, in a child. */
static int run_side(const char *path, const struct seq *s, unsigned seed,
		    const char *cam, struct rec *r)
{
	int p[2], status;
	pid_t pid;
	ssize_t got;

	memset(r, 0, sizeof(*r));
	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		struct lib l;
		struct rec mine;
		char name[128];
		int fd;

		close(p[0]);
		memset(&mine, 0, sizeof(mine));
		snprintf(name, sizeof(name), "libv4l-vcam:%s", cam);
		fd = memfd_create(name, 0);
		if (load(&l, path) == 0 && fd >= 0 && l.fd_open(fd, 0) == fd) {
			if (s)
				s->fn(&l, fd, &mine);
			else
				random_seq(&l, fd, &mine, seed);
			l.close(fd);
			mine.ran = 1;
		}
		(void)!write(p[1], &mine, sizeof(mine));
		_exit(0);
	}
	close(p[1]);
	got = read(p[0], r, sizeof(*r));
	close(p[0]);
	waitpid(pid, &status, 0);
	return got == (ssize_t)sizeof(*r) && r->ran ? 0 : -1;
}

/* A difference found before, with the reason ours is right (the doc). */
struct known {
	const char *cam, *seq, *step;
};

#include "known.h"
static const size_t n_known = sizeof(known) / sizeof(known[0]) - 1;

static int is_known(const char *cam, const char *seq, const char *step)
{
	for (size_t i = 0; i < n_known; i++)
		if ((!known[i].cam || !strcmp(known[i].cam, cam)) &&
		    !strcmp(known[i].seq, seq) && !strcmp(known[i].step, step))
			return 1;
	return 0;
}

static void show(const char *side, const struct step *t)
{
	printf("    %-6s ret %d errno %d (%s) [%u %u %u %u]\n", side, t->ret,
	       t->err, t->err ? strerror(t->err) : "-", t->v[0], t->v[1],
	       t->v[2], t->v[3]);
}

/* Compare the two records step by step: the count of unknown diffs. */
static int compare(const char *cam, const char *name, const struct rec *a,
		   const struct rec *b)
{
	int bad = 0, n = a->n > b->n ? a->n : b->n;

	for (int i = 0; i < n; i++) {
		const struct step *x = &a->steps[i], *y = &b->steps[i];
		const char *label = i < a->n ? x->what : y->what;
		int known_diff;

		/* after a failure both leave the structure as they like */
		if (i < a->n && i < b->n && x->ret == y->ret &&
		    x->err == y->err &&
		    (x->ret < 0 || !memcmp(x->v, y->v, sizeof(x->v))))
			continue;
		known_diff = is_known(cam, name, label);
		printf("%s %s / %s / %s\n", known_diff ? "KNOWN" : "DIFF ", cam,
		       name, label);
		show("ours", x);
		show("orig", y);
		bad += !known_diff;
	}
	return bad;
}

/* The call of a random sequence's step ("12: QBUF" is QBUF). */
static int is_op(const struct step *t, const char *op)
{
	const char *c = strstr(t->what, ": ");

	return c && !strcmp(c + 2, op);
}

static int outcome(const struct step *t, int ret, int err)
{
	return (ret > 0 ? t->ret > 0 : t->ret == ret) && t->err == err;
}

/* A successful read() at a step before i that took over buffers the
 * program had requested (a REQBUFS of at least one before it). */
static int read_took_over(const struct rec *r, int i)
{
	int requested = 0;

	for (int k = 0; k < i; k++) {
		const struct step *t = &r->steps[k];

		if (is_op(t, "REQBUFS") && t->ret == 0)
			requested = t->v[0] > 0;
		if (is_op(t, "read") && t->ret > 0 && requested)
			return 1;
	}
	return 0;
}

/*
 * The class, in doc/libv4l2-differences.md, of a random sequence's first
 * difference (at step i: ours a, the original's b), or 0 if none explains
 * it. Every later call may differ as a consequence.
 */
static int random_class(const struct rec *a, const struct rec *b, int i)
{
	const struct step *x = &a->steps[i], *y = &b->steps[i];

	if (is_op(x, "read") && outcome(x, -1, EBUSY) && outcome(y, -1, EINVAL))
		return 5;
	if (is_op(x, "read") && outcome(x, -1, EBUSY) && outcome(y, 1, 0))
		return 6;
	if (is_op(x, "S_FMT") && outcome(x, -1, EBUSY) && outcome(y, 0, 0))
		return 7;
	if (read_took_over(a, i) &&
	    ((outcome(x, -1, EINVAL) && outcome(y, 0, 0)) ||
	     (is_op(x, "S_FMT") && outcome(x, 0, 0) && outcome(y, -1, EBUSY))))
		return 8;
	for (int k = 0; k < i; k++)
		if (is_op(&a->steps[k], "STREAMOFF") && is_op(x, "QBUF") &&
		    outcome(x, 0, 0) && outcome(y, -1, EINVAL))
			return 9;
	return 0;
}

/* A random sequence: up to its first difference, which must have a class. */
static int compare_random(const char *cam, const char *name,
			  const struct rec *a, const struct rec *b)
{
	for (int i = 0; i < a->n && i < b->n; i++) {
		const struct step *x = &a->steps[i], *y = &b->steps[i];
		int c;

		if (x->ret == y->ret && x->err == y->err &&
		    (x->ret < 0 || !memcmp(x->v, y->v, sizeof(x->v))))
			continue;
		c = random_class(a, b, i);
		printf("%s %s / %s / %s", c ? "KNOWN" : "DIFF ", cam, name,
		       x->what);
		if (c)
			printf(" (row %d)", c);
		printf("\n");
		show("ours", x);
		show("orig", y);
		return !c;
	}
	return 0;
}

/* One sequence (or random one of seed) on camera cam through both. */
static int one(const char *ours, const char *orig, const struct seq *s,
	       unsigned seed, const char *cam, int *compared)
{
	struct rec a, b;
	char name[48];
	int ra = run_side(ours, s, seed, cam, &a);
	int rb = run_side(orig, s, seed, cam, &b);

	if (s)
		snprintf(name, sizeof(name), "%s", s->name);
	else
		snprintf(name, sizeof(name), "random %u", seed);
	if (ra || rb) {
		printf("FAIL %s / %s: %s did not run\n", cam, name,
		       ra ? "ours" : "orig");
		return 1;
	}
	*compared += a.n;
	if (getenv("DIFF_SHOW") && !strcmp(getenv("DIFF_SHOW"), name))
		for (int i = 0; i < a.n || i < b.n; i++) {
			printf("  %s\n", a.steps[i].what);
			show("ours", &a.steps[i]);
			show("orig", &b.steps[i]);
		}
	return s ? compare(cam, name, &a, &b)
		 : compare_random(cam, name, &a, &b);
}

int main(int argc, char **argv)
{
	static const char *cams[] = {
		"YUYV:640x480:nopace",
		"YUYV:640x480:flip=hv:nopace",
		"S910:640x480:nopace",
	};
	const char *orig = ORIG_LIBV4L2;
	char dir[4096];
	int bad = 0, compared = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: %s OURS_LIBV4L2 PLUGIN\n", argv[0]);
		return 2;
	}
	if (access(orig, R_OK)) {
		printf("diff-libv4l2: %s not available: skipped\n", orig);
		return 77;
	}
	plugin_path = argv[2];
	snprintf(dir, sizeof(dir), "%s", argv[2]);
	setenv("LIBV4L2_PLUGIN_DIR", dirname(dir), 1);
	setenv("LIBV4L2_SHARE", "0", 1);
	for (size_t c = 0; c < sizeof(cams) / sizeof(cams[0]); c++) {
		for (const struct seq *s = seqs; s->name; s++)
			bad += one(argv[1], orig, s, 0, cams[c], &compared);
		for (unsigned seed = 1; seed <= RANDOM_SEQS; seed++)
			bad += one(argv[1], orig, NULL, seed, cams[c],
				   &compared);
	}
	printf("%d calls compared, %d unexplained differences\n", compared,
	       bad);
	return bad != 0;
}
