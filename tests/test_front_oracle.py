"""The whole NumPy front under one oracle: for every entry point funcgrad accepts, the
derivative matches central differences, or a clear exception is raised; never a silently
different number.

Every public callable of ``funcgrad.numpy`` (and the same NumPy function reached through
``__array_function__`` / ``__array_ufunc__``, as plain ``numpy`` code reaches it) is called
with a few argument patterns on random float arrays; each pattern it accepts on plain
arrays is differentiated (reverse mode, and forward mode for the dot-product-free check
``jvp == <grad, v>``) and compared with finite differences of the plain function.  Inputs
are drawn away from kinks (the functions are evaluated where they are smooth), so a
mismatch is a wrong derivative, not a subgradient choice.
"""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

RNG = np.random.default_rng(11)
A = RNG.uniform(0.3, 0.9, (3, 4))
B = RNG.uniform(0.3, 0.9, (3, 4))
SQUARE = RNG.uniform(0.3, 0.9, (3, 3)) + 3 * np.eye(3)
VECTOR = RNG.uniform(0.3, 0.9, 4)
VECTOR2 = RNG.uniform(0.3, 0.9, 4)  # (never equal to VECTOR: no ties, no kinks)
PATTERNS = [(A,), (A, B), (A, 1), (A, 0), (SQUARE,), (VECTOR,), (VECTOR, VECTOR2), (A, B.T)]
for _fixture in (A, B, SQUARE, VECTOR, VECTOR2):  # np.abs(A, B) would write into B (out=),
    _fixture.flags.writeable = False  # np.put(A, ...) into A: make them inputs only
EPS = 1e-6

# NumPy's own names funcgrad re-exports (dtypes, constants, constructors of constants):
# nothing to differentiate.
NOT_FUNCTIONS = {"bool_", "dtype", "finfo", "iinfo", "float16", "float32", "float64", "int8",
                 "int16", "int32", "int64", "uint8", "intp", "ndarray", "floating", "integer",
                 "inexact", "issubdtype", "result_type", "linalg",
                 "stop_gradient"}  # (its zero derivative is its meaning)
# A clear refusal is one of these, with a message.
CLEAR = (TypeError, ValueError, IndexError, NotImplementedError, ArithmeticError,
         np.linalg.LinAlgError)


def _entry_points():
    names = [n for n in fnp.__all__ if n not in NOT_FUNCTIONS and callable(getattr(fnp, n))]
    return sorted(set(names))


def _float_leaves(out):
    leaves = fg.tree.leaves(out)
    if not leaves or any(np.asarray(o).dtype.kind != "f" for o in leaves):
        return None
    return [np.asarray(o) for o in leaves]


def _first_accepted(fn):
    """The argument patterns ``fn`` accepts on plain arrays, with float results."""
    accepted = []
    for args in PATTERNS:
        try:
            with np.errstate(all="ignore"):
                out = fn(*args)
        except Exception:  # noqa: BLE001 - this pattern is not a valid call
            continue
        leaves = _float_leaves(out)
        if leaves is not None and all(np.all(np.isfinite(o)) for o in leaves):
            accepted.append(args)
    return accepted


def _check(fn, args, what):
    """Reverse and forward derivative of ``sum(w * fn(x, *rest))`` against differences."""
    x, rest = args[0], args[1:]
    leaves = _float_leaves(fn(*args))
    weights = [RNG.standard_normal(o.shape) for o in leaves]

    def scalar(v):
        return sum(np.sum(np.asarray(o) * w)
                   for o, w in zip(fg.tree.leaves(fn(v, *rest)), weights))

    def scalar_traced(v):
        total = 0.0
        for o, w in zip(fg.tree.leaves(fn(v, *rest)), weights):
            total = total + fnp.sum(o * w)
        return total

    try:
        grad = np.asarray(fg.grad(scalar_traced)(x))
        direction = RNG.standard_normal(x.shape)
        _, tangent = fg.jvp(scalar_traced, (x,), (direction,))
    except CLEAR as e:  # a refusal: fine, if it says something
        assert str(e).strip(), f"{what}: {type(e).__name__} without a message"
        return
    fd = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = EPS
        fd[i] = (scalar(x + e) - scalar(x - e)) / (2 * EPS)
    scale = max(1.0, np.abs(fd).max())
    np.testing.assert_allclose(grad, fd, rtol=0, atol=1e-5 * scale,
                               err_msg=f"{what}: gradient vs central differences")
    np.testing.assert_allclose(float(tangent), float(np.sum(grad * direction)), rtol=1e-7,
                               atol=1e-9 * scale, err_msg=f"{what}: jvp vs <grad, v>")


@pytest.mark.parametrize("name", _entry_points())
def test_every_numpy_front_function_differentiates_right_or_refuses(name):
    fn = getattr(fnp, name)
    for args in _first_accepted(fn):
        _check(fn, args, f"fnp.{name}{tuple(np.shape(a) for a in args)}")


# NumPy's np.bmat returns None for an object that is not an ndarray, a list or a string
# (a traced value): no result, so nothing to differentiate (fnp.bmat refuses, above)
_NO_RESULT = {"bmat"}


@pytest.mark.parametrize("name", [n for n in _entry_points() if callable(getattr(np, n, None))
                                  and not isinstance(getattr(np, n), type)
                                  and n not in _NO_RESULT])
def test_plain_numpy_calls_differentiate_right_or_refuse(name):
    """The same entry points as plain ``numpy`` code calls them on traced values."""
    fn = getattr(np, name)
    for args in _first_accepted(fn):
        _check(fn, args, f"np.{name}{tuple(np.shape(a) for a in args)}")
