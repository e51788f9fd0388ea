"""``linear_transpose``: the transpose of a linear function (JAX's
``jax.linear_transpose``).

For a linear ``f`` the VJP at any point is its transpose, so funcgrad records one
reverse pass at zero inputs and replays it for each cotangent.  A function that is not
linear would get a silently wrong "transpose"; two checks catch it where they can:
``f(0)`` must be 0 (not affine), and ``f(r)`` must equal the derivative at 0 applied to
``r`` for a random ``r`` (not curved, no kink at 0).  The checks need concrete values:
under ``jit`` (abstract tracing) they are skipped.
"""
from typing import Any, Callable

import numpy as np

from . import tree
from .api import vjp
from .forward_mode import _jvp
from .core import ConcretizationError, concrete, dtype_of

__all__ = ["linear_transpose"]


def _zeros_like_declared(leaf, k):
    shape, dtype = getattr(leaf, "shape", None), getattr(leaf, "dtype", None)
    if shape is None or dtype is None:
        leaf = np.asarray(leaf)
        shape, dtype = leaf.shape, leaf.dtype
    dtype = np.dtype(dtype)
    if dtype.kind not in "fc":
        raise TypeError(f"linear_transpose transposes functions of floating-point or "
                        f"complex inputs; primal leaf {k} has dtype {dtype}. Declare it "
                        f"as a float (e.g. np.zeros(shape, np.float64)).")
    return np.zeros(tuple(shape), dtype)


def _random_like(x, rng):
    r = rng.standard_normal(x.shape)
    if x.dtype.kind == "c":
        r = r + 1j * rng.standard_normal(x.shape)
    return r.astype(x.dtype)


def _check_linear(flat_fun, zeros, outs):
    """Raise ValueError if ``flat_fun`` is visibly not linear (see the module's note)."""
    try:
        at_zero = [np.asarray(concrete(o)) for o in outs]
    except ConcretizationError:  # traced abstractly (jit): no values to compare
        return
    for k, value in enumerate(at_zero):
        if np.any(value != 0):
            raise ValueError(f"linear_transpose: the function is not linear: output {k} is "
                             f"not zero at zero inputs (an affine function has no "
                             f"transpose). Subtract the offset, or use fg.vjp at a point "
                             f"for the derivative of a nonlinear function.")
    rng = np.random.default_rng(0)
    r = [_random_like(z, rng) for z in zeros]
    try:
        value = [np.asarray(concrete(o)) for o in tree.leaves(flat_fun(*r))]
        derivative = [np.asarray(concrete(t)) for t in tree.leaves(
            _jvp(flat_fun, tuple(zeros), tuple(r), False, "jvp")[1])]
    except ConcretizationError:
        return
    for k, (v, d) in enumerate(zip(value, derivative)):
        scale = max(np.max(np.abs(v), initial=0.0), np.max(np.abs(d), initial=0.0), 1e-300)
        tol = 1e-3 if np.finfo(v.dtype).bits <= 32 else 1e-8
        if np.max(np.abs(v - d), initial=0.0) > tol * scale:
            raise ValueError(f"linear_transpose: the function is not linear: output {k} at "
                             f"a random input differs from its derivative at zero applied "
                             f"to that input. linear_transpose needs a linear function (a "
                             f"matrix product, sums, slices...); for a nonlinear one take "
                             f"fg.vjp at a point.")


def linear_transpose(fun: Callable[..., Any], *primals: Any,
                     reduce_axes: tuple[Any, ...] = ()) -> Callable[[Any], tuple[Any, ...]]:
    """The transpose of the linear function ``fun``: ``linear_transpose(fun, *primals)``
    returns ``f_t`` with ``f_t(cotangent)`` a tuple shaped like ``primals`` (only their
    ``.shape`` and ``.dtype`` are read) such that ``<f_t(c), x> = <c, fun(x)>``.
    Raises ValueError if ``fun`` is visibly not linear (not zero at zero, or not equal
    to its own derivative).

    >>> import numpy as np, funcgrad as fg
    >>> a = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> f_t = fg.linear_transpose(lambda x: a @ x, np.zeros(2))
    >>> f_t(np.array([1.0, 0.0, 1.0]))     # a.T @ c
    (array([6., 8.]),)
    """
    if reduce_axes:
        raise NotImplementedError("linear_transpose: reduce_axes is not supported (JAX "
                                  "deprecated it too); sum the result yourself")
    declared, in_tree = tree.flatten(primals,
                                     lambda x: hasattr(x, "shape") and hasattr(x, "dtype"))
    zeros = [_zeros_like_declared(leaf, k) for k, leaf in enumerate(declared)]

    def flat_fun(*xs):
        return fun(*tree.unflatten(in_tree, list(xs)))

    out, pullback = vjp(flat_fun, *zeros)
    outs, out_tree = tree.flatten(out)
    for k, o in enumerate(outs):
        dtype = dtype_of(o)
        if dtype.kind not in "fc":
            raise TypeError(f"linear_transpose: output {k} has dtype {dtype}; a linear "
                            f"function returns floating-point or complex values")
    _check_linear(flat_fun, zeros, outs)

    def transposed(cotangent: Any) -> tuple[Any, ...]:
        if tree.flatten(cotangent)[1] != out_tree:
            raise TypeError(f"linear_transpose: the cotangent has structure "
                            f"{tree.flatten(cotangent)[1]}, but the function returns "
                            f"{out_tree}; pass one cotangent per output")
        return tree.unflatten(in_tree, list(pullback(cotangent)))

    return transposed
