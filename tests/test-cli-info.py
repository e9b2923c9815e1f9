#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cli-info: `roomwave-cli info` exits 0 with a report for good meshes (also
for a leaky one, which it reports as such), 1 with the file named for bad
input, 2 for bad usage; --json parses and holds the documented keys with
the right values for the demo room and the test box; the absorbing area on
the grid matches the mesh area per surface (2 %) where the face count
overstates a 30° ceiling by cos 30° + sin 30°; --help works.

Environment (tests/meson.build): ROOMWAVE_CLI, ROOMWAVE_DATA_DIR,
ROOMWAVE_TEST_DATA."""
import json
import math
import os
import subprocess
import sys

from rwcheck import check, finish

cli = os.environ["ROOMWAVE_CLI"]
data = os.environ["ROOMWAVE_DATA_DIR"]
meshes = os.path.join(os.environ["ROOMWAVE_TEST_DATA"], "meshes")


def run(*args):
    p = subprocess.run([cli, "info", *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


KEYS = ["file", "volume_m3", "area_m2", "bbox_min", "bbox_max", "watertight", "outward",
        "open_edges", "nonmanifold_edges", "degenerate_triangles", "nonfinite_vertices",
        "warnings", "surfaces"]

# The demo room: closed, outward, 100.5 m³, five surfaces with materials.
demo = os.path.join(data, "rooms", "demo-room.obj")
rc, out, err = run(demo, "--json")
check(rc == 0, f"demo --json exit {rc}: {err}")
j = json.loads(out)
for k in KEYS:
    check(k in j, f"key {k} in JSON")
check(abs(j["volume_m3"] - 100.5) < 1e-6, f"demo volume {j['volume_m3']}")
check(j["watertight"] is True and j["outward"] is True, "demo closed and outward")
check(j["open_edges"] == 0 and j["warnings"] == [], f"demo has no warnings: {j['warnings']}")
check(j["bbox_min"] == [0, 0, 0] and j["bbox_max"] == [7, 5, 3], f"demo bbox {j['bbox_min']} {j['bbox_max']}")
names = {s["name"]: s for s in j["surfaces"]}
check(set(names) == {"carpet_on_concrete", "acoustic_tile", "plaster", "glass", "door"}, f"surfaces {set(names)}")
check(names.get("glass", {}).get("material") == "glass", "glass matched")
check(abs(names.get("door", {}).get("area_m2", 0) - 2.1) < 1e-9, "door area 1 m × 2.1 m")
check(abs(sum(s["area_m2"] for s in j["surfaces"]) - j["area_m2"]) < 1e-8 * j["area_m2"], "areas add up")
check(sum(s["triangles"] for s in j["surfaces"]) == j["triangles"], "triangles add up")

# The grid's absorbing area per surface (h = 0.0443 m at the default 1000 Hz):
# the mesh's area within 2 % on the demo room's large surfaces.
check(abs(j["grid_spacing_m"] - 343.2 / (1000 * 7.75)) < 1e-3 and j["grid_error"] is None,
      f"demo grid spacing {j['grid_spacing_m']}, error {j['grid_error']}")
for s in j["surfaces"]:
    if s["area_m2"] > 30:
        check(abs(s["grid_area_m2"] / s["area_m2"] - 1) < 0.02,
              f"demo {s['name']}: grid area {s['grid_area_m2']} vs mesh {s['area_m2']}")

# A room whose ceiling rises at 30° along x (6 × 4 m, 2.5 m at x = 0): the
# staircase's faces overstate the ceiling by cos 30° + sin 30° = 1.366; the
# grid's absorbing area is the mesh area within 2 % (h = 0.0443 m).
rise = 6 * math.tan(math.radians(30))
slope = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"rw-cli-info-slope-{os.getpid()}.obj")
with open(slope, "w") as f:
    for z in (0, 1):
        for y in (0, 4):
            for x in (0, 6):
                f.write(f"v {x} {y} {z * (2.5 + (rise if x else 0)):.9f}\n")
    # vertices 1…8: (x, y, z) = bits (1, 2, 4); quads counter-clockwise from outside
    for name, q in [("floor", (1, 3, 4, 2)), ("ceiling", (5, 6, 8, 7)), ("wall_x0", (1, 5, 7, 3)),
                    ("wall_x1", (2, 4, 8, 6)), ("wall_y0", (1, 2, 6, 5)), ("wall_y1", (3, 7, 8, 4))]:
        f.write(f"o {name}\nf {q[0]} {q[1]} {q[2]}\nf {q[0]} {q[2]} {q[3]}\n")
rc, out, err = run(slope, "--json")
check(rc == 0, f"30° room: exit {rc}: {err}")
j = json.loads(out)
s = {x["name"]: x for x in j["surfaces"]}
ceil = s.get("ceiling", {})
check(abs(ceil.get("area_m2", 0) - 24 / math.cos(math.radians(30))) < 1e-6, f"30° ceiling area {ceil}")
for name, x in s.items():
    check(abs(x["grid_area_m2"] / x["area_m2"] - 1) < 0.02, f"30° room {name}: grid {x['grid_area_m2']} vs mesh {x['area_m2']}")
check(abs(ceil["grid_face_area_m2"] / ceil["area_m2"] - 1.366) < 0.03,
      f"30° ceiling: faces {ceil['grid_face_area_m2']} vs mesh {ceil['area_m2']}, expected 1.366×")
rc, out, err = run(slope)
check(rc == 0 and "Absorbing area on the grid" in out and "faces m²" in out, f"30° room, text: {out}")
os.remove(slope)

# Text output names the volume and watertightness.
rc, out, err = run(demo)
check(rc == 0 and "100.500" in out and "Watertight: yes" in out, f"demo text report: {out}")

# A leaky box: still a report (exit 0), not watertight, the hole located.
rc, out, err = run(os.path.join(meshes, "box-open.obj"), "--json")
check(rc == 0, f"open box exit {rc}")
j = json.loads(out)
check(j["watertight"] is False and j["open_edges"] == 3, "open box: 3 open edges")
check(len(j["open_edge_samples"]) == 3 and all(e[0][2] == 2.5 and e[1][2] == 2.5 for e in j["open_edge_samples"]),
      "leak on the ceiling")
check(any("not closed" in w for w in j["warnings"]), "leak warning")
check(j["grid_spacing_m"] is None and "not closed" in j["grid_error"]
      and all(x["grid_area_m2"] is None for x in j["surfaces"]), f"open box: no grid ({j['grid_error']})")
rc, out, err = run(os.path.join(meshes, "box-open.obj"))
check("leak: edge" in out, "text report shows the leak")

# Millimetres: the suggestion, and --scale applied.
rc, out, err = run(os.path.join(meshes, "room-mm.obj"), "--json")
j = json.loads(out)
check(j["suggested_scale"] == 0.001 and any("--scale 0.001" in w for w in j["warnings"]), "mm suggestion")
rc, out, err = run(os.path.join(meshes, "room-mm.obj"), "--scale", "0.001", "--json")
j = json.loads(out)
check(abs(j["volume_m3"] - 72) < 1e-9 and j["suggested_scale"] is None, "scaled mm room")

# A material map: applied per surface; a bad map is bad input.
mapfile = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"rw-cli-info-map-{os.getpid()}.json")
with open(mapfile, "w") as f:
    f.write('{"floor": "carpet on concrete", "ceiling": {"R": 0.5}}')
rc, out, err = run(os.path.join(meshes, "box.obj"), "--materials", mapfile, "--json")
j = json.loads(out)
s = {x["name"]: x for x in j["surfaces"]}
check(rc == 0 and s["floor"]["material"] == "carpet on concrete" and s["ceiling"]["R"] == 0.5, "map applied")
with open(mapfile, "w") as f:
    f.write('{"balcony": "glass"}')
rc, out, err = run(os.path.join(meshes, "box.obj"), "--materials", mapfile)
check(rc == 1 and mapfile in err and "balcony" in err, f"bad map: {rc} {err}")
os.remove(mapfile)

# Two closed boxes drawn into each other (30 m³ each, 8 m³ in common): the
# room is their union, 52 m³, and the overlap is reported with the surfaces
# that lie inside the other box, in JSON and in text.
two = os.path.join(meshes, "two-boxes.obj")
rc, out, err = run(two, "--json")
check(rc == 0, f"two boxes: exit {rc}: {err}")
j = json.loads(out)
check(abs(j["volume_m3"] - 52) < 0.02 * 52, f"two boxes: volume {j['volume_m3']}, union 52")
check(abs(j["overlap_volume_m3"] - 8) < 0.02 * 8, f"two boxes: overlap {j['overlap_volume_m3']}, expected 8")
check("a_wall_x1" in j["overlapping_surfaces"] and "b_wall_x0" in j["overlapping_surfaces"],
      f"two boxes: overlapping surfaces {j['overlapping_surfaces']}")
check(any("overlap" in w and "union" in w for w in j["warnings"]), f"two boxes: warnings {j['warnings']}")
rc, out, err = run(two)
check(rc == 0 and "union of overlapping shells" in out and "a_wall_x1" in out, f"two boxes, text: {out}")

# Inward normals: flipped, with a warning; the volume is positive.
rc, out, err = run(os.path.join(meshes, "box-inward.obj"), "--json")
j = json.loads(out)
check(rc == 0 and j["volume_m3"] > 0 and abs(j["volume_m3"] - 30) < 1e-6, f"inward box: volume {j['volume_m3']}")
check(j["normals_flipped"] is True and j["outward"] is True, "inward box: flipped to outward")
check(any("flipped" in w for w in j["warnings"]), f"inward box: warnings {j['warnings']}")
rc, out, err = run(os.path.join(meshes, "box-inward.obj"))
check(rc == 0 and "flipped" in out and "30.000" in out, f"inward box, text: {out}")

# Bad input: exit 1 and the file named.
for bad in ["no-such.obj", "empty.obj", "garbage.bin", "truncated.obj", "truncated.stl", "nan.obj", "lines.obj",
            "/dev/zero"]:
    path = os.path.join(meshes, bad)
    rc, out, err = run(path)
    check(rc == 1, f"{bad}: exit {rc}")
    check(path in err, f"{bad}: file named in '{err.strip()}'")
    check("Traceback" not in err and out == "", f"{bad}: nothing on stdout")

# Bad usage: exit 2.
for args in [[], ["--scale"], ["--scale", "abc", demo], ["--scale", "0", demo], ["--scale", "nan", demo],
             ["--bogus", demo], [demo, demo], ["--fmax", "-5", demo], ["--ppw", "2", demo]]:
    rc, out, err = run(*args)
    check(rc == 2, f"usage {args}: exit {rc}")
    check("--help" in err, f"usage {args}: points to --help")

rc, out, err = run("--help")
check(rc == 0 and "--scale" in out and "--json" in out and "--ppw" in out, "help")

sys.exit(finish())
