"""Regressions of the session-25 derivative audit of funcgrad.numpy: ``np.kaiser`` is
differentiable in ``beta`` (NumPy's own converted a traced ``beta`` with ``float()`` and
could only raise).  Values come from NumPy, derivatives from central differences of
NumPy's ``kaiser``."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp


def _fd(f, b, h=1e-5):
    """A 4-point central difference of the reference ``f`` at ``b``."""
    return (8 * (f(b + h) - f(b - h)) - (f(b + 2 * h) - f(b - 2 * h))) / (12 * h)


@pytest.mark.parametrize("M", [0, 1, 2, 5, 6])
@pytest.mark.parametrize("beta", [0.0, 2.5, -3.0, 14.0])
def test_kaiser_value_and_derivative_in_beta_match_numpy(M, beta):
    np.testing.assert_array_equal(fnp.kaiser(M, beta), np.kaiser(M, beta))
    if M < 1:
        return
    want = _fd(lambda b: np.kaiser(M, b), beta)
    for jac in (fg.jacfwd, fg.jacrev):
        np.testing.assert_allclose(jac(lambda b: fnp.kaiser(M, b))(beta), want,
                                   rtol=1e-8, atol=1e-10)


def test_kaiser_under_jit_and_vmap_matches_numpy():
    np.testing.assert_allclose(fg.jit(lambda b: fnp.kaiser(7, b))(3.5), np.kaiser(7, 3.5),
                               rtol=1e-13)
    betas = np.array([0.5, 4.0, 9.0])
    np.testing.assert_allclose(fg.vmap(lambda b: fnp.kaiser(6, b))(betas),
                               np.stack([np.kaiser(6, b) for b in betas]), rtol=1e-13)


def test_kaiser_traced_array_beta_raises_naming_the_fix():
    with pytest.raises(ValueError, match="beta must be a scalar"):
        fg.jacfwd(lambda b: fnp.kaiser(4, b))(np.array([1.0, 2.0]))
