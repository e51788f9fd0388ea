"""``funcgrad.scipy.differentiate``: SciPy 1.15's ``derivative``, ``jacobian`` and
``hessian`` with SciPy's signatures and result fields, the derivatives computed exactly
by funcgrad's transforms (``jvp``, ``jacfwd``, ``hessian``) rather than by SciPy's
extrapolated finite differences.

What differs from SciPy, field by field: ``df``/``ddf`` are exact (to rounding) where
SciPy's are accurate to its tolerances; ``error`` is 0 (there is no difference of
successive estimates to report: the value is not an estimate); ``nit`` is 0 and
``nfev`` counts the calls of ``f`` made (one per point, through the transform); ``status``
is 0 and ``success`` True where the derivative is finite, else SciPy's -3 ("a non-finite
value was encountered") and False.  ``tolerances``, ``maxiter``, ``order``,
``initial_step``, ``step_factor`` and ``step_direction`` are checked as SciPy checks them
and have no other effect (one-sided differences exist for a function defined on one side
only; traced, such a function must still be defined at ``x``).  ``f`` must be written
with operations funcgrad traces (NumPy's functions and ufuncs, ``funcgrad.numpy``);
the results are themselves differentiable (nested transforms).
"""
from typing import Any, Callable

import numpy as np

from .. import numpy as fnp
from ..batched import vmap
from ..forward_mode import jvp
from ..jacobians import hessian as _hessian
from ..jacobians import jacfwd
from ..lax import stop_gradient
from ..numpy._convert import asarray
from ..typing import ArrayLike
from ._rich_result import RichResult

__all__ = ["derivative", "jacobian", "hessian"]




def _check(name, tolerances, maxiter, order, initial_step, step_factor, step_direction):
    """SciPy's checks of the finite-difference options (here they choose nothing)."""
    tolerances = {} if tolerances is None else tolerances
    if not isinstance(tolerances, dict) or set(tolerances) - {"atol", "rtol"}:
        raise ValueError(f"{name}: `tolerances` must be a dictionary with keys 'atol' and "
                         f"'rtol'.")
    for key, value in tolerances.items():
        if value is not None and np.any(np.asarray(value) < 0):
            raise ValueError("Tolerances must be non-negative scalars.")
    if not (isinstance(maxiter, (int, np.integer)) and maxiter > 0):
        raise ValueError("`maxiter` must be a positive integer.")
    if not (isinstance(order, (int, np.integer)) and order > 0):
        raise ValueError("`order` must be a positive integer.")
    if np.any(np.asarray(initial_step) <= 0):
        raise ValueError("`initial_step` must contain only positive numbers.")
    if not np.all(np.asarray(step_factor) > 0) or np.ndim(step_factor):
        raise ValueError("`step_factor` must be a positive real scalar.")
    if np.any(~np.isin(np.sign(np.asarray(step_direction)), (-1, 0, 1))):
        raise ValueError("`step_direction` must contain only -1, 0 or 1.")


def _floats(x, name):
    xs = asarray(x)
    if xs.dtype.kind not in "fc":
        if xs.dtype.kind not in "biu":
            raise ValueError(f"{name}: `x` must be numeric, got dtype {xs.dtype}")
        xs = fnp.astype(xs, np.float64)
    return xs


def _result(values, key, shape, nfev, extra=None):
    """The result fields around the exact ``values`` (see the module's docstring)."""
    finite = np.isfinite(np.asarray(stop_gradient(values)))
    if finite.shape != shape:
        finite = np.broadcast_to(np.all(finite), shape)
    status = np.where(finite, 0, -3)
    out = RichResult(status=status, success=status == 0)
    out[key] = values
    out.update(error=np.zeros(shape), nfev=np.full(shape, nfev))
    out.update(extra or {})
    return out


def derivative(f: Callable, x: ArrayLike, *, args: Any = (), tolerances: Any = None,
               maxiter: int = 10, order: int = 8, initial_step: Any = 0.5,
               step_factor: float = 2.0, step_direction: Any = 0,
               preserve_shape: bool = False, callback: Any = None) -> RichResult:
    """The derivative of the elementwise function ``f(x, *args)`` at each element of ``x``
    (``scipy.differentiate.derivative``), exact, by forward mode (one ``jvp``).  Returns
    SciPy's result: ``df``, ``x``, ``success``, ``status``, ``error`` (0: not an
    estimate), ``nit`` (0), ``nfev`` (1) -- see the module's docstring for what differs
    from SciPy's finite differences.  ``args`` broadcast with ``x``.  ``preserve_shape``
    and ``callback`` (of SciPy's iterations) raise NotImplementedError.

    >>> import numpy as np, funcgrad.scipy.differentiate as fsd
    >>> res = fsd.derivative(np.exp, np.array([0.0, 1.0]))
    >>> res.df, res.success, res.nit
    (array([1.        , 2.71828183]), array([ True,  True]), array([0, 0]))
    """
    if preserve_shape:
        raise NotImplementedError("derivative: preserve_shape=True (f not elementwise) is "
                                  "not supported; use fg.jacfwd for a function of a whole "
                                  "array")
    if callback is not None:
        raise NotImplementedError("derivative: callback sees SciPy's iterations, and the "
                                  "exact derivative takes none; leave it None")
    if not callable(f):
        raise ValueError("`f` must be callable.")
    _check("derivative", tolerances, maxiter, order, initial_step, step_factor,
           step_direction)
    args = args if isinstance(args, (tuple, list)) else (args,)
    xs = _floats(x, "derivative")
    arg_vals = [asarray(a) for a in args]
    shape = np.broadcast_shapes(xs.shape, *[a.shape for a in arg_vals])
    xs = fnp.broadcast_to(xs, shape)
    arg_vals = [fnp.broadcast_to(a, shape) for a in arg_vals]

    def elementwise(v):
        out = asarray(f(v, *arg_vals))
        if out.shape != shape:
            raise ValueError(f"derivative: f must be elementwise (its value's shape {shape},"
                             f" x's with args broadcast), got shape {out.shape}")
        return out

    _, df = jvp(elementwise, (xs,), (fnp.ones(shape, xs.dtype),))
    res = _result(df, "df", shape, 1, {"x": xs})
    res["nit"] = np.zeros(shape, int)
    return res


