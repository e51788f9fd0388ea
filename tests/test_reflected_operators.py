"""A Python number or an array on the left of a traced value (``2.5 - x``, ``1 / x``):
the operands keep the user's order under every transform, whatever the traced value holds.

Regression: reverse mode's operator fast path sent ``2.5 - x`` to the general record as
``x - 2.5`` when the traced value was an eager ``Tensor`` (or another special array), so
``fg.vjp``'s value and ``fg.grad`` came out silently wrong for ``-`` and ``/``.
"""
import operator
import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

X = np.array([1.5, 2.0, 4.0])
LEFTS = {"float": 2.5, "int": 3, "float64 array": np.array([0.5, -1.0, 3.0]),
         "float32 array": np.array([0.5, -1.0, 3.0], np.float32)}
OPS = {"add": operator.add, "sub": operator.sub, "mul": operator.mul,
       "truediv": operator.truediv, "pow": operator.pow, "floordiv": operator.floordiv,
       "mod": operator.mod}
SMOOTH = ("add", "sub", "mul", "truediv", "pow")


def _plain(v):
    return np.asarray(v.detach().numpy() if isinstance(v, fg.Tensor) else v)


def _wrap(kind, a):
    return fg.Tensor(a) if kind == "tensor" else a


def _central_difference(f, x, eps=1e-6):
    return np.array([(np.sum(f(x + eps * e)) - np.sum(f(x - eps * e))) / (2 * eps)
                     for e in np.eye(x.size)])


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():  # (-1.0) ** 1.5 is NaN in NumPy too
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


@pytest.mark.parametrize("kind", ["ndarray", "tensor"])
@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("left", sorted(LEFTS))
def test_values_keep_the_operands_order(left, op, kind):
    lhs, fn = LEFTS[left], OPS[op]

    def f(x):
        return fn(lhs, x)
    want = fn(lhs, X)
    x = _wrap(kind, X)
    got = {
        "vjp": fg.vjp(f, x)[0],
        "jvp": fg.jvp(f, (x,), (_wrap(kind, np.ones(3)),))[0],
        "vmap": fg.vmap(f)(_wrap(kind, X[None]))[0],
        "jit": fg.jit(f)(x),
    }
    for name, value in got.items():
        np.testing.assert_allclose(_plain(value), want, rtol=1e-6, equal_nan=True,
                                   err_msg=f"{name} of {left} {op} {kind}")


@pytest.mark.parametrize("kind", ["ndarray", "tensor"])
@pytest.mark.parametrize("op", SMOOTH)
@pytest.mark.parametrize("left", sorted(LEFTS))
def test_gradients_keep_the_operands_order(left, op, kind):
    lhs, fn = LEFTS[left], OPS[op]
    got = fg.grad(lambda x: fnp.sum(fn(lhs, x)))(_wrap(kind, X))
    want = _central_difference(lambda x: fn(lhs, x), X)
    np.testing.assert_allclose(_plain(got), want, rtol=1e-5, atol=1e-6, equal_nan=True)
