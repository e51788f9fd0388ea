"""SciPy's legacy scalar solvers: the minimizers ``fminbound``, ``brent`` and ``golden``
(calls of :func:`funcgrad.scipy.optimize.minimize_scalar` with the options SciPy's own
wrappers pass), ``bracket``, ``fixed_point``, and the bracketing root finders ``ridder``,
``brenth`` and ``toms748`` (the machinery of ``brentq``).

Each answer is differentiable in ``args`` (and in values the function closes over) by
the implicit function theorem at that answer: ``f'(x) = 0`` at a minimizer, ``f(x) = 0``
at a root, ``x - func(x) = 0`` at a fixed point.  ``bracket``'s points are a search's
iterates, with no such equation: asking them for a derivative raises.
"""
from typing import Any, Callable

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..core import is_special
from ._implicit_root import is_traced, prepare, wants_derivative
from ._minimize_scalar import minimize_scalar
from ._optlegacy_fmin import _fields
from ._scalar_roots import _bracketed, _solve

__all__ = ["fminbound", "brent", "golden", "bracket", "fixed_point", "ridder", "brenth",
           "toms748"]

_EPSILON = float(np.sqrt(np.finfo(float).eps))


def fminbound(func: Callable[..., Any], x1: float, x2: float, args: Any = (),
              xtol: float = 1e-5, maxfun: int = 500, full_output: int = 0,
              disp: int = 1) -> Any:
    """The minimizer of the scalar ``func(x, *args)`` on ``[x1, x2]`` by Brent's bounded
    method, as ``scipy.optimize.fminbound`` (``minimize_scalar(method='bounded')``).

    SciPy's signature and return: ``xopt``; with ``full_output`` ``(xopt, fval, ierr,
    numfunc)``. ``xopt`` is differentiable in ``args`` by the implicit function theorem
    at the minimum (a minimum on an end stays there: derivative zero).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import fminbound
    >>> round(float(fminbound(np.cos, 3, 4)), 5)   # SciPy's example: pi
    3.14159
    >>> # the minimizer of cosh(x) - a x on [-5, 5] is asinh(a): d/da = 1 / sqrt(1 + a**2)
    >>> round(float(fg.grad(lambda a: fminbound(lambda x, a: np.cosh(x) - a * x, -5, 5,
    ...                                         args=(a,), xtol=1e-10))(0.75)), 6)
    0.8
    """
    res = minimize_scalar(func, bounds=(x1, x2), args=args, method="bounded",
                          options={"xatol": xtol, "maxiter": maxfun, "disp": disp})
    return _fields(res, "fminbound", "x", "fun", "status", "nfev",
                   instead="minimize_scalar") if full_output else res.x


def brent(func: Callable[..., Any], args: Any = (), brack: Any = None, tol: float = 1.48e-8,
          full_output: int = 0, maxiter: int = 500) -> Any:
    """A local minimizer of the scalar ``func(x, *args)`` by Brent's method, as
    ``scipy.optimize.brent`` (``minimize_scalar(method='brent')``); ``brack``: a
    bracketing triple ``(a, b, c)`` or the two starting points of :func:`bracket`.

    SciPy's signature and return: ``xmin``; with ``full_output`` ``(xmin, fval, iter,
    funcalls)``. ``xmin`` is differentiable in ``args`` by the implicit function theorem.

    >>> import funcgrad as fg
    >>> from funcgrad.scipy.optimize import brent
    >>> def f(x):   # SciPy's example
    ...     return (x - 1) ** 2
    >>> xmin, fval, iters, funcalls = brent(f, brack=(-1, 0.5, 2), full_output=True)
    >>> round(float(xmin), 8), round(float(fval), 12)
    (1.0, 0.0)
    >>> # the minimizer of (x - a)**2 is a
    >>> float(fg.grad(lambda a: brent(lambda x, a: (x - a) ** 2, args=(a,)))(3.0))
    1.0
    """
    res = minimize_scalar(func, bracket=brack, args=args, method="brent",
                          options={"xtol": tol, "maxiter": maxiter})
    return _fields(res, "brent", "x", "fun", "nit", "nfev",
                   instead="minimize_scalar") if full_output else res.x


