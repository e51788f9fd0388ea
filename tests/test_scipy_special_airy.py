"""airy and airye: SciPy's values, and derivatives against central differences of
SciPy's values on both sides of 0 (the property suite in test_primitives.py covers the
rest of the correctness bar)."""
import numpy as np
import pytest
import scipy.special as ss

import funcgrad as fg
import funcgrad.scipy.special as fsp

X = np.array([-4.0, -1.3, -0.2, 0.3, 1.7, 5.0])


@pytest.mark.parametrize("name", ["airy", "airye"])
def test_values_and_slopes_are_scipys(name):
    ours, scipys = getattr(fsp, name), getattr(ss, name)
    np.testing.assert_array_equal(np.array(ours(X)), np.array(scipys(X)))
    h = 1e-6
    for i in range(4):
        got = fg.vmap(fg.grad(lambda x, i=i: ours(x)[i]))(X)
        want = (scipys(X + h)[i] - scipys(X - h)[i]) / (2 * h)
        # (the scaled Ai is NaN below 0, as SciPy's: so is its slope)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-9, equal_nan=True)


def test_complex_input_is_refused():
    with pytest.raises(TypeError, match="real"):
        fsp.airy(np.array([1.0 + 1.0j]))
