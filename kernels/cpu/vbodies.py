"""The vector maths of :mod:`.vmath` as plain Python, written against an *emitter*.

Each function ``_name(m, x)`` computes one maths function from float64 operations,
selects (``m.sel``), ``m.rint``, ``m.fabs``, ``m.clamp``, integer casts and bit casts, and
nothing else.  Two emitters run the same text: :mod:`.vmath`'s writes LLVM IR (the
Numba kernels and ``fg.jit``), :mod:`._twins`' computes with NumPy arrays (the kernels'
NumPy twins, used while Numba loads).  One text for both is what makes the two give the
same bits: every operation is one IEEE operation in the same order, and no Numba kernel
contracts ``a * b + c`` into an FMA (fastmath is off).

This module imports only NumPy.
"""
import numpy as np

# --- exp (fdlibm e_exp.c) -------------------------------------------------------------------

_LN2HI = 6.93147180369123816490e-01
_LN2LO = 1.90821492927058770002e-10
_INVLN2 = 1.44269504088896338700e+00
_P1 = 1.66666666666666019037e-01
_P2 = -2.77777777770155933842e-03
_P3 = 6.61375632143793436117e-05
_P4 = -1.65339022054652515390e-06
_P5 = 4.13813679705723846039e-08
_EXP_OVER = 7.09782712893383973096e+02
_EXP_UNDER = -7.45133219101941108420e+02


def _exp(m, x):
    """``e**x`` (float64): x = k ln2 + r, |r| <= ln2/2; a rational approximation of e**r."""
    xc = m.clamp(x, -746.0, 710.0)  # keeps k in range; the ends are fixed below
    k = m.rint(xc * _INVLN2)
    hi = xc - k * _LN2HI
    lo = k * _LN2LO
    r = hi - lo
    t = r * r
    c = r - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi)
    ki = m.to_int(k)
    k1 = ki >> 1  # 2**k as two factors: subnormal results and k = 1024 stay exact
    s1 = m.from_bits((k1 + 1023) << 52)
    s2 = m.from_bits((ki - k1 + 1023) << 52)
    res = (y * s1) * s2
    res = m.sel(x > _EXP_OVER, np.inf, res)
    res = m.sel(x < _EXP_UNDER, 0.0, res)
    return m.sel(x != x, x + x, res)




# --- log (fdlibm e_log.c) ----------------------------------------------------------------------

_TWO54 = 1.80143985094819840000e+16
_LG1 = 6.666666666666735130e-01
_LG2 = 3.999999999940941908e-01
_LG3 = 2.857142874366239149e-01
_LG4 = 2.222219843214978396e-01
_LG5 = 1.818357216161805012e-01
_LG6 = 1.531383769920937332e-01
_LG7 = 1.479819860511658591e-01


def _log(m, x):
    """Natural logarithm (float64): x = 2**k (1 + f), sqrt(2)/2 < 1 + f < sqrt(2)."""
    tiny = x < 2.2250738585072014e-308  # subnormal (or zero, negative): scale up first
    xs = m.sel(tiny, x * _TWO54, x)
    bits = m.bits(xs)
    hx = bits >> 32
    k = (hx >> 20) - 1023 - m.sel(tiny, 54, 0)
    hx = hx & 0x000fffff
    i = (hx + 0x95f64) & 0x100000
    k = k + (i >> 20)
    f = m.from_bits(((hx | (i ^ 0x3ff00000)) << 32) | (bits & 0xffffffff)) - 1.0
    s = f / (2.0 + f)
    dk = m.to_float(k)
    z = s * s
    w = z * z
    t1 = w * (_LG2 + w * (_LG4 + w * _LG6))
    t2 = z * (_LG1 + w * (_LG3 + w * (_LG5 + w * _LG7)))
    r = t2 + t1
    hfsq = 0.5 * f * f
    a = dk * _LN2HI - ((hfsq - (s * (hfsq + r) + dk * _LN2LO)) - f)
    b = dk * _LN2HI - ((s * (f - r) - dk * _LN2LO) - f)
    res = m.sel(((hx - 0x6147a) | (0x6b851 - hx)) > 0, a, b)
    res = m.sel(x == 0.0, -np.inf, res)
    res = m.sel(x < 0.0, np.nan, res)
    return m.sel((x != x) | (x == np.inf), x + x, res)




def _log1p(m, x):
    """``log(1 + x)``: log of u = 1 + x, corrected by x / (u - 1) for the rounding of u."""
    u = 1.0 + x
    d = u - 1.0
    res = _log(m, u) * (x / m.sel(d != 0.0, d, 1.0))
    res = m.sel(d == 0.0, x, res)
    return m.sel(x == np.inf, x, res)




# --- sin and cos (fdlibm k_sin.c, k_cos.c and the medium branch of e_rem_pio2.c) -------------

