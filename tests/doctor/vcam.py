#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""v4l2-doctor on the virtual camera: what it prints is checked against
the camera's spec (src/vcam/vcam.h: formats in the order given, the sizes
320x240, 640x480, 1280x720 plus the spec's, flip= reported through
ENUMINPUT, the driver name of src/vcam/ops.c), the environment given
(LIBV4LCONVERT_SIMD, LIBV4LCONTROL_FLAGS) and a real frame server client
(v4l2-grab, sharing the camera).

    vcam.py DOCTOR GRAB FRAMESERVER
"""
import json
import os
import subprocess
import sys
import tempfile
import time

DOCTOR, GRAB, SERVER = sys.argv[1:4]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def doctor(*args, env=None, text=False):
    e = dict(os.environ)
    e.update(env or {})
    out = subprocess.run([DOCTOR] + (["--json"] if not text else []) +
                         list(args), env=e, check=True,
                         capture_output=True, text=True).stdout
    return out if text else json.loads(out)


def sizes(fmt):
    return sorted(tuple(s) for s in fmt["sizes"])


# Two native formats, a size of its own, the sensor rotated.
spec = "YUYV,BA81:352x288:flip=hv"
r = doctor("--camera", spec)
check(len(r["devices"]) == 1, "one device asked, one answered")
d = r["devices"][0]
check(d["device"] == "libv4l-vcam:" + spec, "device named by its spec")
check(d["driver"] == "v4l2-vcam" and d["bus"] == "platform:vcam",
      "driver and bus of the virtual camera: %s %s" % (d["driver"], d["bus"]))
check(d["usb_id"] is None, "no USB id on the virtual camera")
check(d["size"] == [352, 288], "initial size is the spec's: %s" % d["size"])
check([f["fourcc"] for f in d["native"]] == ["YUYV", "BA81"],
      "native formats in the spec's order: %s" % d["native"])
want = sorted([(320, 240), (352, 288), (640, 480), (1280, 720)])
for f in d["native"]:
    check(sizes(f) == want, "%s sizes: %s" % (f["fourcc"], sizes(f)))
emu = {f["fourcc"]: f["from"] for f in d["emulated"]}
for dst in ("RGB3", "BGR3", "YU12", "YV12"):
    check(emu.get(dst) in ("YUYV", "BA81"),
          "%s emulated from a native format: %s" % (dst, emu.get(dst)))
q = d["quirks"]
check(q["driver"] == ["hflip", "vflip"], "flip=hv seen: %s" % q["driver"])
check(q["flags"] == ["hflip", "vflip"], "flips in force: %s" % q["flags"])
check(q["rule"] is None and not q["env_override"], "no rule, no override")
names = [c["name"] for c in d["emulated_controls"]]
# The camera has Brightness and Focus only (src/vcam/controls.c): with a
# quirk in force, libv4l emulates flips, white balance and gamma.
for n in ("Horizontal Flip", "Vertical Flip", "Gamma"):
    check(n in names, "emulated control %s: %s" % (n, names))
check("Brightness" not in names, "the camera's own control is not emulated")
check(d["frame_server"] is None, "no frame server runs")

# A chip format: its own sizes, decoded in software only.
d = doctor("--camera", "S561")["devices"][0]
check([f["fourcc"] for f in d["native"]] == ["S561"], "S561 native")
check(sizes(d["native"][0]) == [(320, 240), (352, 288)],
      "S561 sizes: %s" % sizes(d["native"][0]))
check({f["fourcc"]: f["from"] for f in d["emulated"]}.get("RGB3") == "S561",
      "RGB3 made from S561")

# The environment: SIMD tier, quirk override.
r = doctor("--camera", spec, env={"LIBV4LCONVERT_SIMD": "scalar",
                                  "LIBV4LCONTROL_FLAGS": "0"})
check(r["simd_tier"] == "scalar", "LIBV4LCONVERT_SIMD=scalar: %s" %
      r["simd_tier"])
q = r["devices"][0]["quirks"]
check(q["env_override"] and q["flags"] == [] and q["driver"] ==
      ["hflip", "vflip"], "LIBV4LCONTROL_FLAGS=0 replaces the flips: %s" % q)

# The text answer names the same things.
t = doctor("--camera", spec, text=True)
for s in ("libv4l-vcam:" + spec, "v4l2-vcam", "YUYV", "BA81",
          "hflip,vflip", "SIMD tier: "):
    check(s in t, "text mentions %r" % s)

# A frame server with one client streaming: the doctor finds it and the
# client's pid, and is not counted itself.
with tempfile.TemporaryDirectory() as tmp:
    env = dict(os.environ, XDG_RUNTIME_DIR=tmp, LIBV4L2_SHARE="1",
               LIBV4L2_FRAMESERVER=SERVER,
               LIBV4L2_FRAMESERVER_IDLE_MS="300")
    cam = "MJPG:320x240"
    grab = subprocess.Popen([GRAB, "--camera", cam, "--size", "320x240",
                             "--frames", "100000", "--out", tmp + "/png"],
                            env=env, stdout=subprocess.DEVNULL)
    srv = None
    try:
        for _ in range(300):  # until the client has connected
            srv = doctor("--camera", cam, env={"XDG_RUNTIME_DIR": tmp})[
                "devices"][0]["frame_server"]
            if srv and srv["count"] >= 1 and srv["clients"][0]["streaming"]:
                break
            time.sleep(0.05)
        check(srv is not None, "the frame server is found")
        if srv:
            check(srv["socket"].startswith(tmp + "/libv4l/"),
                  "socket under XDG_RUNTIME_DIR: %s" % srv["socket"])
            check(srv["count"] == 1, "one client: %s" % srv)
            check([c["pid"] for c in srv["clients"]] == [grab.pid],
                  "the client is v4l2-grab (pid %d): %s" % (grab.pid, srv))
            check(srv["clients"][0]["streaming"], "the client streams")
    finally:
        grab.kill()
        grab.wait()

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
