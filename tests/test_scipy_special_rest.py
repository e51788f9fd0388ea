"""The rest of scipy.special (session 23): SciPy's values, derivatives against central
differences of SciPy's values (or the closed forms at the points where differences
cannot reach), float32 kept, and one jit/vmap check per family.  The property suite in
test_primitives.py covers the rest of the correctness bar for the new primitives."""
import numpy as np
import pytest
import scipy.special as ss

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.special as fsp

H = 1e-6


def central(f, x, h=H):
    return (f(x + h) - f(x - h)) / (2 * h)


# --- Kelvin functions ---------------------------------------------------------------------------

# (ber, bei and their derivatives are even/odd, with values for x < 0; ker, kei are NaN there)
KELVIN = {"ber": "berp", "bei": "beip", "ker": "kerp", "kei": "keip",
          "berp": None, "beip": None, "kerp": None, "keip": None}
X_WHOLE = np.array([-3.0, -0.4, 0.7, 2.5, 6.0])
X_HALF = np.array([0.2, 0.7, 2.5, 6.0])


@pytest.mark.parametrize("name", sorted(KELVIN))
def test_kelvin_values_and_slopes_are_scipys(name):
    x = X_WHOLE if name.startswith("be") else X_HALF
    ours, scipys = getattr(fsp, name), getattr(ss, name)
    np.testing.assert_array_equal(ours(x), scipys(x))
    np.testing.assert_allclose(fg.vmap(fg.grad(ours))(x), central(scipys, x), rtol=1e-6,
                               atol=1e-8)
    # (float32 in, float32 out; its gradient too)
    x32 = x.astype(np.float32)
    assert ours(x32).dtype == np.float32 and fg.grad(ours)(x32[1]).dtype == np.float32


def test_kelvin_second_derivatives_at_zero_are_the_limits():
    # (berp/x -> 0, beip/x -> 1/2; ker'' and kei'' grow without bound)
    second = [float(fg.grad(fg.grad(getattr(fsp, n)))(0.0)) for n in ("ber", "bei", "ker", "kei")]
    assert second[:2] == [0.0, 0.5] and second[2:] == [np.inf, np.inf]
    np.testing.assert_allclose(second[:2], [central(ss.berp, 0.0, 1e-4),
                                            central(ss.beip, 0.0, 1e-4)], atol=1e-8)


def test_kelvin_combines_them_as_scipy_and_differentiates_under_jit():
    x = X_WHOLE
    for ours, scipys in zip(fsp.kelvin(x), ss.kelvin(x)):
        np.testing.assert_array_equal(ours, scipys)
    assert [v.dtype for v in fsp.kelvin(np.float32(1.0))] == [np.complex64] * 4
    slope = fg.jit(fg.vmap(fg.grad(lambda t: fnp.imag(fsp.kelvin(t)[3]))))(X_HALF)
    np.testing.assert_allclose(slope, central(lambda t: ss.kelvin(t)[3].imag, X_HALF),
                               rtol=1e-6, atol=1e-8)


def test_kelvin_refuses_complex_input():
    with pytest.raises(TypeError, match="ber: complex input"):
        fsp.ber(np.array([1.0 + 1.0j]))
