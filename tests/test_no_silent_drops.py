"""A derivative is never dropped silently: every route by which a traced value could
become a plain number either keeps the derivative right or raises an error that names the
rewrite.  Each idiom of the sweep is one test; gradients are checked against central
differences where they are given."""
import copy
import functools
import io
import math
import pickle

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import DerivativeDroppedError, EscapedTracerError

X = np.array([1.0, 2.0, 3.0])


def fd_grad(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


def assert_grad_right(f, x=X):
    np.testing.assert_allclose(fg.grad(f)(x), fd_grad(f, x), rtol=1e-6, atol=1e-8)


def assert_refused(f, *rewrites, x=X):
    with pytest.raises(DerivativeDroppedError) as info:
        fg.grad(f)(x)
    for text in rewrites:
        assert text in str(info.value), (text, str(info.value))


# --- the three idioms of the issue -----------------------------------------------------------

def test_filling_a_preallocated_array_raises_and_names_the_rewrite():
    def f(x):
        out = np.zeros(3)
        for i in range(3):
            out[i] = x[i] ** 2
        return out.sum()
    assert_refused(f, ".at[i].set(v)", "np.stack", "fg.stop_gradient")
    # the rewrites it names give the right gradient
    assert_grad_right(lambda x: np.sum(np.stack([x[i] ** 2 for i in range(3)])))
    assert_grad_right(lambda x: np.sum(fnp.at(np.zeros(3))[0].set(x[0] ** 2) + x))


def test_float_of_a_traced_value_raises():
    assert_refused(lambda x: float(np.sum(x ** 2)), "float()")


def test_math_functions_raise_and_name_numpys():
    assert_refused(lambda x: math.sin(x[0]) + np.sum(x), "np.sin(x), not math.sin(x)")
    assert_grad_right(lambda x: np.sin(x[0]) + np.sum(x))


@pytest.mark.parametrize("route", ["tolist", "complex", "asarray", "np.array of a list",
                                   "np.vectorize", "object array"])
def test_other_conversions_raise(route):
    f = {"tolist": lambda x: sum(x.tolist()),
         "complex": lambda x: complex(x[0]).real * np.sum(x),
         "asarray": lambda x: np.sum(np.asarray(x)),
         "np.array of a list": lambda x: np.sum(np.array([x[0], x[1]])),
         "np.vectorize": lambda x: np.sum(np.vectorize(lambda v: v * v)(x)),
         "object array": lambda x: np.sum(np.array([x[0], x[1]], dtype=object))}[route]
    assert_refused(f, "fg.stop_gradient")


@pytest.mark.filterwarnings("ignore:.*scipy.odr.*is deprecated:DeprecationWarning")
def test_a_conversion_inside_scipy_names_the_scipy_function():
    scipy_integrate = pytest.importorskip("scipy.integrate")
    # (a SciPy module funcgrad has no twin of: qmc_quad, the example before, has one now)
    odr = pytest.importorskip("scipy.odr")
    assert_refused(lambda x: np.sum(odr.Data(x, x).y),
                   "scipy.odr.Data converts its input to a plain NumPy array, which "
                   "would drop the derivative", "funcgrad.scipy has no odr module",
                   "fg.custom_vjp", "fg.stop_gradient")
    # where funcgrad has the function, the message names it
    assert_refused(lambda x: scipy_integrate.quad(np.sin, 0.0, x[0])[0],
                   "scipy.integrate.quad converts its input to a Python float",
                   "call funcgrad.scipy.integrate.quad instead", "fg.stop_gradient")


def test_forward_mode_refuses_too():
    with pytest.raises(DerivativeDroppedError):
        fg.jvp(lambda x: float(np.sum(x)) * x, (X,), (np.ones(3),))
    with pytest.raises(DerivativeDroppedError):
        fg.jacfwd(lambda x: x * math.exp(x[0]))(X)


# --- what keeps working ---------------------------------------------------------------------

@pytest.mark.parametrize("conversion", [int, round, math.floor, math.ceil, math.trunc,
                                        lambda v: round(v, 1), np.int64,
                                        lambda v: np.asarray(v, dtype=np.int32),
                                        lambda v: np.array(v, dtype=bool)])
def test_piecewise_constant_conversions_keep_working(conversion):
    """Their derivative is zero almost everywhere: nothing is lost."""
    got = fg.grad(lambda x: conversion(x[1] * 1.7) * np.sum(x))(X)
    np.testing.assert_array_equal(got, np.full(3, conversion(2 * 1.7)))


def test_dropping_on_purpose_is_explicit():
    np.testing.assert_array_equal(fg.grad(lambda x: x[0].item() * np.sum(x))(X), [1, 1, 1])
    np.testing.assert_array_equal(
        fg.grad(lambda x: float(fg.stop_gradient(x[0])) * np.sum(x))(X), [1, 1, 1])


def test_python_control_flow_on_concrete_values_keeps_working():
    def f(x):
        total = np.sum(x)
        while total > 1.0:
            total = total * 0.5
        return total * (2.0 if x[0] > 0 else 3.0)
    assert_grad_right(f)


def test_integer_values_convert_freely():
    def f(x):
        k = int(np.argmax(x))
        idx = fnp.argsort(x).tolist()  # integers: no derivative to lose
        return x[k] * x[idx[0]]
    assert_grad_right(f)


def test_printing_and_fstrings_show_the_value(capsys):
    def f(x):
        loss = np.sum(x ** 2)
        print(f"loss {loss:.3f}", loss)
        print(x)
        return loss
    fg.grad(f)(X)
    out = capsys.readouterr().out
    assert "loss 14.000 14.0" in out and "[1. 2. 3.]" in out


# --- the sweep --------------------------------------------------------------------------------

def test_copies_of_traced_values_keep_their_derivative():
    """``copy.copy`` made a new tracer off the tape: a silent zero gradient, before."""
    assert_grad_right(lambda x: np.sum(copy.copy(x) * x))
    assert_grad_right(lambda x: np.sum(copy.deepcopy(x) ** 2))
    assert_grad_right(lambda x: np.sum(np.copy(x) * x))


@pytest.mark.parametrize("builtin", ["sum", "max", "min", "sorted", "abs", "reversed"])
def test_python_builtins_on_traced_arrays_are_right(builtin):
    f = {"sum": lambda x: sum(x * x), "max": lambda x: max(x * x), "min": lambda x: min(x * x),
         "sorted": lambda x: sorted(x * x)[1], "abs": lambda x: abs(x[0] - 2.5) * np.sum(x),
         "reversed": lambda x: list(reversed(x))[0] * x[1]}[builtin]
    assert_grad_right(f)


def test_traced_values_are_unhashable_with_a_reason():
    @functools.lru_cache
    def cached(v):
        return v * 2
    with pytest.raises(TypeError, match="unhashable.*cache"):
        fg.grad(lambda x: np.sum(cached(x)))(X)
    with pytest.raises(TypeError, match="unhashable"):
        fg.grad(lambda x: {x[0]: 1}[x[0]] * np.sum(x))(X)


def test_traced_values_cannot_be_pickled():
    with pytest.raises(TypeError, match="cannot be pickled"):
        fg.grad(lambda x: np.sum(pickle.loads(pickle.dumps(x))))(X)


def test_escaped_tracers_still_raise():
    leaked = []
    fg.grad(lambda x: leaked.append(x) or np.sum(x))(X)
    with pytest.raises(EscapedTracerError):
        leaked[0] * 2.0


def test_unsupported_numpy_functions_raise_not_drop():
    with pytest.raises(TypeError, match="not supported"):  # (writing a file: never will be)
        fg.grad(lambda x: np.savetxt(io.StringIO(), x) or np.sum(x))(X)
    with pytest.raises(TypeError, match="not supported"):
        fg.grad(lambda x: np.sum(np.frompyfunc(lambda v: v * v, 1, 1)(x)))(X)


@pytest.mark.parametrize("transform", ["grad", "hessian", "jacrev", "jit(grad)", "vmap(grad)"])
def test_the_callers_arrays_are_never_modified(transform):
    x = np.array([0.5, -1.0, 2.0])
    w = np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 3.0], [2.0, 1.0, 1.0]])
    before = (x.copy(), w.copy())

    def f(x):
        y = w @ x
        return np.sum(np.tanh(y) ** 2) + np.sum(y[[0, 0, 2]] * x) + np.sum(x[1:] * x[:-1])

    fn = {"grad": fg.grad(f), "hessian": fg.hessian(f), "jacrev": fg.jacrev(fg.grad(f)),
          "jit(grad)": fg.jit(fg.grad(f)), "vmap(grad)": lambda x: fg.vmap(fg.grad(f))(
              np.stack([x, x]))}[transform]
    out = fn(x)
    np.testing.assert_array_equal(x, before[0])
    np.testing.assert_array_equal(w, before[1])
    assert not np.shares_memory(out, x) and not np.shares_memory(out, w)


