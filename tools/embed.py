#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write a C file defining `const char NAME[]` with the bytes of a text file."""
import sys

src, dst, name = sys.argv[1:4]
data = open(src, 'rb').read()
with open(dst, 'w') as out:
    out.write('/* Generated from %s by tools/embed.py. */\n' % src.split('/')[-1])
    out.write('const char %s[] = {\n' % name)
    for i in range(0, len(data), 12):
        out.write('\t' + ' '.join('0x%02x,' % b for b in data[i:i + 12]) + '\n')
    out.write('\t0x00\n};\n')
