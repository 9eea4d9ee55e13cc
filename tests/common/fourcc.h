/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A fourcc as text, for the messages of tests: its four characters (7-bit,
 * '?' for a control character) and "-BE" when the big-endian flag is set:
 * "YUYV", "Y16 -BE".
 *
 *   printf("%s -> %s", FOURCC_STR(src), FOURCC_STR(dst));
 *
 * FOURCC_STR writes into a buffer of the block it is used in (a compound
 * literal), so that one call may name several formats and threads may
 * format at once.
 */
#ifndef V4LC_TEST_FOURCC_H
#define V4LC_TEST_FOURCC_H

#include <stdint.h>

#define FOURCC_STR_LEN 8 /* "ABCD-BE" and its terminator */

char *fourcc_str(uint32_t fourcc, char buf[FOURCC_STR_LEN]);

#define FOURCC_STR(f) fourcc_str((f), (char[FOURCC_STR_LEN]){ 0 })

#endif
