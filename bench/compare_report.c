/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/compare: the figures of each setting on stdout and in the optional
 * Markdown and TSV files, the differences between the peers' outputs, and
 * the summary of the targets (issues 8 and 17).
 */
#include <stdlib.h>
#include <string.h>

#include "compare.h"

FILE *md, *tsv;

static void fmt_fig(char *out, size_t n, const struct cand *c)
{
	if (!c->ok)
		snprintf(out, n, "-");
	else
		snprintf(out, n, "%.0f ±%.0f%%", c->med,
			 50 * (c->hi - c->lo) / c->med);
}

static void fmt_ratio(char *out, size_t n, double r)
{
	if (r <= 0)
		snprintf(out, n, "-");
	else
		snprintf(out, n, "%.2fx", r);
}

#define NTARGETS 9

/* Summary of the targets: worst ratio over sizes per conversion x target. */
static struct tgt {
	double worst[NCONV][NTARGETS];
	int met[NCONV][NTARGETS], seen[NCONV][NTARGETS];
} tg;

static void target(int ci, int bit, double r, double need, int strict)
{
	int b = __builtin_ctz((unsigned)bit);

	if (r <= 0)
		return;
	if (!tg.seen[ci][b] || r < tg.worst[ci][b])
		tg.worst[ci][b] = r;
	tg.seen[ci][b]++;
	tg.met[ci][b] += strict ? r > need : r >= need;
}

/*
 * Same work? Mean absolute difference of each peer's output from our best
 * tier's, per byte of the destination frame (-1: not comparable, e.g. a
 * 4-byte ARGB or 4:2:2 output). Run once per setting, outside the timing.
 */
static void check(struct setting *s, double *diff)
{
	int best = best_ours(s);
	uint8_t *ref = xalloc(s->dslot), *out = xalloc(s->dslot);

	for (int id = 0; id < NCAND; id++)
		diff[id] = -1;
	if (best >= 0 && !call(s, best, s->spool, ref)) {
		for (int id = 0; id < C_MEMCPY; id++) {
			uint64_t sum = 0;

			if (!s->c[id].ok ||
			    (id >= C_YUV_SSSE3 && id <= C_YUV_MAX &&
			     (s->cv->yuv == Y_MJPG_ARGB ||
			      s->cv->yuv == Y_ARGBROT90 ||
			      s->cv->yuv == Y_ARGBROT270)) ||
			    (id == C_TJ && s->cv->tj == 2))
				continue;
			select_tier(id);
			memset(out, 0, s->dslot);
			if (call(s, id, s->spool, out))
				continue;
			for (size_t i = 0; i < s->dbytes; i++)
				sum += (uint64_t)abs(out[i] - ref[i]);
			diff[id] = (double)sum / (double)s->dbytes;
		}
	}
	free(ref);
	free(out);
}

/* The ratios of one setting (0: not measured), and their text. */
struct ratios {
	double orig, yuv_avx2, sse2, sws, mem, tj, ssse3, best;
	char t_orig[16], t_yuv_avx2[16], t_sse2[16], t_sws[16], t_mem[16];
	char t_tj[16], t_ssse3[16], t_best[16];
};

static void get_ratios(const struct setting *s, int best, int runs,
		       struct ratios *r)
{
	r->orig = ratio(s, best, C_ORIG, runs);
	r->yuv_avx2 = ratio(s, C_AVX2, C_YUV_AVX2, runs);
	r->sse2 = ratio(s, C_SSE2, C_YUV_SSSE3, runs);
	r->sws = ratio(s, best, C_SWS, runs);
	r->mem = ratio(s, best, C_MEMCPY, runs);
	r->tj = ratio(s, best, C_TJ, runs);
	r->ssse3 = ratio(s, C_SSSE3, C_YUV_SSSE3, runs);
	r->best = ratio(s, best, C_YUV_MAX, runs);
	fmt_ratio(r->t_orig, sizeof(r->t_orig), r->orig);
	fmt_ratio(r->t_yuv_avx2, sizeof(r->t_yuv_avx2), r->yuv_avx2);
	fmt_ratio(r->t_sse2, sizeof(r->t_sse2), r->sse2);
	fmt_ratio(r->t_sws, sizeof(r->t_sws), r->sws);
	fmt_ratio(r->t_tj, sizeof(r->t_tj), r->tj);
	fmt_ratio(r->t_ssse3, sizeof(r->t_ssse3), r->ssse3);
	fmt_ratio(r->t_best, sizeof(r->t_best), r->best);
	if (r->mem > 0)
		snprintf(r->t_mem, sizeof(r->t_mem), "%.0f %%", 100 * r->mem);
	else
		snprintf(r->t_mem, sizeof(r->t_mem), "-");
}

