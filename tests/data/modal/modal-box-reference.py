# SPDX-License-Identifier: GPL-3.0-or-later
"""The modal sum of tests/rw-modal-box.h written independently (NumPy), the
figures check_modal_sum (test sim-decay-bands) compares against.

6 x 4 x 3 m box, every wall the real admittance beta whose Paris
random-incidence absorption is alpha (Kuttruff's closed form inverted),
first-order modal decay delta_N = c beta sum_i 1/(L_i a_i), energy weight
(psi_N(s) psi_N(r) / Lambda_N)^2, modes strictly inside the octave band
(brick-wall), Schroeder integral over 2.5 s, a least-squares line over
-5 ... -35 dB, mean over three receivers.

    python3 tests/data/modal/modal-box-reference.py
    0.05 125 modes 53 modal T30 2.875 Eyring 2.094  +37.3%
    0.1 250 modes 359 modal T30 1.153 Eyring 1.019  +13.1%
    0.3 500 modes 2585 modal T30 0.299 Eyring 0.301  -0.6%
"""
import numpy as np
from scipy.optimize import brentq

c = 343.0
L = np.array([6.0, 4.0, 3.0])
V = 72.0
S = 108.0
src = np.array([1.37, 1.21, 0.93])
rcvs = np.array([[4.31, 2.63, 1.74], [3.42, 0.77, 2.19], [5.03, 3.11, 1.05]])


def alpha_st(z):
    """Paris' random-incidence absorption of a real specific impedance z."""
    return 8 / z * (1 + 1 / (1 + z) - 2 / z * np.log(1 + z))


def t30(alpha, fc, rng=(-5, -35)):
    z = brentq(lambda z: alpha_st(z) - alpha, 1.0001, 1e6)   # the branch z >= 1.567
    beta = 1 / z
    nmax = (2 * fc * 1.42 / c * L).astype(int) + 2
    n = np.stack(np.meshgrid(*[np.arange(k) for k in nmax], indexing="ij"), -1).reshape(-1, 3)
    k = np.pi * n / L
    f = c * np.linalg.norm(k, axis=1) / (2 * np.pi)
    sel = (f > fc / np.sqrt(2)) & (f < fc * np.sqrt(2))
    n, k, f = n[sel], k[sel], f[sel]
    a = np.where(n > 0, 0.5, 1.0)
    delta = c * beta * np.sum(1 / (L * a), axis=1)   # amplitude decay rate
    lam = np.prod(L * a, axis=1)
    ts = np.arange(0, 2.5, 1 / 2000.0)
    res = []
    for r in rcvs:
        psi = np.prod(np.cos(k * src), 1) * np.prod(np.cos(k * r), 1)
        w = (psi / lam) ** 2
        e = (w[None, :] * np.exp(-2 * delta[None, :] * ts[:, None])).sum(1)
        edc = np.cumsum(e[::-1])[::-1]
        edc = 10 * np.log10(edc / edc[0])
        m = (edc <= rng[0]) & (edc >= rng[1])
        p = np.polyfit(ts[m], edc[m], 1)
        res.append(-60 / p[0])
    eyring = 24 * np.log(10) / c * V / (-S * np.log(1 - alpha))
    return np.mean(res), eyring, len(f)


if __name__ == "__main__":
    for alpha, fc in [(0.05, 125), (0.1, 250), (0.3, 500)]:
        t, ey, nm = t30(alpha, fc)
        print(alpha, fc, "modes", nm, "modal T30 %.3f Eyring %.3f  %+.1f%%" % (t, ey, 100 * (t / ey - 1)))
