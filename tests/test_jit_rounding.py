"""Rounding under jit keeps NumPy's bits, the sign of a zero included: the fused loops
compute ``rint`` from ``floor``, and ``floor(-0.4) + 1`` is ``+0.0`` where NumPy gives
``-0.0``."""
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