def test_jit_sees_arrays_the_function_reaches_change():
    """A jitted function reads the caller's arrays (globals, closures, attributes) as they
    are when it is called, as eager code does: never the values it was traced with."""
    w = np.ones(3)

    class Model:
        def __init__(self):
            self.W = np.eye(3)

        def __call__(self, x):
            return np.sum(np.tanh(self.W @ x) * w)

    model = Model()
    f = fg.jit(lambda x: np.sum(x * w * 2.0))
    g = fg.jit(fg.grad(lambda x: np.sum(np.sin(x) * w)))
    h = fg.jit(fg.grad(model))
    f(X), g(X), h(X)
    w[:] = [2.0, -1.0, 0.5]
    model.W[0, 1] = 3.0
    np.testing.assert_allclose(f(X), np.sum(X * w * 2.0))
    np.testing.assert_allclose(g(X), np.cos(X) * w)
    np.testing.assert_allclose(h(X), fg.grad(model)(X))


def test_jit_sees_a_change_anywhere_in_an_array_it_reaches():
    """Whatever the array's size, dtype and layout, one changed element retraces: the
    last of 3 float32 (12 bytes, compared byte by byte), the last of 20,000 float64
    (past the first block of words), an element of a transposed (non-contiguous) view."""
    small = np.ones(3, np.float32)
    big = np.ones(20_000)
    base = np.arange(6.0).reshape(2, 3)
    view = base.T
    f = fg.jit(lambda x: np.sum(x * small) + np.sum(x[0] * big) + np.sum(view @ x[:2]))
    x = np.ones(3, np.float32)
    f(x)
    small[-1] = 5.0
    big[-1] = -7.0
    base[1, 2] = 100.0
    expected = np.sum(x * small) + np.sum(x[0] * big) + np.sum(view @ x[:2])
    np.testing.assert_allclose(f(x), expected, rtol=1e-6)


