"""fg.scipy.optimize.minimize and derivatives: the hint a conversion inside SciPy gives
when funcgrad's own minimize handed SciPy the traced value."""
import numpy as np
import pytest

import funcgrad as fg
from funcgrad.errors import DerivativeDroppedError

optimize = pytest.importorskip("scipy.optimize")
from funcgrad.scipy.optimize import minimize  # noqa: E402

def test_a_traced_value_elsewhere_names_minimize_not_itself():
    # a constraint closing over the traced value: minimize hands it to SciPy, whose
    # conversion refuses; the hint must not send the user back to minimize
    def solve(t):
        con = {"type": "ineq", "fun": lambda x: t - x[0]}
        return minimize(lambda x: np.sum(x ** 2), np.ones(2), constraints=con).x.sum()

    with pytest.raises(DerivativeDroppedError) as info:
        fg.grad(solve)(1.0)
    message = str(info.value)
    assert "call funcgrad.scipy.optimize.minimize instead" not in message, message
    assert ("funcgrad.scipy.optimize.minimize hands this value to scipy.optimize.minimize"
            in message), message
    assert "docstring for the arguments that may be differentiated" in message


def test_plain_scipy_minimize_still_names_the_twin():
    with pytest.raises(DerivativeDroppedError,
                       match="call funcgrad.scipy.optimize.minimize instead"):
        fg.grad(lambda t: optimize.minimize(lambda x: np.sum((x - t) ** 2),
                                            np.zeros(2)).x.sum())(np.ones(2))
