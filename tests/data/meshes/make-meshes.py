#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the small good and bad meshes the mesh tests load. Run it from this
folder; the files are checked in, this script says how they were made.

Two files are not made here: bad-header.ply and assimp-abort.ply are PLY
files exported by Assimp from the demo room with two bytes flipped (found by
flipping bytes at random); Assimp 5.2 segfaults on the first and fails an
assertion (abort) on the second."""
import random, struct

def box(lx, ly, lz):
    v = [(x, y, z) for z in (0, lz) for y in (0, ly) for x in (0, lx)]
    # 1-based corners: index = 1 + x + 2y + 4z; quads wound outward
    quads = {"floor": (1, 3, 4, 2), "ceiling": (5, 6, 8, 7),
             "wall_y0": (1, 2, 6, 5), "wall_y1": (3, 7, 8, 4),
             "wall_x0": (1, 5, 7, 3), "wall_x1": (2, 4, 8, 6)}
    return v, quads

def write_obj(path, lx, ly, lz, drop_last=False, inward=False, header=""):
    v, quads = box(lx, ly, lz)
    lines = [header] if header else []
    lines += ["v %g %g %g" % p for p in v]
    for name, (a, b, c, d) in quads.items():
        tris = [(a, b, c), (a, c, d)]
        if inward:
            tris = [(x, z, y) for x, y, z in tris]
        if drop_last and name == "ceiling":
            tris = tris[:1]
        lines.append("o " + name)
        lines += ["f %d %d %d" % t for t in tris]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")

write_obj("box.obj", 4, 3, 2.5, header="# 4 x 3 x 2.5 m box, outward normals")
write_obj("box-open.obj", 4, 3, 2.5, drop_last=True, header="# box with one ceiling triangle missing")
write_obj("box-inward.obj", 4, 3, 2.5, inward=True, header="# box with inward normals")
write_obj("room-mm.obj", 6000, 4000, 3000, header="# 6 x 4 x 3 m room drawn in millimetres")
write_obj("room-cm.obj", 600, 400, 300, header="# 6 x 4 x 3 m room drawn in centimetres")

# Two closed boxes drawn into each other, 30 m³ each, 1.6 × 2 × 2.5 = 8 m³
# in common: one room of 52 m³ (the divergence theorem says 60).
with open("two-boxes.obj", "w") as f:
    f.write("# two overlapping closed 4 x 3 x 2.5 m boxes, the second moved by (2.4, 1, 0)\n")
    v, quads = box(4, 3, 2.5)
    for dx, dy in ((0, 0), (2.4, 1)):
        f.write("".join("v %g %g %g\n" % (x + dx, y + dy, z) for x, y, z in v))
    for k, prefix in enumerate(("a", "b")):
        for name, (a, b, c, d) in quads.items():
            a, b, c, d = (i + 8 * k for i in (a, b, c, d))
            f.write("o %s_%s\nf %d %d %d\nf %d %d %d\n" % (prefix, name, a, b, c, a, c, d))

text = open("box.obj").read().rstrip("\n")
with open("truncated.obj", "w") as f:      # cut in the middle of the last face line
    f.write(text[: text.rfind(" ")])
with open("nan.obj", "w") as f:
    f.write(text.replace("v 4 3 2.5", "v nan 3 2.5") + "\n")
with open("inf.obj", "w") as f:
    f.write(text.replace("v 4 3 2.5", "v 1e999 3 2.5") + "\n")
with open("lines.obj", "w") as f:
    f.write("v 0 0 0\nv 1 0 0\nv 1 1 0\nl 1 2\nl 2 3\nl 3 1\n")
with open("points.ply", "w") as f:
    f.write("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
            "property float z\nend_header\n0 0 0\n1 0 0\n0 1 0\n")
open("empty.obj", "w").close()
rng = random.Random(1234)
for name in ("garbage.obj", "garbage.bin", "garbage.stl", "garbage.glb"):
    with open(name, "wb") as f:
        f.write(bytes(rng.randrange(256) for _ in range(2048)))
# Binary STL whose header promises 12 triangles but holds 5.
with open("truncated.stl", "wb") as f:
    f.write(b"roomwave truncated".ljust(80, b" "))
    f.write(struct.pack("<I", 12))
    for i in range(5):
        f.write(struct.pack("<12fH", 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0))

# A box as Blender exports it: objects named after the part, materials
# after what they are made of (with Blender's ".001" copy suffix).
v, quads = box(6, 4, 3)
mats = {"floor": "Carpet", "ceiling": "Acoustic_Tile", "wall_y0": "Glass.001",
        "wall_y1": "Material.002", "wall_x0": "Plaster", "wall_x1": "Plaster"}
with open("box-materials.obj", "w") as f:
    f.write("# 6 x 4 x 3 m box: objects named by part, materials by what they are made of\n")
    f.write("".join("v %g %g %g\n" % p for p in v))
    for name, (a, b, c, d) in quads.items():
        f.write("o %s\nusemtl %s\nf %d %d %d\nf %d %d %d\n" % (name, mats[name], a, b, c, a, c, d))
