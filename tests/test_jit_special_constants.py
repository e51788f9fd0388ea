"""An eager Tensor made or closed over inside a jitted function is an operand of the
compiled call, never a constant handed to a Numba kernel.

Regression (found by differential fuzzing of Tensor against ndarray inputs): such a
Tensor stayed a constant of the traced graph, so the fused kernel that read it failed to
compile.  With a Tensor argument the call raised Numba's ``TypingError`` ("Cannot
determine Numba type of Tensor"); with an ndarray argument it warned "compiling failed
... Please report this" and ran uncompiled.
"""
import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

C = np.array([1.0, 2.0, 3.0])
X = np.array([[0.5, -1.0, 2.0]])
PROGRAMS = {
    "where then abs": (lambda c, x: fg.where(x > 0, c, x).abs(),
                       lambda c, x: np.abs(np.where(x > 0, c, x))),
    "add then sin": (lambda c, x: fnp.sin(c + x), lambda c, x: np.sin(c + x)),
    "reflected then sum": (lambda c, x: (c - 2.0 * x).sum(), lambda c, x: np.sum(c - 2.0 * x)),
}


def _plain(v):
    return np.asarray(v.detach().numpy() if isinstance(v, fg.Tensor) else v)


@pytest.fixture(autouse=True)
def _compile_failures_are_errors():
    with warnings.catch_warnings():  # (jit's "compiling failed ... Please report this")
        warnings.simplefilter("error")
        yield


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("argument", ["ndarray", "tensor", "tensor requiring grad"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_tensor_made_inside_jit_is_an_operand_of_the_call(name, argument, dtype):
    program, reference = PROGRAMS[name]
    c, x = C.astype(dtype), X.astype(dtype)
    arg = {"ndarray": x, "tensor": fg.Tensor(x),
           "tensor requiring grad": fg.Tensor(x, requires_grad=True)}[argument]
    got = fg.jit(lambda v: program(fg.Tensor(c), v))(arg)
    want = reference(c, x)
    assert _plain(got).dtype == dtype
    np.testing.assert_allclose(_plain(got), want, rtol=1e-6)


def test_a_closed_over_tensor_requiring_grad_gets_its_gradient_through_jit():
    w = fg.Tensor(C, requires_grad=True)
    x = X[0]
    loss = fg.jit(lambda v: fnp.sum(fnp.sin(w * v)))(x)
    loss.backward()
    np.testing.assert_allclose(_plain(loss), np.sum(np.sin(C * x)))
    np.testing.assert_allclose(_plain(w.grad), x * np.cos(C * x))


def test_grad_of_jit_closing_over_a_tensor():
    w = fg.Tensor(C)
    x = X[0]
    got = fg.grad(fg.jit(lambda v: fnp.sum(fnp.sin(w * v))))(x)
    np.testing.assert_allclose(_plain(got), C * np.cos(C * x))
