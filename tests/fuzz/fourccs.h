/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every source fourcc the original libv4lconvert knows (the 65 entries of
 * its source format table), the formats this library adds, and a few it
 * does not know at all (those must fail with EINVAL). Written out from the
 * characters so that the table does not depend on the names a given
 * <linux/videodev2.h> has.
 */
#ifndef V4LC_FUZZ_FOURCCS_H
#define V4LC_FUZZ_FOURCCS_H

#include <stdint.h>

#define FZ_FCC(a, b, c, d)                                                     \
	((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) |        \
	 ((uint32_t)(d) << 24))
#define FZ_FCC_BE(a, b, c, d) (FZ_FCC(a, b, c, d) | (1u << 31))

static const uint32_t fuzz_fourccs[] = {
	/* destination formats, also sources */
	FZ_FCC('R', 'G', 'B', '3'),
	FZ_FCC('B', 'G', 'R', '3'),
	FZ_FCC('Y', 'U', '1', '2'),
	FZ_FCC('Y', 'V', '1', '2'),
	/* packed RGB */
	FZ_FCC('R', 'G', 'B', 'P'),
	FZ_FCC('B', 'G', 'R', '4'),
	FZ_FCC('R', 'G', 'B', '4'),
	FZ_FCC('X', 'R', '2', '4'),
	FZ_FCC('B', 'X', '2', '4'),
	FZ_FCC('A', 'R', '2', '4'),
	FZ_FCC('B', 'A', '2', '4'),
	/* YUV 4:2:2 */
	FZ_FCC('Y', 'U', 'Y', 'V'),
	FZ_FCC('Y', 'V', 'Y', 'U'),
	FZ_FCC('U', 'Y', 'V', 'Y'),
	FZ_FCC('N', 'V', '1', '6'),
	FZ_FCC('N', 'V', '6', '1'),
	/* YUV 4:2:0, custom layouts and chip formats */
	FZ_FCC('S', '5', '0', '1'),
	FZ_FCC('S', '5', '0', '5'),
	FZ_FCC('S', '5', '0', '8'),
	FZ_FCC('C', 'I', 'T', 'V'),
	FZ_FCC('K', 'O', 'N', 'I'),
	FZ_FCC('M', '4', '2', '0'),
	FZ_FCC('S', '9', '2', '0'),
	FZ_FCC('H', 'M', '1', '2'),
	FZ_FCC('N', 'V', '1', '2'),
	FZ_FCC('C', 'P', 'I', 'A'),
	/* JPEG family */
	FZ_FCC('M', 'J', 'P', 'G'),
	FZ_FCC('J', 'P', 'E', 'G'),
	FZ_FCC('P', 'J', 'P', 'G'),
	FZ_FCC('J', 'P', 'G', 'L'),
	FZ_FCC('O', '5', '1', '1'),
	FZ_FCC('O', '5', '1', '8'),
	/* Bayer 8-bit */
	FZ_FCC('B', 'A', '8', '1'),
	FZ_FCC('G', 'B', 'R', 'G'),
	FZ_FCC('G', 'R', 'B', 'G'),
	FZ_FCC('R', 'G', 'G', 'B'),
	FZ_FCC('S', '6', '8', '0'),
	/* Bayer 10-bit packed, 10-bit in 16, 16-bit */
	FZ_FCC('p', 'B', 'A', 'A'),
	FZ_FCC('p', 'G', 'A', 'A'),
	FZ_FCC('p', 'g', 'A', 'A'),
	FZ_FCC('p', 'R', 'A', 'A'),
	FZ_FCC('B', 'G', '1', '0'),
	FZ_FCC('G', 'B', '1', '0'),
	FZ_FCC('B', 'A', '1', '0'),
	FZ_FCC('R', 'G', '1', '0'),
	FZ_FCC('B', 'Y', 'R', '2'),
	FZ_FCC('G', 'B', '1', '6'),
	FZ_FCC('G', 'R', '1', '6'),
	FZ_FCC('R', 'G', '1', '6'),
	/* compressed Bayer */
	FZ_FCC('S', '5', '6', '1'),
	FZ_FCC('S', '9', '1', '0'),
	FZ_FCC('S', 'O', 'N', 'X'),
	FZ_FCC('P', '2', '0', '7'),
	FZ_FCC('M', '3', '1', '0'),
	FZ_FCC('J', 'L', '2', '0'),
	FZ_FCC('9', '0', '5', 'C'),
	/* SE401 */
	FZ_FCC('S', '4', '0', '1'),
	/* grey */
	FZ_FCC('G', 'R', 'E', 'Y'),
	FZ_FCC('Y', '0', '4', ' '),
	FZ_FCC('Y', '0', '6', ' '),
	FZ_FCC('Y', '1', '0', 'B'),
	FZ_FCC('Y', '1', '6', ' '),
	FZ_FCC_BE('Y', '1', '6', ' '),
	/* HSV */
	FZ_FCC('H', 'S', 'V', '4'),
	FZ_FCC('H', 'S', 'V', '3'),
	/* beyond the original: formats this library may add */
	FZ_FCC('N', 'V', '2', '1'),
	FZ_FCC('V', 'Y', 'U', 'Y'),
	FZ_FCC('N', 'V', '2', '4'),
	FZ_FCC('N', 'V', '4', '2'),
	FZ_FCC('4', '2', '2', 'P'),
	FZ_FCC('4', '1', '1', 'P'),
	FZ_FCC('Y', 'U', 'V', '9'),
	FZ_FCC('Y', '4', '4', '4'),
	FZ_FCC('R', 'G', 'B', 'O'),
	FZ_FCC('R', '4', '4', '4'),
	FZ_FCC('Y', '1', '0', ' '),
	FZ_FCC('Y', '1', '2', ' '),
	FZ_FCC('B', 'A', '1', '2'),
	FZ_FCC('p', 'B', 'C', 'C'),
	FZ_FCC('N', 'M', '1', '2'),
	FZ_FCC('Y', 'M', '1', '2'),
	/* unknown everywhere */
	FZ_FCC('H', '2', '6', '4'),
	FZ_FCC('Z', '1', '6', ' '),
	0,
	0xffffffffu,
};

#define FUZZ_N_FOURCCS (sizeof(fuzz_fourccs) / sizeof(fuzz_fourccs[0]))

#endif
