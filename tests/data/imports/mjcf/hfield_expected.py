"""Writes the height-field fixtures of tests/mjcf_hfield.rs and prints what MuJoCo makes
of them, as the Rust literals that test holds.

    python3 -m venv /tmp/venv-mj && /tmp/venv-mj/bin/pip install mujoco numpy pillow
    /tmp/venv-mj/bin/python tests/data/imports/mjcf/hfield_expected.py

Fixtures (beside this script): hfield/gray.png (8-bit gray, 7 x 5), hfield/rgb.png (RGB,
7 x 5, red unlike the luminance), hfield/gray16.png (16-bit gray, 4 x 3, the low bytes
varying), hfield/palette.png (indexed, 4 x 3), hfield/terrain.bin (MuJoCo's binary
format, 6 x 5 float32) and hfield_files.xml, which reads them through
<compiler assetdir="hfield"/> and drops a ball just above each field's highest point.

Printed: each field's compiled `m.hfield_data` (MuJoCo's order: its first row at -y) as
f32 literals, and `mj_geomDistance` from each field to its ball.
"""

import os
import struct

import mujoco
import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ASSETS = os.path.join(HERE, "hfield")

# Image rows top first (the +y side in MuJoCo); the highest point's mirror is low.
GRAY = [
    [40, 250, 90, 60, 30, 20, 15],
    [35, 120, 80, 70, 50, 25, 12],
    [30, 60, 100, 110, 90, 40, 11],
    [25, 50, 70, 130, 140, 60, 13],
    [20, 10, 45, 80, 100, 150, 14],
]
RED = [
    [12, 30, 50, 70, 90, 110, 130],
    [20, 40, 60, 80, 100, 240, 120],
    [28, 48, 68, 88, 108, 128, 148],
    [36, 56, 76, 96, 116, 6, 156],
    [44, 64, 84, 104, 124, 144, 164],
]
GRAY16 = [
    [0x0A10, 0x0AFF, 0x3000, 0x80FE],
    [0x1001, 0xF0F0, 0x2020, 0x0A00],
    [0x0B00, 0x0C7F, 0x0D80, 0x0EFF],
]
PALETTE = [(200, 0, 0), (10, 255, 255), (90, 90, 0), (30, 200, 100)]
INDICES = [[0, 1, 2, 3], [1, 1, 3, 2], [3, 2, 1, 1]]
# File rows first to last: the first at -y, as MuJoCo stores a binary file.
TERRAIN = [
    [-1.25, -0.5, 0.0, 0.3, 0.1, -0.7],
    [-0.9, 0.2, 0.45, 0.6, 0.15, -0.2],
    [-0.3, 0.5, 0.8, 1.1, 0.4, 0.05],
    [0.1, 0.7, 1.3, 0.9, 0.35, 0.2],
    [2.75, 1.0, 0.6, 0.25, -0.1, 0.33],
]

# name: (file, extra attributes, size, geom position, whether its rows run top (+y) first)
FIELDS = {
    "gray": ("gray.png", ' nrow="5" ncol="7"', (0.6, 0.4, 0.3, 0.1), (0, 0, 0), True),
    "rgb": ("rgb.png", "", (0.6, 0.4, 0.25, 0.05), (2, 0, 0), True),
    "gray16": ("gray16.png", "", (0.3, 0.2, 0.2, 0.1), (0, 2, 0), True),
    "palette": ("palette.png", "", (0.3, 0.2, 0.2, 0.1), (2, 2, 0), True),
    "terrain": ("terrain.bin", "", (0.5, 0.4, 0.2, 0.1), (4, 0, 0), False),
}
# Each field's highest point: (row, column) in the file's own row order.
HIGHEST = {
    "gray": (0, 1),
    "rgb": (1, 5),
    "gray16": (1, 1),
    "palette": (0, 0),
    "terrain": (4, 0),
}
SHAPE = {"gray": (5, 7), "rgb": (5, 7), "gray16": (3, 4), "palette": (3, 4), "terrain": (5, 6)}
# Each ball is this far off its highest point along x and y (its gap above it is GAP).
NUDGE = {
    "gray": (0.03, -0.03),
    "rgb": (-0.02, 0.04),
    "gray16": (0.05, 0.01),
    "palette": (0.01, -0.06),
    "terrain": (0.04, -0.02),
}
RADIUS, GAP = 0.05, 0.12