/* One target of the setting: counted in the summary, marked in `ok`. */
static void mark(char *ok, size_t n, int ci, int bit, double r, double need,
		 int strict, const char *label)
{
	int met = strict ? r > need : r >= need;

	target(ci, bit, r, need, strict);
	snprintf(ok + strlen(ok), n - strlen(ok), "%s%s%s", *ok ? " " : "",
		 label, met ? "✓" : "✗");
}

/* Our best tier against the fastest peer: the smallest of its ratios to
 * every peer that ran (0 if none did). */
static double worst_peer_ratio(const struct setting *s, int best, int runs)
{
	double worst = 0;

	for (int id = C_ORIG; id < C_MEMCPY; id++) {
		double r = ratio(s, best, id, runs);

		if (r > 0 && (worst == 0 || r < worst))
			worst = r;
	}
	return worst;
}

/* The targets of conversion ci met by this setting, into ok (n bytes):
 * in-cache figures, except the memory one (fresh). */
static void mark_targets(const struct setting *s, int ci, int best, int runs,
			 const struct ratios *r, char *ok, size_t n)
{
	int t = s->cv->target;

	if (!s->fresh) {
		if ((t & T_YUV) && r->yuv_avx2 > 0)
			mark(ok, n, ci, T_YUV, r->yuv_avx2, 1, 0, "yuv");
		if ((t & T_SSE2) && r->sse2 > 0)
			mark(ok, n, ci, T_SSE2, r->sse2, 1, 0, "sse2");
		if ((t & T_10X) && r->orig > 0)
			mark(ok, n, ci, T_10X, r->orig, 10, 0, "10x");
		if ((t & T_8X) && r->orig > 0)
			mark(ok, n, ci, T_8X, r->orig, 8, 0, "8x");
		if ((t & T_TJ) && r->tj > 0)
			mark(ok, n, ci, T_TJ, r->tj, 0.95, 0, "tj");
		if (t & T_FAST) {
			double worst = worst_peer_ratio(s, best, runs);

			if (worst > 0)
				mark(ok, n, ci, T_FAST, worst, 1, 1, "fastest");
		}
	} else if ((t & T_MEM) && r->mem > 0) {
		mark(ok, n, ci, T_MEM, r->mem, 0.8, 0, "mem");
	}
	/* issue 17: like for like in cache and fresh from memory */
	if ((t & T_SSSE3) && r->ssse3 > 0)
		mark(ok, n, ci, T_SSSE3, r->ssse3, 1, 0, "ssse3");
	if ((t & T_BEST) && r->best > 0)
		mark(ok, n, ci, T_BEST, r->best, 1, 0, "best");
}

/* "peer d.dd, ..." for every peer whose output can be compared. */
static void diff_text(struct setting *s, int best, char *dtxt, size_t n)
{
	double diff[NCAND];

	check(s, diff);
	for (int id = 0; id < C_MEMCPY; id++)
		if (diff[id] >= 0 && id != best)
			snprintf(dtxt + strlen(dtxt), n - strlen(dtxt),
				 "%s%s %.2f", *dtxt ? ", " : "", cand_names[id],
				 diff[id]);
}

