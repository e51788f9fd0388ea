"""The float32 tanh of fg.jit's float32 loops (``funcgrad.kernels.cpu.vmath.tanhf``,
computed in float32 arithmetic): within 1 ulp of the correctly rounded tanh (float64
``np.tanh`` rounded to float32 is the reference), exact at the special values.

``make test`` checks the edges and a random sample of every binade; the soak test checks
all 2**32 float32 arguments (``python tests/test_vector_maths32.py`` runs it with progress).
"""
import math
import sys

import numba
import numpy as np
import pytest

from funcgrad.kernels.cpu import vmath


@numba.njit(error_model="numpy", cache=True)
def _tanhf_loop(x, out):
    for i in range(x.size):
        out[i] = vmath.tanhf(x[i])


def tanhf(x):
    x = np.ascontiguousarray(x, np.float32)
    out = np.empty_like(x)
    _tanhf_loop(x.ravel(), out.ravel())
    return out


def _ordered(v):
    """float32 values as integers in the order of the values (-0.0 and 0.0 one apart)."""
    b = v.view(np.int32).astype(np.int64)
    return np.where(b < 0, -(b & 0x7FFFFFFF) - 1, b)


def ulps_from_correct(x):
    """Per element of ``x`` (float32, no NaN), how many float32 steps tanhf(x) lies from
    tanh(x) correctly rounded; -0.0 and 0.0 count as one step apart."""
    with np.errstate(all="ignore"):
        want = np.tanh(x.astype(np.float64)).astype(np.float32)
    return np.abs(_ordered(tanhf(x)) - _ordered(want))


def _edges():
    f = np.float32
    tiny = np.finfo(f).tiny
    specials = [0.0, tiny, tiny / 2, 1.4e-45, 2.0 ** -12, 2.0 ** -11, 1e-4, 0.1, 0.5,
                np.nextafter(f(0.55), f(0)), 0.55, np.nextafter(f(0.55), f(1)), 0.625, 1.0,
                2.0, 5.0, 8.0, 9.0, 9.01, 9.1, 10.0, np.nextafter(f(10), f(0)), 10.5, 20.0,
                88.7, 1e10, np.finfo(f).max]
    x = np.array(specials, np.float32)
    return np.concatenate([x, -x])


def _binade_samples(per_binade, seed):
    """``per_binade`` random float32 of each sign in each binade (and the subnormals)."""
    rng = np.random.default_rng(seed)
    exponents = np.repeat(np.arange(255, dtype=np.int64), per_binade)
    bits = (exponents << 23) | rng.integers(0, 1 << 23, exponents.size)
    bits = np.concatenate([bits, bits | (1 << 31)]).astype(np.uint32)
    x = bits.view(np.float32)
    return x[np.isfinite(x)]


def test_tanhf_special_values():
    inf, nan = np.float32(np.inf), np.float32(np.nan)
    x = np.array([0.0, -0.0, inf, -inf, nan, -nan, 1e-45, -1e-45, 3e38, -3e38], np.float32)
    got = tanhf(x)
    assert got[:2].tobytes() == np.array([0.0, -0.0], np.float32).tobytes()  # signed zeros
    assert list(got[2:4]) == [1.0, -1.0] and np.isnan(got[4:6]).all()
    assert list(got[6:8]) == [np.float32(1e-45), np.float32(-1e-45)]  # subnormals: x itself
    assert list(got[8:]) == [1.0, -1.0]
    assert got.dtype == np.float32


def test_tanhf_within_one_ulp_at_the_edges_and_in_every_binade():
    x = np.concatenate([_edges(), _binade_samples(200, seed=0)])
    d = ulps_from_correct(x)
    assert d.max() <= 1, (x[d.argmax()], d.max())
    assert np.array_equal(tanhf(-x), -tanhf(x))  # odd, bit for bit


def test_tanhf_within_one_ulp_on_dense_ranges():
    """Where the two formulas meet (0.55), where the result leaves 1.0 (near 9), and the
    arguments of W3's hidden layer (about N(0, 1)): every float32 of a few windows."""
    windows = []
    for centre in (0.55, 0.3, 1.0, 9.01):
        c = np.float32(centre).view(np.int32)
        windows.append(np.arange(c - 20_000, c + 20_000, dtype=np.int32).view(np.float32))
    x = np.concatenate(windows)
    assert ulps_from_correct(x).max() <= 1


@numba.njit(error_model="numpy", cache=True)
def _worst_in(start, stop):
    """(largest ulp distance, count over 1 ulp, NaN results that are not NaN) over the
    float32 of bit patterns ``start..stop``: one pass, no arrays (2**32 of them)."""
    worst, over, bad_nan = 0, 0, 0
    bits = np.empty(1, np.uint32)
    x = bits.view(np.float32)
    for b in range(start, stop):
        bits[0] = b
        v = x[0]
        got = vmath.tanhf(v)
        if v != v:
            bad_nan += got == got
            continue
        want = np.float32(math.tanh(np.float64(v)))
        g = np.int64(np.array([got]).view(np.int32)[0])
        w = np.int64(np.array([want]).view(np.int32)[0])
        g = -(g & 0x7FFFFFFF) - 1 if g < 0 else g
        w = -(w & 0x7FFFFFFF) - 1 if w < 0 else w
        d = abs(g - w)
        worst = max(worst, d)
        over += d > 1
    return worst, over, bad_nan


def exhaustive(progress=False):
    """The largest distance in ulps over all 2**32 float32, the count of arguments more
    than 1 ulp away, and of NaN arguments whose result is not NaN."""
    worst, over, bad_nan, chunk = 0, 0, 0, 1 << 26
    for start in range(0, 1 << 32, chunk):
        w, o, n = _worst_in(start, start + chunk)
        worst, over, bad_nan = max(worst, w), over + o, bad_nan + n
        if progress:
            print(f"{start:#010x}: worst so far {worst} ulp, {over} over 1 ulp, {bad_nan} "
                  f"non-NaN of NaN", flush=True)
    return worst, over, bad_nan


@pytest.mark.soak
def test_tanhf_within_one_ulp_of_every_float32():
    assert exhaustive() == (1, 0, 0)


if __name__ == "__main__":
    print(exhaustive(progress="-q" not in sys.argv))
