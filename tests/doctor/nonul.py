#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""v4l2-doctor on a driver whose strings have no NUL (nonul_plugin.c: the
virtual camera with QUERYCAP's driver, card and bus_info and every
ENUM_FMT description filled to their last byte, and non-zero bytes after
them to the end of each structure).

The doctor must print each string whole (16 or 32 characters, as the
driver gave them) and nothing more: a shorter one was cut, a longer one
read past the field. Control characters are printed as '?' (the card's
name carries an escape character). Under AddressSanitizer (scripts/test-all.sh's
sanitizer build) a read past the structure is also reported, and the
doctor then exits non-zero.

    nonul.py DOCTOR
The plugin directory holding only nonul_plugin.so is the test's
LIBV4L2_PLUGIN_DIR.
"""
import json
import subprocess
import string
import sys

DOCTOR = sys.argv[1]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def pattern(tag, n):
    """nonul_plugin.c's fill(): the tag, then a, b, c... to n bytes."""
    letters = string.ascii_lowercase
    return (tag + "".join(letters[i % 26] for i in range(n - len(tag))))[:n]


# The card's escape character (ESC) is printed as '?'.
DRIVER, CARD = pattern("DRV", 16), pattern("CARD\x1b", 32).replace("\x1b", "?")
BUS = pattern("BUS", 32)
DESC = pattern("FMT", 32)


def doctor(*args):
    r = subprocess.run([DOCTOR] + list(args), capture_output=True,
                       text=True, errors="replace")
    check(r.returncode == 0, "%s: exit %d" % (" ".join(args), r.returncode))
    check("Sanitizer" not in r.stderr,
          "%s: a sanitizer report:\n%s" % (" ".join(args), r.stderr[-3000:]))
    return r.stdout


out = doctor("--json", "--camera", "YUYV,BA81:320x240")
try:
    d = json.loads(out)["devices"][0]
except (ValueError, KeyError, IndexError) as e:
    check(False, "JSON answer (%s): %r" % (e, out[:500]))
    d = None
if d:
    for key, want in (("driver", DRIVER), ("card", CARD), ("bus", BUS)):
        got = d.get(key)
        check(got == want, "%s: %r (%d characters), the driver gave %r (%d)"
              % (key, got, len(got or ""), want, len(want)))
    native = d.get("native", [])
    check([f["fourcc"] for f in native] == ["YUYV", "BA81"],
          "native formats: %s" % [f["fourcc"] for f in native])
    for f in native:
        check(f["description"] == DESC,
              "%s description: %r (%d characters), the driver gave %r (%d)"
              % (f["fourcc"], f["description"], len(f["description"]), DESC,
                 len(DESC)))
    check(len(d.get("emulated", [])) > 0, "emulated formats still listed")

# The text form: the same strings, whole, on the driver's line.
text = doctor("--camera", "YUYV:320x240")
want = 'driver:     %s, card "%s", bus %s\n' % (DRIVER, CARD, BUS)
check(want in text, "text form: want %r in:\n%s" % (want, text))

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("ok: QUERYCAP's 16/32/32 characters and the 32 of each description, "
      "whole and no more")
