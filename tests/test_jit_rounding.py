"""Rounding under jit keeps NumPy's bits, the sign of a zero included: the fused loops
compute ``rint`` from ``floor``, and ``floor(-0.4) + 1`` is ``+0.0`` where NumPy gives
``-0.0``; and a generated kernel's dtype for a Python float is float64, as eagerly."""
import numpy as np
import pytest

import funcgrad as fg

VALUES = [-0.4, -0.5, 0.4, 0.5, -1.5, -2.5, 2.5, 4.5, -3.5, -0.0, 0.0, -0.6, -1e300, 1e300,
          -5e-324, 5e-324, np.inf, -np.inf, np.nan, -0.49999999999999994]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name, f", [
    ("rint", lambda x: np.rint(x) * 1.0),
    ("round", lambda x: np.round(x)),
    ("round of a product", lambda x: np.round(x * 3.0)),
])
def test_rounding_under_jit_equals_numpy_bit_for_bit(dtype, name, f):
    with np.errstate(over="ignore"):
        x = np.array(VALUES).astype(dtype)
        want = f(x)
    got = fg.jit(f, wait=True)(x)
    assert got.dtype == want.dtype
    assert got.tobytes() == want.tobytes(), (name, got, want)


def test_large_arrays_take_the_same_rint_eagerly():
    x = np.concatenate([np.array(VALUES), np.linspace(-3.0, 3.0, 5001)])
    got = np.asarray(fg.numpy.rint(x))
    assert got.tobytes() == np.rint(x).tobytes()


def test_a_generated_kernel_of_a_python_float_is_float64_under_jit_as_eagerly():
    # erf has no NumPy ufunc: its dtype came from float32 promoted with the weak input,
    # so under jit erf(0.5) was float32 and a jvp through it lost its float64 digits
    import math

    import funcgrad.scipy.special as fss
    x, v = -0.6, np.array(0.3)
    want = 2 / math.sqrt(math.pi) * math.exp(-x * x) * 0.3
    got = fg.jit(lambda x, v: fg.jvp(fss.erf, (x,), (v,))[1])(x, v)
    assert np.asarray(got).dtype == np.float64
    assert abs(float(got) - want) <= 1e-15
    assert fg.jit(fss.erf)(0.5).dtype == np.float64
    assert fg.jit(fss.erf)(np.float32(0.5)).dtype == np.float32
