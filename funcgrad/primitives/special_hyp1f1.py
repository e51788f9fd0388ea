"""The values of the ``hyp1f1`` primitive: SciPy's, repaired where SciPy's are wrong.

SciPy 1.17's real ``hyp1f1(a, b, x)`` is wrong in two places, found by a sweep against
mpmath (``benchmarks/results/session26-hyp1f1.md``); elsewhere its values are kept
bit for bit:

* ``a > b > 0``, ``-1 <= x < 0``, ``(a + 1)|x| >= 0.9 b`` (past SciPy's own power-series
  branch) and ``(a - b)|x| >= 10``: SciPy sums the series of Kummer's transform
  ``exp(x) M(b - a, b, -x)``, whose terms reach ``exp(2 sqrt(a |x|))`` times the sum:
  ``hyp1f1(148.77, 0.294, -0.716)`` is 7.06e8 in SciPy, -0.99682 in truth; at
  ``a = 1e4`` the error is 80 orders of magnitude.  (At ``x < -1`` SciPy takes another
  route and is right; below ``(a - b)|x| = 10`` its error stays under 1e-12.)  Here the
  value is the downward recurrence in ``b`` of :mod:`funcgrad.kernels.cpu.hyp1f1`
  (relative error within a few 1e-12 up to ``(a + 1)|x| = 1e6``, ~1e-10 at ``1e7``),
  and NaN where that would take more than ``MAX_STEPS`` steps (SciPy's value there is
  meaningless too).
* ``a`` a negative integer and ``x == b > 0`` exactly: SciPy's finite sum returns NaN or
  a value off by up to 0.3% (``hyp1f1(-300, 1, 1)``: -0.174146, truth -0.173544); a hair
  away from ``x == b`` it is right.  Here the value is the recurrence in ``a``.

Complex ``x`` (SciPy's complex loop) is SciPy's, untouched.  float32 arguments are
computed in float64 and rounded, as SciPy's float32 loop does.
"""
import numpy as np

__all__ = ["repaired", "MAX_STEPS"]

# (a recurrence of this many steps takes ~0.1 s for one element)
MAX_STEPS = 4.0e6


def _regions(a, b, x):
    """Masks of the elements SciPy gets wrong: (by the recurrence in ``b``, by the one in
    ``a``, too far for either)."""
    with np.errstate(invalid="ignore", over="ignore"):
        ok = np.isfinite(a) & np.isfinite(b) & np.isfinite(x) & (b > 0.0)
        depth = -x
        kummer = (ok & (a > b) & (x < 0.0) & (x >= -1.0) & ((a - b) * depth >= 10.0)
                  & ((a + 1.0) * depth >= 0.9 * b))
        on_b = ok & (a <= 0.0) & (a == np.floor(a)) & (x == b)
        far = (kummer & ((a + 1.0) * depth * 1.25 > MAX_STEPS)) | (on_b & (-a > MAX_STEPS))
    return kummer & ~far, on_b & ~far, far


def repaired(scipy_hyp1f1):
    """``scipy_hyp1f1`` (SciPy's ufunc ``(a, b, x, **ufunc_keywords)``) with its values
    replaced where they are wrong (the module docstring): the ``hyp1f1`` primitive's CPU
    computation.  SciPy skips those elements (``where=``): its series there can take
    seconds."""
    def hyp1f1(a, b, x):
        if any(np.iscomplexobj(v) for v in (a, b, x)):
            return scipy_hyp1f1(a, b, x)  # (SciPy's complex loop)
        a64, b64, x64 = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64)
                                             for v in (a, b, x)))
        by_b, by_a, far = _regions(a64, b64, x64)
        mine = by_b | by_a | far
        if not mine.any():
            return scipy_hyp1f1(a, b, x)
        # (SciPy's own loop picks the dtype, float32 or float64; the skipped elements are
        # filled below)
        values = scipy_hyp1f1(a, b, x, where=~mine, out=None)
        from ..kernels.cpu import hyp1f1 as kernel  # (imports Numba: on first use)
        out = np.array(values, copy=True)
        if by_b.any():
            out[by_b] = kernel.by_b_recurrence(a64[by_b], b64[by_b], x64[by_b])
        if by_a.any():
            out[by_a] = kernel.by_a_recurrence(-a64[by_a], b64[by_a], x64[by_a])
        out[far] = np.nan
        return out if isinstance(values, np.ndarray) and out.ndim else out[()]
    hyp1f1.__name__ = hyp1f1.__qualname__ = "hyp1f1"
    return hyp1f1