_INVPIO2 = 6.36619772367581382433e-01
_PIO2_1 = 1.57079632673412561417e+00
_PIO2_2 = 6.07710050630396597660e-11
_PIO2_3 = 2.02226624871116645580e-21
_PIO2_3T = 8.47842766036889956997e-32
_S1 = -1.66666666666666324348e-01
_S2 = 8.33333333332248946124e-03
_S3 = -1.98412698298579493134e-04
_S4 = 2.75573137070700676789e-06
_S5 = -2.50507602534068634195e-08
_S6 = 1.58969099521155010221e-10
_C1 = 4.16666666666666019037e-02
_C2 = -1.38888888888741095749e-03
_C3 = 2.48015872894767294178e-05
_C4 = -2.75573143513906633035e-07
_C5 = 2.08757232129817482790e-09
_C6 = -1.13596475577881948265e-11
TRIG_BOUND = 823549.6  # ~ 2**19 * pi / 2: fdlibm's medium-size reduction is exact below


def _kernel_sin(x, y):
    z = x * x
    w = z * z
    r = _S2 + z * (_S3 + z * _S4) + z * w * (_S5 + z * _S6)
    v = z * x
    return x - ((z * (0.5 * y - v * r) - y) - v * _S1)


def _kernel_cos(x, y):
    z = x * x
    w = z * z
    r = z * (_C1 + z * (_C2 + z * _C3)) + w * w * (_C4 + z * (_C5 + z * _C6))
    hz = 0.5 * z
    w = 1.0 - hz
    return w + (((1.0 - w) - hz) + (z * r - x * y))


def _two_sum(a, b):
    """``(s, e)`` with ``s + e == a + b`` exactly (Knuth's; any magnitudes)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _reduce(m, x):
    """``(n mod 4, y0, y1)`` with x = n pi/2 + (y0 + y1), |y0 + y1| <= pi/4, y1 below an ulp
    of y0.  pi/2 is fdlibm's four pieces, the first three of 33 bits, so each ``n * piece`` is
    exact (|n| < 2**20) and the first difference too (Sterbenz); the rounding errors of the
    next two are kept (two-sums), so y0 + y1 is x - n pi/2 to about 2**-100 relative.  (fdlibm
    skips rounds that cannot matter for its own kernels and drops the second round's error
    when it runs the third; done unconditionally that cost half an ulp.)"""
    xc = m.clamp(x, -TRIG_BOUND, TRIG_BOUND)  # out-of-range lanes are recomputed anyway
    fn = m.rint(xc * _INVPIO2)
    r, e1 = _two_sum(xc - fn * _PIO2_1, -(fn * _PIO2_2))
    r, e2 = _two_sum(r, -(fn * _PIO2_3))
    c = (e1 + e2) - fn * _PIO2_3T  # below an ulp of r: a fast two-sum is exact
    y0 = r + c
    return m.to_int(fn) & 3, y0, c - (y0 - r)


def _sin(m, x):
    """``sin(x)`` for ``|x| <= TRIG_BOUND`` (see :func:`trig_bad`)."""
    n, y0, y1 = _reduce(m, x)
    v = m.sel((n & 1) == 0, _kernel_sin(y0, y1), _kernel_cos(y0, y1))
    v = m.sel((n & 2) != 0, -v, v)
    return m.sel(x == 0.0, x, v)  # sin(-0.0) == -0.0


def _cos(m, x):
    """``cos(x)`` for ``|x| <= TRIG_BOUND`` (see :func:`trig_bad`)."""
    n, y0, y1 = _reduce(m, x)
    v = m.sel((n & 1) == 0, _kernel_cos(y0, y1), _kernel_sin(y0, y1))
    return m.sel(((n + 1) & 2) != 0, -v, v)


def _trig_bad(m, x):
    """1 where :func:`sin`/:func:`cos` do not apply (huge or non-finite argument), else 0."""
    return m.sel(m.fabs(x) <= TRIG_BOUND, m.i(0), m.i(1))








# --- tanh (Cephes tanh.c) -------------------------------------------------------------------------

_TP0 = -9.64399179425052238628e-1
_TP1 = -9.92877231001918586564e1
_TP2 = -1.61468768441708447952e3
_TQ0 = 1.12811678491632931402e2
_TQ1 = 2.23548839060100448583e3
_TQ2 = 4.84406305325125486048e3


def _tanh(m, x):
    """``tanh(x)``: a rational approximation below 0.625, ``1 - 2 / (e**2|x| + 1)`` above."""
    z = m.fabs(x)
    big = 1.0 - 2.0 / (_exp(m, 2.0 * m.sel(z > 40.0, 40.0, z)) + 1.0)
    big = m.sel(x < 0.0, -big, big)
    s = x * x
    small = x + x * s * (((_TP0 * s + _TP1) * s + _TP2) / (((s + _TQ0) * s + _TQ1) * s + _TQ2))
    res = m.sel(z > 0.625, big, small)
    return m.sel(x == 0.0, x, res)  # tanh(-0.0) == -0.0
