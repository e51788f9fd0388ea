"""``funcgrad.scipy.optimize.root_scalar``, ``brentq``, ``bisect`` and ``newton``: SciPy's
scalar root finders, the root differentiable in ``args`` by the implicit function
theorem (:mod:`._implicit_root`): ``dx* = -(df/dargs) / (df/dx)`` at the root.
"""
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..api import grad
from ..core import Tracer, is_special
from ..tree import ravel
from ._implicit_root import (differentiable_root, is_traced, plain, prepare, refuse_failed,
                             solve_traced)
from ._rich_result import RichResult

__all__ = ["root_scalar", "brentq", "bisect", "newton"]

_BRACKETED = {"bisect", "brentq", "brenth", "ridder", "toms748"}
# (what a traced call returns: RootResults' array fields)
_TRACED_FIELDS = (("converged", np.bool_), ("iterations", np.int64),
                  ("function_calls", np.int64))


def _solve(name, f, start, extra, args, run, root_of=None, explain=None):
    """``(x, info)``: the root ``run(g, start, extra)`` finds for ``g(x) = f(x, *args)``
    (SciPy's, on plain values: ``(x, info)``, ``info`` with ``converged``, ``flag``,
    ``iterations``, ``function_calls``), differentiable in ``args`` and in values ``f``
    closes over; ``x`` exactly SciPy's where nothing is traced or differentiated.
    ``start``: the root's first guess (its shape and dtype are the root's); ``extra``:
    other plain inputs of ``run`` (a bracket's end, ``x1``).  ``root_of(f)``, where given,
    is the function whose root ``run``'s answer is (a minimizer's: ``df/dx``), the root
    that is differentiated; ``explain(what)``, where given, the error for a singular
    Jacobian of that equation (by default a root's, or with ``root_of`` a minimizer's)."""
    f, args, start, plain_args, wanted = prepare(name, f, start, args)
    equation = f if root_of is None else root_of(f)
    extra = tree.tree_map(lambda v: plain(v, name), extra, is_leaf=is_special)
    like = np.zeros(np.shape(start), start.dtype) if isinstance(start, Tracer) else start
    flat0, unravel = ravel(like)

    def solve(x0, inputs):
        extra_values, values = inputs
        x, info = run(lambda x: f(x, *values), x0, extra_values, values)
        if wanted and not info["converged"]:
            raise refuse_failed(name, info["flag"])
        return _Found(x=np.asarray(x, flat0.dtype), raw=x, **info), None

    if not is_traced(start, extra, plain_args):
        found, _ = solve(start, (extra, plain_args))
        if not wanted:
            return found.raw, found
        x = found.x
    else:  # (vmap, jit: SciPy called back with the values)
        flat_x, fields, _ = solve_traced(solve, start, (extra, plain_args), _TRACED_FIELDS)
        x, found = unravel(flat_x), _Found(**fields)
    if wanted:
        x = unravel(differentiable_root(
            lambda z: ravel(equation(unravel(z), *args))[0], ravel(x)[0],
            explain or (lambda what: (
                f"{name}: the derivative of f in x at the root {what}, so the root's "
                f"derivative in args (-(df/dargs) / (df/dx), by the implicit function "
                f"theorem) does not exist: the root is a multiple one (f touches zero "
                f"without crossing it, as x**2 does at 0). Reformulate f so that its root "
                f"is simple, or pass fg.stop_gradient(args) if no derivative should flow "
                f"through the root") if root_of is None else (
                f"{name}: the second derivative of fun in x at the minimum {what}, so the "
                f"minimizer's derivative in args (-(d2f/dx dargs) / (d2f/dx2), by the "
                f"implicit function theorem) does not exist: the minimum is flat (as x**4's "
                f"at 0). Reformulate fun, or pass fg.stop_gradient(args) if no derivative "
                f"should flow through the minimizer"))))
    return x, found


class _Found(RichResult):
    """What a search reported (a dict, so that ``solve_traced`` reads its fields)."""


def _info(results):
    """The fields ``_solve`` reads, from SciPy's RootResults."""
    return {"converged": bool(results.converged), "flag": results.flag,
            "iterations": results.iterations, "function_calls": results.function_calls,
            "results": results}


