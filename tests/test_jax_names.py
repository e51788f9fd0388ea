"""Names a JAX user reaches for at the top level of funcgrad: integer inputs to
grad/vjp (float0)."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp


# --- integer inputs: float0 -----------------------------------------------------------------------

def test_float0_is_jaxs_dtype():
    # (jax/_src/dtypes.py defines float0 so; importing JAX here would cost seconds)
    assert fg.dtypes.float0 == np.dtype([("float0", np.void, 0)])
    assert fg.dtypes.float0.itemsize == 0


def test_grad_with_allow_int_gives_float0_zeros_for_integer_inputs():
    gx, gn = fg.grad(lambda x, n: x ** n, argnums=(0, 1), allow_int=True)(2.0, 3)
    assert gx == 12.0
    assert gn.dtype == fg.dtypes.float0 and gn.shape == ()
    value, g = fg.value_and_grad(lambda p: fnp.sum(p["w"] * p["idx"]), allow_int=True)(
        {"w": np.ones(3), "idx": np.arange(3)})
    assert value == 3.0
    np.testing.assert_allclose(g["w"], [0.0, 1.0, 2.0])
    assert g["idx"].dtype == fg.dtypes.float0 and g["idx"].shape == (3,)
    with pytest.raises(TypeError, match=r"argument 1 .*integer"):
        fg.grad(lambda x, n: x ** n, argnums=(0, 1))(2.0, 3)


def test_vjp_takes_integer_primals_and_integer_outputs():
    out, vjp_fn = fg.vjp(lambda x, n: (x * n, n * 2), np.ones(3), np.arange(3))
    np.testing.assert_array_equal(out[1], [0, 2, 4])
    for int_ct in (np.zeros(3, fg.dtypes.float0), np.zeros(3, int)):
        gx, gn = vjp_fn((np.ones(3), int_ct))
        np.testing.assert_allclose(gx, [0.0, 1.0, 2.0])
        assert gn.dtype == fg.dtypes.float0 and gn.shape == (3,)
    with pytest.raises(ValueError, match="shape"):
        vjp_fn((np.ones(3), np.zeros(2, fg.dtypes.float0)))