def golden(func: Callable[..., Any], args: Any = (), brack: Any = None,
           tol: float = _EPSILON, full_output: int = 0, maxiter: int = 5000) -> Any:
    """A local minimizer of the scalar ``func(x, *args)`` by golden-section search, as
    ``scipy.optimize.golden`` (``minimize_scalar(method='golden')``).

    SciPy's signature and return: ``xmin``; with ``full_output`` ``(xmin, fval,
    funcalls)``. ``xmin`` is differentiable in ``args`` by the implicit function theorem.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import golden
    >>> round(float(golden(lambda x: (x - 1) ** 2, brack=(1, 2))), 6)   # SciPy's example
    1.0
    >>> # the minimizer of x**4 / 4 - a x is a**(1/3): d/da = a**(-2/3) / 3
    >>> float(np.round(fg.grad(lambda a: golden(lambda x, a: x ** 4 / 4 - a * x,
    ...                                         args=(a,)))(8.0), 8))
    0.08333333
    """
    res = minimize_scalar(func, bracket=brack, args=args, method="golden",
                          options={"xtol": tol, "maxiter": maxiter})
    return _fields(res, "golden", "x", "fun", "nfev",
                   instead="minimize_scalar") if full_output else res.x


def bracket(func: Callable[..., Any], xa: float = 0.0, xb: float = 1.0, args: Any = (),
            grow_limit: float = 110.0, maxiter: int = 1000) -> Any:
    """Points that bracket a minimum of the scalar ``func(x, *args)``, by
    ``scipy.optimize.bracket`` (downhill from ``xa``, ``xb``, steps growing by the golden
    ratio and parabolic extrapolation).

    SciPy's signature and return: ``(xa, xb, xc, fa, fb, fc, funcalls)`` with ``fb`` below
    ``fa`` and ``fc``; SciPy's ``BracketError`` where none is found. The points are the
    search's iterates, which change by jumps as ``args`` change and solve no equation
    that could give them a derivative: ``args`` (or values ``func`` closes over) that
    carry a derivative raise, as do ``vmap`` and ``jit`` (the search needs concrete
    values). Pass the bracket to :func:`brent` or :func:`golden`, whose minimizer is
    differentiable.

    >>> import numpy as np
    >>> from funcgrad.scipy.optimize import bracket, brent
    >>> def f(x):   # SciPy's example
    ...     return 10 * x ** 2 + 3 * x + 5
    >>> xa, xb, xc, fa, fb, fc, funcalls = bracket(f, xa=0.1, xb=0.2)
    >>> bool(fb < fa and fb < fc), round(float(brent(f, brack=(xa, xb, xc))), 6)
    (True, -0.15)
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)
    ends = (xa, xb)
    if any(map(wants_derivative, tree.leaves(ends, is_special))):
        raise ValueError(_NO_DERIVATIVE.format("xa or xb carry"))
    # (prepare calls func once, at xa, to find values it closes over)
    func, _, _, plain_args, wanted = prepare("bracket", func,
                                             fnp.asarray(xa, dtype=np.float64), args)
    if wanted:
        raise ValueError(_NO_DERIVATIVE.format("args (or values func closes over) carry"))
    if is_traced(ends, plain_args):
        raise NotImplementedError(
            "bracket: the search needs concrete values, and its points are not an answer "
            "that vmap or jit could batch or trace: call bracket outside them (or brent or "
            "golden with brack=None, which bracket inside)")
    return optimize.bracket(func, xa=xa, xb=xb, args=tuple(plain_args),
                            grow_limit=grow_limit, maxiter=maxiter)


_NO_DERIVATIVE = ("bracket: {} a derivative, but bracket's points are a search's iterates: "
                  "they jump as the inputs change and have no derivative that could be "
                  "right. Differentiate the minimizer instead (brent or golden with this "
                  "bracket: the implicit function theorem gives it one), or pass "
                  "fg.stop_gradient(args) to bracket")


def fixed_point(func: Callable[..., Any], x0: Any, args: Any = (), xtol: float = 1e-8,
                maxiter: int = 500, method: str = "del2") -> Any:
    """A fixed point of ``func`` (``func(x, *args) == x``) by
    ``scipy.optimize.fixed_point``: Steffensen's iteration with Aitken's ``del2``
    acceleration (``method='del2'``), or plain iteration (``method='iteration'``);
    an array ``x0`` is iterated elementwise, as SciPy does.

    SciPy's signature and return (an array of ``x0``'s shape; a ``RuntimeError`` where it
    does not converge). The fixed point is differentiable in ``args`` (and in values
    ``func`` closes over) by the implicit function theorem on ``x - func(x) = 0``: ``dx =
    (I - J)^-1 (dfunc/dargs) dargs``, ``J`` the Jacobian of ``func`` in ``x`` there, to
    any order, under ``vmap`` and ``jit`` too; ``x0`` gets none. A fixed point where
    ``I - J`` is singular raises when a derivative is asked.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import fixed_point
    >>> def func(x, c1, c2):   # SciPy's example
    ...     return np.sqrt(c1 / (x + c2))
    >>> c1, c2 = np.array([10, 12.0]), np.array([3, 5.0])
    >>> fixed_point(func, [1.2, 1.3], args=(c1, c2))
    array([1.4920333 , 1.37228132])
    >>> # x = cos(a x): dx/da = -x sin(a x) / (1 + a sin(a x))
    >>> x_of = lambda a: fixed_point(lambda x, a: np.cos(a * x), 0.5, args=(a,))
    >>> x = x_of(1.0)
    >>> bool(np.isclose(fg.grad(x_of)(1.0), -x * np.sin(x) / (1 + np.sin(x))))
    True
    """
    import scipy.optimize as optimize

    def run(g, start, _, values):
        x = optimize.fixed_point(g, start, xtol=xtol, maxiter=maxiter, method=method)
        # (SciPy raises where it does not converge)
        return x, {"converged": True, "flag": "converged", "iterations": -1,
                   "function_calls": -1}

    def explain(what):
        return (f"fixed_point: the Jacobian of x - func(x) in x at the fixed point {what}, "
                f"so the fixed point's derivative in args ((I - J)^-1 times d func / d "
                f"args, by the implicit function theorem) does not exist: func's "
                f"derivative there is 1 along some direction (the fixed point is not "
                f"isolated). Reformulate func, or pass fg.stop_gradient(args) if no "
                f"derivative should flow through the fixed point")

    start = fnp.asarray(x0)
    if start.dtype.kind != "f":
        start = start.astype(float)   # (SciPy iterates integers as floats)
    x, _ = _solve("fixed_point", func, start, None, args, run,
                  lambda f: lambda x, *a: x - f(x, *a), explain)
    return x


def ridder(f: Callable[..., Any], a: float, b: float, args: Any = (), xtol: float = 2e-12,
           rtol: float = 8.881784197001252e-16, maxiter: int = 100,
           full_output: bool = False, disp: bool = True) -> Any:
    """A root of ``f(x, *args)`` in the bracket ``[a, b]`` by ``scipy.optimize.ridder``
    (Ridders' method). SciPy's signature and return (the root, or ``(x, r)`` with
    ``full_output``, ``r`` a ``RootResults``); the root is differentiable in ``args`` by
    the implicit function theorem, as :func:`brentq`'s.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import ridder
    >>> round(ridder(lambda x: x ** 2 - 1, 0, 2), 12)   # SciPy's example
    1.0
    >>> # the root of x**2 - c is sqrt(c): d/dc = 1 / (2 sqrt(c))
    >>> round(float(fg.grad(lambda c: ridder(lambda x, c: x ** 2 - c, 0.0, 5.0,
    ...                                       args=(c,)))(4.0)), 12)
    0.25
    """
    return _bracketed("ridder", f, a, b, args, xtol, rtol, maxiter, full_output, disp)


def brenth(f: Callable[..., Any], a: float, b: float, args: Any = (), xtol: float = 2e-12,
           rtol: float = 8.881784197001252e-16, maxiter: int = 100,
           full_output: bool = False, disp: bool = True) -> Any:
    """A root of ``f(x, *args)`` in the bracket ``[a, b]`` by ``scipy.optimize.brenth``
    (Brent's method with hyperbolic extrapolation). SciPy's signature and return, as
    :func:`brentq`'s; the root is differentiable in ``args`` the same way.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import brenth
    >>> round(brenth(lambda x: x ** 2 - 1, -2, 0), 12)   # SciPy's example
    -1.0
    >>> # the root of exp(x) - c is log(c): d/dc = 1 / c
    >>> round(float(fg.grad(lambda c: brenth(lambda x, c: np.exp(x) - c, 0.0, 3.0,
    ...                                       args=(c,)))(4.0)), 12)
    0.25
    """
    return _bracketed("brenth", f, a, b, args, xtol, rtol, maxiter, full_output, disp)


def toms748(f: Callable[..., Any], a: float, b: float, args: Any = (), k: int = 1,
            xtol: float = 2e-12, rtol: float = 8.881784197001252e-16, maxiter: int = 100,
            full_output: bool = False, disp: bool = True) -> Any:
    """A root of ``f(x, *args)`` in the bracket ``[a, b]`` by ``scipy.optimize.toms748``
    (Alefeld, Potra and Shi's Algorithm 748; ``k`` Newton-quadratic steps per
    iteration). SciPy's signature and return, as :func:`brentq`'s; the root is
    differentiable in ``args`` the same way.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import toms748
    >>> round(float(toms748(lambda x: x ** 3 - 1, -4, 4)), 12)   # SciPy's example
    1.0
    >>> # the root of x**3 - c is c**(1/3): d/dc = c**(-2/3) / 3
    >>> float(np.round(fg.grad(lambda c: toms748(lambda x, c: x ** 3 - c, 0.0, 4.0,
    ...                                            args=(c,)))(8.0), 12))
    0.083333333333
    """
    return _bracketed("toms748", f, a, b, args, xtol, rtol, maxiter, full_output, disp, k=k)