def _results(x, found, method, optimize):
    """SciPy's RootResults with ``root`` set to ``x`` (which may carry a derivative); under
    vmap/jit a RootResults of its array fields (no ``flag``: SciPy's message stays on the
    host)."""
    results = found.get("results")
    if results is None:
        traced = optimize.RootResults(root=x, iterations=found["iterations"],
                                      function_calls=found["function_calls"], flag=None,
                                      method=method)
        traced.converged = found["converged"]
        del traced["flag"]
        return traced
    results.root = x
    return results


def _bracketed(name, f, a, b, args, xtol, rtol, maxiter, full_output, disp, **keywords):
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)
    search = getattr(optimize, name)

    def run(g, start, end, values):
        x, results = search(g, float(start), float(end), xtol=xtol, rtol=rtol,
                            maxiter=maxiter, full_output=True, disp=disp, **keywords)
        return x, _info(results)

    start = fnp.asarray(plain(a, name), dtype=np.float64)   # (SciPy solves in floats)
    x, found = _solve(name, f, start, b, args, run)
    return (x, _results(x, found, name, optimize)) if full_output else x


def brentq(f: Callable[..., Any], a: float, b: float, args: Any = (),
           xtol: float = 2e-12, rtol: float = 8.881784197001252e-16, maxiter: int = 100,
           full_output: bool = False, disp: bool = True) -> Any:
    """A root of ``f(x, *args)`` in the bracket ``[a, b]`` by ``scipy.optimize.brentq``
    (Brent's method: inverse quadratic interpolation safeguarded by bisection).

    SciPy's signature and return: the root (a float), or with ``full_output`` ``(x, r)``,
    ``r`` SciPy's ``RootResults``; ``f(a)`` and ``f(b)`` must differ in sign.

    The root is differentiable in ``args`` (and in values ``f`` closes over) by the
    implicit function theorem: ``dx/dargs = -(df/dargs) / (df/dx)`` at the root, to any
    order, under ``vmap`` and ``jit`` (SciPy called back per example) too; the bracket
    gets no derivative (the root does not depend on it). A search that did not converge,
    or a root where ``df/dx = 0``, raises when a derivative is asked.

    >>> import funcgrad as fg
    >>> from funcgrad.scipy.optimize import brentq
    >>> def f(x):   # SciPy's example
    ...     return x ** 2 - 1
    >>> round(brentq(f, -2, 0), 12), round(brentq(f, 0, 2), 12)
    (-1.0, 1.0)
    >>> # the root of x**2 - c is sqrt(c): its derivative is 1 / (2 sqrt(c))
    >>> round(float(fg.grad(lambda c: brentq(lambda x, c: x ** 2 - c, 0.0, 5.0,
    ...                                       args=(c,)))(4.0)), 12)
    0.25
    """
    return _bracketed("brentq", f, a, b, args, xtol, rtol, maxiter, full_output, disp)


def bisect(f: Callable[..., Any], a: float, b: float, args: Any = (),
           xtol: float = 2e-12, rtol: float = 8.881784197001252e-16, maxiter: int = 100,
           full_output: bool = False, disp: bool = True) -> Any:
    """A root of ``f(x, *args)`` in the bracket ``[a, b]`` by ``scipy.optimize.bisect``.

    SciPy's signature and return, as :func:`brentq`'s; the root is differentiable in
    ``args`` the same way (the implicit function theorem, never the halvings).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import bisect
    >>> def f(x):   # SciPy's example
    ...     return x ** 2 - 1
    >>> round(bisect(f, 0, 2), 10)
    1.0
    >>> # x - cos(a x) = 0 moves with a as -x sin(a x) / (1 + a sin(a x))
    >>> def x_of(a):
    ...     return bisect(lambda x, a: x - np.cos(a * x), 0.0, 2.0, args=(a,))
    >>> x = x_of(1.0)
    >>> bool(np.isclose(fg.grad(x_of)(1.0), -x * np.sin(x) / (1 + np.sin(x))))
    True
    """
    return _bracketed("bisect", f, a, b, args, xtol, rtol, maxiter, full_output, disp)


def _derivatives(g, second=False):
    """The derivatives SciPy's newton reads, of ``g`` elementwise: ``(fprime, fprime2)``
    (``fprime2`` None unless ``second``)."""
    first = grad(lambda x: fnp.sum(g(x)))
    twice = grad(lambda x: fnp.sum(first(x)))
    return _like_x(first), _like_x(twice) if second else None


