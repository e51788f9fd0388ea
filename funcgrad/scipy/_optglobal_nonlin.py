"""SciPy's large-scale nonlinear solvers of ``F(x) = 0`` (``broyden1``, ``broyden2``,
``anderson``, ``newton_krylov``, ``diagbroyden``, ``excitingmixing``, ``linearmixing``):
SciPy's search on concrete values, the root differentiable in the values ``F`` closes
over by the implicit function theorem at it, as :func:`.root`'s is (:mod:`._implicit_root`).

``F`` takes ``x`` alone in SciPy's interface, so what the root depends on is what ``F``
captures: traced values (of ``grad``, ``jvp``... or eager Tensors that require grad) are
lifted out of it and become the arguments the root is differentiated in.
"""
import inspect
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..tree import ravel
from ..typing import Array, ArrayLike
from ._implicit_root import differentiable_root, prepare, search

__all__ = ["broyden1", "broyden2", "anderson", "newton_krylov", "diagbroyden",
           "excitingmixing", "linearmixing", "SCIPY_NONLIN"]

# SciPy's objects of this family re-exported as they are (loaded with SciPy on first use)
SCIPY_NONLIN = ("NoConvergence", "BroydenFirst", "InverseJacobian", "KrylovJacobian",
                "BFGS", "SR1", "HessianUpdateStrategy", "LbfgsInvHessProduct")

# the keywords every solver shares, after those of its Jacobian approximation
_COMMON = (("verbose", False), ("maxiter", None), ("f_tol", None), ("f_rtol", None),
           ("x_tol", None), ("x_rtol", None), ("tol_norm", None), ("line_search", "armijo"),
           ("callback", None))

# each solver's own keywords (its Jacobian approximation's), and what it approximates
_SOLVERS = {
    "broyden1": ((("alpha", None), ("reduction_method", "restart"), ("max_rank", None)),
                 "Broyden's first Jacobian approximation (good Broyden)"),
    "broyden2": ((("alpha", None), ("reduction_method", "restart"), ("max_rank", None)),
                 "Broyden's second Jacobian approximation (bad Broyden)"),
    "anderson": ((("alpha", None), ("w0", 0.01), ("M", 5)),
                 "Anderson mixing, the extended Anderson method"),
    "newton_krylov": ((("rdiff", None), ("method", "lgmres"), ("inner_maxiter", 20),
                       ("inner_M", None), ("outer_k", 10)),
                      "Newton's method with Krylov inner solves of the Jacobian"),
    "diagbroyden": ((("alpha", None),), "a diagonal Broyden Jacobian approximation"),
    "excitingmixing": ((("alpha", None), ("alphamax", 1.0)),
                       "a tuned diagonal Jacobian approximation (exciting mixing)"),
    "linearmixing": ((("alpha", None),), "a scalar Jacobian approximation (linear mixing)"),
}

_DOC = """Find a root of ``F(x) = 0`` by {what}, with ``scipy.optimize.{name}``.

    SciPy's signature and return: the root, an array of ``xin``'s shape (integers in
    ``xin`` are solved in floats); ``F`` receives an array of that shape. A search that does
    not converge raises SciPy's ``NoConvergence`` (re-exported as
    ``funcgrad.scipy.optimize.NoConvergence``), as SciPy does.

    **Differentiable** in the values ``F`` closes over (traced by ``grad``/``jvp``/``vjp``...,
    or eager Tensors that require grad), by the implicit function theorem at the root:
    ``dx* = -J^-1 dF``, ``J`` the exact Jacobian of ``F`` in ``x`` there (funcgrad's, not
    the solver's approximation), solved densely, to any order. The root is as accurate as
    ``f_tol`` makes it (SciPy's default ``6e-6``), and its derivative is taken there: a
    tight ``f_tol`` gives an accurate derivative. A singular ``J`` (a root that is not
    isolated) raises when a derivative is asked. Under ``vmap`` or ``jit`` SciPy runs
    through ``fg.pure_callback`` (once per example).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import {name}
    >>> def F(x):   # x = 0.5 cos(x) + c, one equation per entry
    ...     return 0.5 * np.cos(x) + np.array([1.0, 2.0, 0.5]) - x
    >>> x = {name}(F, [0.0, 0.0, 0.0], f_tol=1e-12)
    >>> np.round(x, 6)
    array([1.187151, 1.858246, 0.83543 ])
    >>> # x(c) = 0.5 cos(x) + c moves with c as 1 / (1 + 0.5 sin x)
    >>> def root_of(c):
    ...     return {name}(lambda x: 0.5 * np.cos(x) + c - x, [0.0], f_tol=1e-12)[0]
    >>> bool(np.isclose(fg.grad(root_of)(1.0), 1 / (1 + 0.5 * np.sin(root_of(1.0)))))
    True
    """


