#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""fcc-wall-eigen: the FCC scheme's rigid walls with and without their
wall links (engine/rw-scheme-fcc.h, "Wall links"), from the eigenvalues of
the scheme's graph Laplacian L (weights in units of λ²/4; the interior
stencil's L has its supremum 16, the stability limit at λ = 1):

- the largest eigenvalue μ_max on a box, a sphere, a rotated box, an
  L-room, a sloped ceiling and a room with a one-cell thin wall (stable
  while μ_max ≤ 16);
- the lowest modes of a rigid box (30 × 24 × 20 cells) against the
  analytic ones, and of a rigid sphere (26 and 40 cells across) against
  the zeros of j_l', the sphere's radius from the FV volume (2h³ a site).

A mode's frequency follows from an eigenvalue μ by cos ωk = 1 − μ/8.
Not part of the test suite (it needs numpy and scipy, which CI has not):
run it by hand, `python3 tests/fcc-wall-eigen.py`; docs/SOLVER.md §9
quotes its output."""
from collections import defaultdict

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sla
from scipy.optimize import brentq
from scipy.special import spherical_jn

OFF = [(0, -1, -1), (0, 1, -1), (-1, 0, -1), (1, 0, -1), (-1, -1, 0), (1, -1, 0),
       (-1, 1, 0), (1, 1, 0), (0, -1, 1), (0, 1, 1), (-1, 0, 1), (1, 0, 1)]
W = 0.5


def laplacian(n, inside, links):
    """L of the sites (x + y + z even) where inside(x, y, z), rigid FV
    walls; with links, each outside site o's inside neighbours B(o) form a
    clique of weight W/|B(o)|."""
    sites = [(x, y, z) for z in range(n[2]) for y in range(n[1]) for x in range(n[0])
             if (x + y + z) % 2 == 0 and inside(x, y, z)]
    idx = {s: i for i, s in enumerate(sites)}
    rows, cols, vals = [], [], []

    def link(i, j, w):
        rows.extend((i, j, i, j))
        cols.extend((j, i, i, j))
        vals.extend((-w, -w, w, w))

    members = defaultdict(list)
    for s, i in idx.items():
        for d in OFF:
            t = (s[0] + d[0], s[1] + d[1], s[2] + d[2])
            if t in idx:
                if idx[t] > i:
                    link(i, idx[t], 1.0)
            else:
                members[t].append(i)
    if links:
        for lst in members.values():
            for a in range(len(lst)):
                for b in range(a + 1, len(lst)):
                    link(lst[a], lst[b], W / len(lst))
    return sp.csr_matrix((vals, (rows, cols)), shape=(len(sites), len(sites))), len(sites)


def lowest(L, k):
    return np.sort(sla.eigsh(L, k=k, sigma=-1e-6, which="LM", return_eigenvectors=False))


def shapes(n):
    c = [(v - 1) / 2 for v in n]
    ca, sa = np.cos(0.4), np.sin(0.4)
    return [
        ("box", lambda x, y, z: True),
        ("sphere", lambda x, y, z: sum((p - q) ** 2 for p, q in zip((x, y, z), c))
         <= (min(c) - 0.3) ** 2),
        ("rotated box", lambda x, y, z: abs(ca * (x - c[0]) + sa * (y - c[1])) < 0.38 * n[0]
         and abs(-sa * (x - c[0]) + ca * (y - c[1])) < 0.3 * n[1] and abs(z - c[2]) < 0.45 * n[2]),
        ("L-room", lambda x, y, z: not (x > n[0] / 2 and y > n[1] / 2)),
        ("slope", lambda x, y, z: z < 0.5 * n[2] + 0.21 * (x - n[0] / 2)),
        ("thin wall", lambda x, y, z: not (x == n[0] // 2 and y < 0.7 * n[1])),
    ]


def main():
    n = (24, 22, 20)
    print("largest eigenvalue of L (stable while ≤ 16):")
    for name, f in shapes(n):
        mu = [sla.eigsh(laplacian(n, f, links)[0], k=1, which="LA", tol=1e-10,
                        return_eigenvectors=False)[0] for links in (False, True)]
        print("  %-12s FV %.6f, with wall links %.6f" % (name, mu[0], mu[1]))

    n, h, c = (30, 24, 20), 0.1, 343.0
    L = [v * h for v in n]
    exact = sorted({c / 2 * np.sqrt((a / L[0]) ** 2 + (b / L[1]) ** 2 + (e / L[2]) ** 2)
                    for a in range(4) for b in range(4) for e in range(4)})[1:9]
    print("rigid box %d × %d × %d cells, h = %g m, lowest modes (error):" % (n + (h,)))
    for links in (False, True):
        mu = lowest(laplacian(n, lambda x, y, z: True, links)[0], 10)
        f = np.arccos(np.clip(1 - mu / 8, -1, 1)) * c / (2 * np.pi * h)
        print("  %-16s" % ("with wall links" if links else "FV") + " ".join(
            "%+.2f %%" % (100 * (fm / fe - 1)) for fe, fm in zip(exact, f[1:])))

    def djl_zero(l, k):
        g = lambda x: spherical_jn(l, x, derivative=True)
        xs, a = [], 0.5
        while len(xs) < k:
            if g(a) * g(a + 0.05) < 0:
                xs.append(brentq(g, a, a + 0.05))
            a += 0.05
        return xs[-1]

    print("rigid sphere, kR of the l = 1 and l = 2 modes (exact %.4f, %.4f):"
          % (djl_zero(1, 1), djl_zero(2, 1)))
    for m in (26, 40):
        for links in (False, True):
            Lm, ns = laplacian((m, m, m), shapes((m, m, m))[1][1], links)
            mu = lowest(Lm, 10)
            kr = np.unique(np.round(np.arccos(1 - mu[1:] / 8) * (3 * ns * 2 / (4 * np.pi)) ** (1 / 3), 3))
            print("  %2d cells across, %-16s %s" % (m, "with wall links:" if links else "FV:",
                                                 " ".join("%.3f" % v for v in kr[:3])))


if __name__ == "__main__":
    main()