def _like_x(derivative):
    """``derivative`` returning plain values in ``x``'s floating dtype (a float32 scalar
    root stays float32 in SciPy's newton only if its derivatives are float32 too)."""
    def plain_derivative(x):
        dtype = np.asarray(x).dtype
        return np.asarray(derivative(x), dtype=dtype if dtype.kind == "f" else float)[()]
    return plain_derivative


def _given(name, which, value, values, computed, args):
    """SciPy's derivative argument ``which``: the user's function (called with the plain
    ``args``: it steers the search, the root's own derivative is funcgrad's), or
    ``computed()`` where ``value`` is True; a bool True in root_scalar means something else
    in SciPy (f returns the derivative too), which funcgrad does not take."""
    if value is None or value is False:
        return None
    if callable(value):   # (values: args, then the captured values funcgrad appended)
        n = len(args) if isinstance(args, tuple) else 1
        return lambda x: value(x, *values[:n])
    if value is True and computed is not None:
        return computed()
    raise ValueError(f"{name}: {which}={value!r} is not supported: pass a function, or leave "
                     f"{which} out and funcgrad computes it from f")


def newton(func: Callable[..., Any], x0: Any, fprime: Any = None, args: Any = (),
           tol: float = 1.48e-08, maxiter: int = 50, fprime2: Any = None, x1: Any = None,
           rtol: float = 0.0, full_output: bool = False, disp: bool = True) -> Any:
    """A root of ``func(x, *args)`` near ``x0`` by ``scipy.optimize.newton``: the secant
    method (SciPy's choice without ``fprime``), Newton's with ``fprime``, Halley's with
    ``fprime`` and ``fprime2``: functions ``fprime(x, *args)`` as in SciPy, or ``True`` for
    funcgrad to compute them from ``func``.

    SciPy's signature and return (the root; with ``full_output`` SciPy's tuple). An array ``x0``
    solves elementwise (``func`` must act elementwise, as SciPy requires). The root has
    ``x0``'s dtype where SciPy keeps it (a float32 scalar stays float32).

    The root is differentiable in ``args`` (and in values ``func`` closes over) by the
    implicit function theorem, ``dx/dargs = -(df/dargs) / (df/dx)``, to any order,
    under ``vmap`` and ``jit`` too; ``x0`` gets no derivative. A search that did not
    converge, or a root where ``df/dx = 0``, raises when a derivative is asked.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import newton
    >>> def f(x):   # SciPy's example
    ...     return x ** 3 - 1
    >>> round(float(newton(f, 1.5)), 10), round(float(newton(f, 1.5, fprime=True)), 10)
    (1.0, 1.0)
    >>> round(float(newton(f, 1.5, fprime=lambda x: 3 * x ** 2)), 10)
    1.0
    >>> # the root of x**3 - c is c**(1/3): its derivative is c**(-2/3) / 3
    >>> float(fg.grad(lambda c: newton(lambda x, c: x ** 3 - c, 1.5, args=(c,)))(8.0))
    0.08333333333333333
    """
    import scipy.optimize as optimize

    def run(g, start, second, values):
        derivative = _given("newton", "fprime", fprime, values, lambda: _derivatives(g)[0],
                            args)
        derivative2 = _given("newton", "fprime2", fprime2, values,
                             lambda: _derivatives(g, True)[1], args) if derivative else None
        out = optimize.newton(g, start if np.ndim(start) else start[()], fprime=derivative,
                              tol=tol, maxiter=maxiter, fprime2=derivative2, x1=second,
                              rtol=rtol, full_output=True, disp=disp)
        if np.ndim(start):   # (arrays: SciPy's (root, converged, zero_der))
            return out[0], {"converged": bool(np.all(out.converged)), "iterations": -1,
                            "function_calls": -1, "output": out,
                            "flag": f"{int(np.sum(~out.converged))} of {out.converged.size} "
                                    f"elements did not converge"}
        return out[0], dict(_info(out[1]), output=out)

    start = fnp.asarray(x0)
    if start.dtype.kind != "f":
        start = start.astype(float)   # (SciPy's newton takes integers and solves in floats)
    x, found = _solve("newton", func, start, x1, args, run)
    if not full_output:
        return x
    if "output" not in found:
        raise NotImplementedError(
            "newton: full_output=True under vmap or jit: SciPy's objects cannot come back "
            "from a traced call. Call funcgrad.scipy.optimize.root_scalar instead: its "
            "result holds root, converged, iterations and function_calls as arrays")
    output = found["output"]
    if np.ndim(x):
        return type(output)(x, *output[1:])
    output[1].root = x
    return (x, *output[1:])