def _nonlin(name, F, xin, options):
    """SciPy's ``name`` root of ``F`` from ``xin``, differentiable in what ``F`` captures."""
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    xin = fnp.asarray(xin)
    if xin.dtype.kind in "biu":
        xin = fnp.astype(xin, float)   # (SciPy solves integer starts in floats)
    fun, args, x0, plain_args, wanted = prepare(name, lambda x, *captured: F(x), xin, ())
    flat0, unravel = ravel(np.zeros(np.shape(x0), x0.dtype) if isinstance(x0, Tracer)
                           else x0)

    def solve(start, values):
        dtype = np.dtype(start.dtype)

        def residual(x):
            out = fun(np.asarray(x, dtype).reshape(np.shape(start)), *values)
            return np.asarray(out, float)

        x = getattr(optimize, name)(residual, np.asarray(start, float), **options)
        return optimize.OptimizeResult(x=np.asarray(x, dtype).reshape(np.shape(start))), None

    result, _, traced = search(solve, x0, plain_args, (), unravel)
    if not wanted:
        return result.x
    x_star = ravel(result.x)[0]
    return unravel(differentiable_root(
        lambda x: ravel(fun(unravel(x), *args))[0], x_star, lambda what: (
            f"{name}: the Jacobian of F in x at the root {what}, so the root's derivative "
            f"(-J^-1 times dF, by the implicit function theorem) does not exist: the root is "
            f"not isolated. Make the root simple (reformulate F), or pass "
            f"fg.stop_gradient(...) for the values F closes over")))


def _make(name):
    own, what = _SOLVERS[name]
    P = inspect.Parameter
    # (annotated as the typed API's functions are: F a callable, xin an array, the rest
    # SciPy's options)
    signature = inspect.Signature(
        [P("F", P.POSITIONAL_OR_KEYWORD, annotation=Callable[..., Any]),
         P("xin", P.POSITIONAL_OR_KEYWORD, annotation=ArrayLike),
         P("iter", P.POSITIONAL_OR_KEYWORD, default=None, annotation=Optional[int])]
        + [P(k, P.POSITIONAL_OR_KEYWORD, default=d, annotation=Any) for k, d in own + _COMMON]
        + [P("kw", P.VAR_KEYWORD, annotation=Any)], return_annotation=Array)

    def solver(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)   # (SciPy's positional order too)
        bound.apply_defaults()
        options = dict(bound.arguments)
        F, xin = options.pop("F"), options.pop("xin")
        options.update(options.pop("kw"))   # (SciPy passes the rest to the Jacobian)
        return _nonlin(name, F, xin, options)

    solver.__signature__ = signature
    solver.__name__ = solver.__qualname__ = name
    solver.__module__ = __name__
    solver.__doc__ = _DOC.format(name=name, what=what)
    return solver


broyden1 = _make("broyden1")
broyden2 = _make("broyden2")
anderson = _make("anderson")
newton_krylov = _make("newton_krylov")
diagbroyden = _make("diagbroyden")
excitingmixing = _make("excitingmixing")
linearmixing = _make("linearmixing")