void report(struct setting *s, int ci, int runs)
{
	char dtxt[160] = "", f[NCAND][32], ok[128] = "";
	const struct conv *cv = s->cv;
	int best = best_ours(s);
	struct ratios r;

	for (int id = 0; id < NCAND; id++) {
		struct cand *c = &s->c[id];

		fmt_fig(f[id], sizeof(f[id]), c);
		if (tsv && c->ok)
			fprintf(tsv, "%s\t%dx%d\t%s\t%s\t%.1f\t%.1f\t%.1f\n",
				cv->name, s->w, s->h,
				s->fresh ? "fresh" : "cache", cand_names[id],
				c->med, c->lo, c->hi);
	}
	if (best < 0)
		return;
	diff_text(s, best, dtxt, sizeof(dtxt));
	get_ratios(s, best, runs, &r);
	mark_targets(s, ci, best, runs, &r, ok, sizeof(ok));
	printf("%-15s %4dx%-4d %s  best=%s orig %s yuv-avx2 %s sse2/ssse3 %s "
	       "ssse3/ssse3 %s best/max %s sws %s tj %s mem %s %s\n",
	       cv->name, s->w, s->h, s->fresh ? "fresh" : "cache", tiers[best],
	       r.t_orig, r.t_yuv_avx2, r.t_sse2, r.t_ssse3, r.t_best, r.t_sws,
	       r.t_tj, r.t_mem, ok);
	for (int id = 0; id < NCAND; id++)
		if (s->c[id].ok)
			printf("    %-13s %s\n", cand_names[id], f[id]);
	printf("    mean |peer - ours| per byte: %s\n", *dtxt ? dtxt : "-");
	fflush(stdout);
	if (md)
		fprintf(md,
			"| %s | %dx%d | %s | %s | %s | %s | %s | %s | %s | %s "
			"| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s "
			"| %s | %s | %s |\n",
			cv->name, s->w, s->h, s->fresh ? "fresh" : "cache",
			f[C_SCALAR], f[C_SSE2], f[C_SSSE3], f[C_AVX2],
			f[C_ORIG], f[C_YUV_SSSE3], f[C_YUV_AVX2], f[C_YUV_MAX],
			f[C_SWS], f[C_TJ], f[C_MEMCPY], r.t_orig, r.t_yuv_avx2,
			r.t_sse2, r.t_ssse3, r.t_best, r.t_sws, r.t_tj, r.t_mem,
			*ok ? ok : "-", s->fresh ? "" : dtxt);
}

/* The Markdown table's introduction and header. */
void write_md_header(int runs, int wall)
{
	fprintf(md,
		"MPix/s of source pixels, median of %d interleaved runs "
		"(±: half the min-max spread, in %% of the median), "
		"%s. Ratios: median of per-run ratios; "
		"\"ours\" is our best tier. memcpy moves (source + "
		"destination bytes) / 2. libyuv avx2 = SSSE3..AVX2+FMA, "
		"libyuv max = every level it detects (AVX-512 here).\n\n"
		"| conversion | size | data | ours scalar | ours sse2 | "
		"ours ssse3 | ours avx2 | original | libyuv ssse3 | "
		"libyuv avx2 | libyuv max | swscale | turbojpeg | "
		"memcpy | ours/original | avx2/libyuv avx2 | "
		"sse2/libyuv ssse3 | ssse3/libyuv ssse3 | "
		"ours/libyuv max | ours/swscale | ours/turbojpeg | "
		"ours/memcpy | targets | "
		"mean abs diff from ours (levels/byte) |\n"
		"|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
		"---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
		"---|---|\n",
		runs,
		wall ? "wall-clock time" : "process CPU time (all threads)");
}

/* The summary of the targets and the notes on each conversion; closes
 * the Markdown file. */
void write_md_targets(const char *filter)
{
	static const char *const tnames[NTARGETS] = {
		"ours (avx2) >= libyuv (avx2)",
		">= 10x the original",
		"ours sse2 >= libyuv ssse3",
		">= 8x the original",
		">= 95 % of tjDecompress2",
		"faster than every peer",
		"fresh: >= 80 % of memcpy",
		"ours ssse3 >= libyuv ssse3 (cache and fresh)",
		"ours best >= libyuv max (cache and fresh)",
	};

	fprintf(md, "\n### Targets (issues 8 and 17)\n\nWorst ratio over the "
		    "sizes measured (in-cache figures; the memory "
		    "target uses the fresh ones, the SSSE3 and best "
		    "ones both), and at how many "
		    "sizes the target is met.\n\n"
		    "| conversion | target | worst ratio | met |\n"
		    "|---|---|---:|---|\n");
	for (size_t ci = 0; ci < NCONV; ci++)
		for (int b = 0; b < NTARGETS; b++)
			if (tg.seen[ci][b])
				fprintf(md,
					"| %s | %s | %s%.2f%s | %d/%d%s |\n",
					convs[ci].name, tnames[b],
					b == 6 ? "" : "",
					b == 6 ? 100 * tg.worst[ci][b]
					       : tg.worst[ci][b],
					b == 6 ? " %" : "x", tg.met[ci][b],
					tg.seen[ci][b],
					tg.met[ci][b] == tg.seen[ci][b] ? " ✓"
									: " ✗");
	fprintf(md, "\nNotes on the work each peer does:\n\n");
	for (size_t ci = 0; ci < NCONV; ci++)
		if (!filter || strstr(convs[ci].name, filter))
			fprintf(md, "- %s: %s.\n", convs[ci].name,
				convs[ci].note);
	fclose(md);
}