def root_scalar(f: Callable[..., Any], args: Any = (), method: Optional[str] = None,
                bracket: Any = None, fprime: Any = None, fprime2: Any = None, x0: Any = None,
                x1: Any = None, xtol: Optional[float] = None, rtol: Optional[float] = None,
                maxiter: Optional[int] = None, options: Optional[dict] = None) -> Any:
    """A root of the scalar ``f(x, *args)`` by ``scipy.optimize.root_scalar``; the
    derivatives ``newton`` and ``halley`` read are your ``fprime(x, *args)`` and
    ``fprime2`` as in SciPy, or where left out computed by funcgrad (SciPy's
    ``fprime=True``, f returning its derivative too, is not taken).

    SciPy's signature, choice of method (``brentq`` given a bracket; else ``secant``
    given ``x1``, else ``newton``) and ``RootResults`` (``root``, ``converged``, ``flag``,
    ``iterations``, ``function_calls``, ``method``). ``newton`` gets the exact ``f'`` in
    place of SciPy's finite differences.

    ``sol.root`` is differentiable in ``args`` (and in values ``f`` closes over) by the
    implicit function theorem, ``dx/dargs = -(df/dargs) / (df/dx)``, to any order,
    whichever method found it, under ``vmap`` and ``jit`` too (then the ``RootResults``
    holds ``root``, ``converged``, ``iterations`` and ``function_calls`` as arrays, and
    ``method``). A search that did not converge, or a root where ``df/dx = 0``, raises when a
    derivative is asked.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import root_scalar
    >>> def f(x):   # SciPy's example
    ...     return x ** 3 - 1
    >>> sol = root_scalar(f, bracket=[0, 3], method="brentq")
    >>> round(sol.root, 12), sol.converged, sol.method
    (1.0, True, 'brentq')
    >>> sol = root_scalar(f, x0=0.2, method="halley")
    >>> round(float(sol.root), 12), sol.converged
    (1.0, True)
    >>> # x e**x = w is Lambert's W(w): W'(w) = W / (w (1 + W))
    >>> def lambert_w(w):
    ...     return root_scalar(lambda x, w: x * np.exp(x) - w, args=(w,), x0=1.0).root
    >>> w = lambert_w(2.0)
    >>> bool(np.isclose(fg.grad(lambert_w)(2.0), w / (2.0 * (1 + w))))
    True
    """
    import scipy.optimize as optimize

    if not method:
        method = ("brentq" if bracket is not None else "secant" if x1 is not None
                  else "newton" if x0 is not None else None)
    if not method:
        raise ValueError("Unable to select a solver as neither bracket nor starting point "
                         "provided.")
    method = method.lower()
    if method in _BRACKETED:
        if not isinstance(bracket, (list, tuple, np.ndarray)):
            raise ValueError(f"Bracket needed for {method}")
        start, extra = fnp.asarray(plain(bracket[0], "root_scalar"), dtype=np.float64), \
            (bracket[1], x1)
    elif x0 is None:
        raise ValueError(f"x0 must not be None for {method}")
    else:
        start, extra = fnp.asarray(x0), (None, x1)
        if start.dtype.kind != "f":
            start = start.astype(float)

    def run(g, first, ends, values):
        end, second = ends
        derivatives = {}
        if method in ("newton", "halley"):
            ours = _derivatives(g, method == "halley")
            derivatives = {"fprime": _given("root_scalar", "fprime", fprime, values, None,
                                            args) or ours[0],
                           "fprime2": _given("root_scalar", "fprime2", fprime2, values, None,
                                             args) or ours[1]}
        where = {"bracket": [float(first), float(end)]} if method in _BRACKETED else \
            {"x0": first[()], "x1": second}
        results = optimize.root_scalar(g, method=method, xtol=xtol, rtol=rtol,
                                       maxiter=maxiter, options=options, **where,
                                       **derivatives)
        return results.root, _info(results)

    x, found = _solve("root_scalar", f, start, extra, args, run)
    return _results(x, found, method, optimize)
