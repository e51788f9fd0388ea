"""Session 18's leftovers from the hostile-input fuzz: overflow in jitted cumprod, interp
with infinite knots, arrays of 33-64 dimensions, NumPy's and PyTorch's errors for bad
arguments, and PyTorch's dim 0 / -1 on 0-d tensors."""
import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

# --- cumprod: NumPy's sequential product, overflow included -----------------------------------

OVERFLOWING = [
    np.array([1e200, 1e200, 1e-200, 1e-200]),  # a reassociated scan: inf * 0 = NaN last
    np.array([1e200, -1e200] * 8),
    np.array([1e200, 1e200, 0.0, 1e-200, 5.0]),
    np.array([1e-200, 1e-200, 1e200, 1e200, -3.0]),  # underflow to 0 first
]


@pytest.mark.parametrize("x", OVERFLOWING, ids=["inf-then-small", "alternating", "zero",
                                                "underflow"])
def test_cumprod_gives_numpys_inf_nan_and_zero_under_every_transform(x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.cumprod(x)
        np.testing.assert_array_equal(fg.jit(fnp.cumprod)(x), want)
        np.testing.assert_array_equal(fg.jit(lambda a: np.cumprod(a))(x), want)
        np.testing.assert_array_equal(fg.jvp(fnp.cumprod, (x,), (np.ones_like(x),))[0], want)
        np.testing.assert_array_equal(fg.vmap(fnp.cumprod)(np.stack([x, x])), [want, want])
        rows = np.stack([x, x[::-1]], axis=1)
        np.testing.assert_array_equal(fg.jit(lambda a: fnp.cumprod(a, axis=0))(rows),
                                      np.cumprod(rows, axis=0))


def test_cumprod_derivatives_stay_exact_with_zeros():
    x = np.array([2.0, 0.0, 3.0, -1.5, 0.5])
    others = np.array([[np.prod(np.delete(x[:i + 1], j)) if j <= i else 0.0
                        for j in range(5)] for i in range(5)])
    np.testing.assert_array_equal(fg.jacfwd(fnp.cumprod)(x), others)
    np.testing.assert_array_equal(fg.jacrev(fnp.cumprod)(x), others)
    np.testing.assert_array_equal(fg.jit(fg.jacrev(fnp.cumprod))(x), others)