def _batched(transform, f, xs, name):
    """``transform(f)`` at ``xs`` (shape ``(m, ...)``): once for a 1-d ``xs``, else mapped
    over its trailing axes (``f`` is vectorized over them, as SciPy's), the result's
    leading axes the transform's."""
    if xs.ndim == 0:
        raise ValueError(f"{name}: `x` must have at least one axis (its first is the "
                         f"variable's)")
    if xs.ndim == 1:
        return transform(f)(xs)
    batch = xs.shape[1:]
    columns = fnp.reshape(xs, (xs.shape[0], -1))
    out = vmap(transform(f), in_axes=1, out_axes=-1)(columns)
    return fnp.reshape(out, out.shape[:-1] + batch)


def jacobian(f: Callable, x: ArrayLike, *, tolerances: Any = None, maxiter: int = 10,
             order: int = 8, initial_step: Any = 0.5, step_factor: float = 2.0,
             step_direction: Any = 0) -> RichResult:
    """The Jacobian of ``f`` at ``x`` (``scipy.differentiate.jacobian``): ``f`` maps an
    array of shape ``(m, ...)`` to one of shape ``(n, ...)``, vectorized over the
    trailing axes; ``df[i, j] = d f_i / d x_j`` of shape ``(n, m, ...)``, exact by
    forward mode (``jacfwd``).  SciPy's result fields: ``df``, ``success``, ``status``,
    ``error`` (0), ``nit`` (0), ``nfev`` -- see the module's docstring.

    >>> import numpy as np, funcgrad.numpy as fnp, funcgrad.scipy.differentiate as fsd
    >>> res = fsd.jacobian(lambda x: fnp.stack([x[0] * x[1], x[0]]), np.array([1.0, 2.0]))
    >>> res.df
    array([[2., 1.],
           [1., 0.]])
    """
    if not callable(f):
        raise ValueError("`f` must be callable.")
    _check("jacobian", tolerances, maxiter, order, initial_step, step_factor, step_direction)
    xs = _floats(x, "jacobian")
    df = _batched(jacfwd, lambda v: asarray(f(v)), xs, "jacobian")
    shape = tuple(df.shape)
    res = _result(df, "df", shape, 1)
    res["nit"] = np.zeros(shape, int)
    return res


def hessian(f: Callable, x: ArrayLike, *, tolerances: Any = None, maxiter: int = 10,
            order: int = 8, initial_step: Any = 0.5, step_factor: float = 2.0
            ) -> RichResult:
    """The Hessian of the scalar function ``f`` at ``x``
    (``scipy.differentiate.hessian``): ``f`` maps an array of shape ``(m, ...)`` to one of shape ``(...)``,
    vectorized over the trailing axes; ``ddf`` of shape ``(m, m, ...)``, exact by
    forward-over-reverse mode (``fg.hessian``).  SciPy's result fields: ``ddf``,
    ``success``, ``status``, ``error`` (0), ``nfev`` -- see the module's docstring.

    >>> import numpy as np, funcgrad.scipy.differentiate as fsd
    >>> fsd.hessian(lambda x: x[0] ** 2 * x[1], np.array([1.0, 2.0])).ddf
    array([[4., 2.],
           [2., 0.]])
    """
    if not callable(f):
        raise ValueError("`f` must be callable.")
    _check("hessian", tolerances, maxiter, order, initial_step, step_factor, 0)

    def scalar(v):
        out = asarray(f(v))
        if out.ndim:
            raise ValueError(f"hessian: f must return a scalar for each point (shape (), "
                             f"or x's trailing shape), got shape {out.shape}")
        return out

    xs = _floats(x, "hessian")
    ddf = _batched(_hessian, scalar, xs, "hessian")
    return _result(ddf, "ddf", tuple(ddf.shape), 1)
