"""Reverse mode through ``fg.lax`` loops: integer and boolean carries take no cotangent,
and the derivative of a ``while_loop`` equals that of the same loop written in Python
(which ``grad`` runs on concrete values) and finite differences."""
import numpy as np
import pytest

import funcgrad as fg
from funcgrad import lax


def _flagged_power(k):
    # three steps of x *= k, and a boolean carry raised once x passed 100
    def body(s):
        return s[0] + 1.0, s[1] * k, s[1] > 100.0
    _, x, flag = lax.while_loop(lambda s: s[0] < 3.0, body,
                                (np.asarray(0.0), np.asarray(1.0) * k, np.asarray(False)))
    return np.where(flag, 0.0, x)


def test_a_boolean_carry_of_while_loop_can_be_a_where_condition_under_grad():
    # The loop's boolean output was recorded as a differentiable value, so where asked for
    # its condition's cotangent and the backward pass failed ('NoneType' not callable).
    np.testing.assert_allclose(fg.grad(_flagged_power)(2.0), 4 * 2.0 ** 3, rtol=1e-14)
    np.testing.assert_allclose(fg.grad(_flagged_power)(5.0), 0.0)  # 5^3 > 100: flag set
    np.testing.assert_allclose(fg.grad(fg.grad(_flagged_power))(2.0), 12 * 2.0 ** 2,
                               rtol=1e-14)
    np.testing.assert_allclose(fg.vmap(fg.grad(_flagged_power))(np.array([2.0, 3.0])),
                               [32.0, 108.0], rtol=1e-14)


CONTROL_FLOW_WITH_FLAGS = {
    "scan": lambda k: np.where(lax.scan(lambda c, _: ((c[0] * k, c[0] > 3.0), None),
                                        (k, np.asarray(False)), length=3)[0][1], k * k, k),
    "cond": lambda k: np.where(lax.cond(k > 1.0, lambda u: (u, u > 1.5), lambda u: (u, u > 3.0),
                                        k)[1], k * k, k),
    "fori_loop": lambda k: np.where(lax.fori_loop(0, 2, lambda i, c: (c[0] * k, c[0] < 1.0),
                                                  (k, np.asarray(True)))[1], k * k, k),
    "while_loop(int)": lambda k: k * np.arange(10.0)[lax.while_loop(
        lambda c: c[1] < 3, lambda c: (c[0] * k, c[1] + 1), (k, 0))[1]],
}
# (at k = 2: scan's flag is set (2 > 3 no, 4 > 3 yes), cond's too, fori_loop's is not)
FLAG_GRADS = {"scan": 4.0, "cond": 4.0, "fori_loop": 1.0, "while_loop(int)": 3.0}


@pytest.mark.parametrize("name", list(CONTROL_FLOW_WITH_FLAGS))
def test_integer_and_boolean_outputs_of_control_flow_take_no_cotangent(name):
    f = CONTROL_FLOW_WITH_FLAGS[name]
    np.testing.assert_allclose(fg.grad(f)(2.0), FLAG_GRADS[name], rtol=1e-14)
    np.testing.assert_allclose(fg.jvp(f, (2.0,), (1.0,))[1], FLAG_GRADS[name], rtol=1e-14)

