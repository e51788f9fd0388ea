"""legendre_p(_all) and sph_legendre_p(_all): SciPy's values with their diff_n
derivatives, and derivatives in z and theta against SciPy's own derivatives."""
import numpy as np
import pytest
import scipy.special as ss

import funcgrad as fg
import funcgrad.scipy.special as fsp

Z = np.array([-1.0, -0.3, 0.0, 0.45, 0.9, 1.0])
THETA = np.array([0.0, 0.4, 1.2, 2.5, np.pi])


@pytest.mark.parametrize("diff_n", [0, 1, 2])
def test_values_and_their_derivatives_are_scipys(diff_n):
    cases = [
        (fsp.legendre_p_all(5, Z, diff_n=diff_n), ss.legendre_p_all(5, Z, diff_n=diff_n)),
        (fsp.legendre_p(np.array([[0], [3], [5]]), Z, diff_n=diff_n),
         ss.legendre_p(np.array([[0], [3], [5]]), Z, diff_n=diff_n)),
        (fsp.legendre_p(2, 0.5, diff_n=diff_n), ss.legendre_p(2, 0.5, diff_n=diff_n)),
        (fsp.sph_legendre_p_all(4, 3, THETA, diff_n=diff_n),
         ss.sph_legendre_p_all(4, 3, THETA, diff_n=diff_n)),
        (fsp.sph_legendre_p(np.array([[2], [3], [4], [1]]), np.array([[-3], [1], [-2], [0]]),
                            THETA, diff_n=diff_n),
         ss.sph_legendre_p(np.array([[2], [3], [4], [1]]), np.array([[-3], [1], [-2], [0]]),
                           THETA, diff_n=diff_n)),
    ]
    for ours, scipys in cases:
        assert ours.shape == scipys.shape and ours.dtype == scipys.dtype
        np.testing.assert_allclose(ours, scipys, rtol=1e-13, atol=1e-14)


def test_gradients_are_scipys_derivatives_under_vmap_and_jit():
    slope = fg.vmap(fg.grad(lambda z: fsp.legendre_p(4, z)[0]))(Z)
    np.testing.assert_allclose(slope, ss.legendre_p(4, Z, diff_n=1)[1], rtol=1e-13)
    second = fg.vmap(fg.grad(fg.grad(lambda t: fsp.sph_legendre_p(3, -1, t)[0])))(THETA)
    np.testing.assert_allclose(second, ss.sph_legendre_p(3, -1, THETA, diff_n=2)[2],
                               rtol=1e-12, atol=1e-13)
    jitted = fg.jit(lambda t: fsp.sph_legendre_p_all(3, 2, t, diff_n=1))
    np.testing.assert_allclose(jitted(THETA), ss.sph_legendre_p_all(3, 2, THETA, diff_n=1),
                               rtol=1e-13, atol=1e-14)


def test_bad_arguments_name_the_fix():
    with pytest.raises(TypeError, match="n must be an integer"):
        fsp.legendre_p(2.5, 0.3)
    with pytest.raises(ValueError, match="diff_n must be 0, 1 or 2"):
        fsp.legendre_p(2, 0.3, diff_n=3)
    with pytest.raises(ValueError, match="n must be >= 0"):
        fsp.legendre_p_all(-1, 0.3)