def write_images():
    os.makedirs(ASSETS, exist_ok=True)
    Image.fromarray(np.array(GRAY, dtype=np.uint8), "L").save(os.path.join(ASSETS, "gray.png"))
    red = np.array(RED, dtype=np.int64)
    rgb = np.stack([red, 255 - red, (red * 7) % 256], axis=-1).astype(np.uint8)
    Image.fromarray(rgb, "RGB").save(os.path.join(ASSETS, "rgb.png"))
    Image.fromarray(np.array(GRAY16, dtype=np.uint16)).save(os.path.join(ASSETS, "gray16.png"))
    indexed = Image.fromarray(np.array(INDICES, dtype=np.uint8), "P")
    indexed.putpalette([c for color in PALETTE for c in color])
    indexed.save(os.path.join(ASSETS, "palette.png"))
    with open(os.path.join(ASSETS, "terrain.bin"), "wb") as f:
        f.write(struct.pack("<ii", len(TERRAIN), len(TERRAIN[0])))
        f.write(np.array(TERRAIN, dtype="<f4").tobytes())


def ball_position(name):
    """Just above the field's highest point, nudged off the grid point."""
    _, _, (rx, ry, ez, _), (px, py, pz), top_first = FIELDS[name]
    nrow, ncol = SHAPE[name]
    row, col = HIGHEST[name]
    x = -rx + 2 * rx * col / (ncol - 1)
    y = ry - 2 * ry * row / (nrow - 1) if top_first else -ry + 2 * ry * row / (nrow - 1)
    dx, dy = NUDGE[name]
    return (px + x + dx, py + y + dy, pz + ez + GAP + RADIUS)


def write_model():
    assets, geoms = [], []
    for name, (file, extra, size, pos, _) in FIELDS.items():
        named = "" if name == "terrain" else f' name="{name}"'  # named by its file's stem
        sizes = " ".join(map(str, size))
        assets.append(f'    <hfield{named} file="{file}"{extra} size="{sizes}"/>')
        geoms.append(
            f'    <geom name="{name}_field" type="hfield" hfield="{name}" '
            f'pos="{" ".join(map(str, pos))}"/>'
        )
        x, y, z = ball_position(name)
        geoms.append(
            f'    <body name="{name}_drop" pos="{x:.6g} {y:.6g} {z:.6g}"><freejoint/>'
            f'<geom name="{name}_ball" type="sphere" size="{RADIUS}"/></body>'
        )
    text = (
        '<mujoco model="hfield files">\n'
        "  <!-- Written by hfield_expected.py. -->\n"
        '  <compiler assetdir="hfield"/>\n  <asset>\n'
        + "\n".join(assets)
        + "\n  </asset>\n  <worldbody>\n"
        + "\n".join(geoms)
        + "\n  </worldbody>\n</mujoco>\n"
    )
    with open(os.path.join(HERE, "hfield_files.xml"), "w") as f:
        f.write(text)


def literal(x):
    """The shortest decimal that reads back as this f32."""
    s = str(np.float32(x))
    return s if ("." in s or "e" in s) else s + ".0"


def main():
    write_images()
    write_model()
    m = mujoco.MjModel.from_xml_path(os.path.join(HERE, "hfield_files.xml"))
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    print(f"// mujoco {mujoco.__version__}: m.hfield_data, rows as MuJoCo stores them (first at -y)")
    for name in FIELDS:
        h = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_HFIELD, name)
        nrow, ncol, start = m.hfield_nrow[h], m.hfield_ncol[h], m.hfield_adr[h]
        data = m.hfield_data[start : start + nrow * ncol].reshape(nrow, ncol)
        rows = ",\n".join("    [" + ", ".join(literal(x) for x in row) + "]" for row in data)
        print("#[rustfmt::skip]")
        print(f"const {name.upper()}: [[f32; {ncol}]; {nrow}] = [\n{rows},\n];")
    print(f"// mujoco {mujoco.__version__}: mj_geomDistance(field, its ball), distmax 10")
    print("const DISTANCES: [(&str, f64); %d] = [" % len(FIELDS))
    for name in FIELDS:
        g1 = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, f"{name}_field")
        g2 = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, f"{name}_ball")
        fromto = np.zeros(6)
        dist = mujoco.mj_geomDistance(m, d, g1, g2, 10.0, fromto)
        print(f'    ("{name}", {dist!r}),')
    print("];")


if __name__ == "__main__":
    main()