W_GLOBAL = np.ones(2)


def test_jit_sees_an_array_it_reaches_rebound():
    """``W = new_array`` (a global), ``model.w = ...`` (an attribute), ``nonlocal``
    (a closure's cell), a dict's item: the function reads the new array, as eager code
    does (it kept the traced one: the old array itself had not changed)."""
    global W_GLOBAL
    x = np.ones(2)
    f = fg.jit(lambda x: x * W_GLOBAL, wait=True)
    assert f(x).tolist() == [1.0, 1.0]
    W_GLOBAL = np.full(2, 5.0)
    assert f(x).tolist() == [5.0, 5.0]
    W_GLOBAL[:] = 7.0
    assert f(x).tolist() == [7.0, 7.0]

    class Model:
        def __init__(self):
            self.w = np.ones(2)

        def apply(self, x):
            return x * self.w

    model = Model()
    g = fg.jit(model.apply, wait=True)
    g(x)
    model.w = np.full(2, 4.0)
    assert g(x).tolist() == [4.0, 4.0]

    params = {"w": np.ones(2)}
    scale = np.ones(2)

    def h(x):
        return x * params["w"] * scale

    jh = fg.jit(h, wait=True)
    jh(x)
    params["w"] = np.full(2, 3.0)
    assert jh(x).tolist() == [3.0, 3.0]
    scale = np.full(2, 2.0)  # (the closure's cell now holds another array)
    assert jh(x).tolist() == [6.0, 6.0]
