"""``tanhsinh`` and ``nsum`` (SciPy's elementwise integral and series), differentiable by
``_integrate3_elementwise``'s rule."""
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer, is_special
from ..lax import stop_gradient
from ..numpy._convert import asarray
from ..typing import ArrayLike
from ._integrate3_elementwise import Opts, _rule, concrete, lift_pointwise
from ._rich_result import RichResult


def _broadcast(name, ends, args):
    """The limits (floats, SciPy's promotion) and the elementwise ``args`` broadcast to
    the result's shape."""
    if not np.iterable(args) or isinstance(args, (str, bytes)):
        args = (args,)
    # (Python numbers are weak, as in SciPy's promotion: float32 limits with step=1 stay
    # float32)
    weak = [x if type(x) in (int, float) else asarray(x).dtype for x in ends]
    ends = [asarray(x) for x in ends]
    if any(x.dtype.kind == "c" for x in ends):
        raise ValueError(f"{name}: all elements of `a` and `b` must be real numbers.")
    dtype = np.result_type(*weak)
    dtype = dtype if dtype.kind == "f" else np.dtype(np.float64)
    user = [asarray(x) for x in args]
    try:
        shape = np.broadcast_shapes(*[x.shape for x in ends + user])
    except ValueError as error:
        raise ValueError(f"{name}: `a`, `b` and the arrays of `args` must be broadcastable "
                         f"with one another ({error})") from None
    ends = [fnp.broadcast_to(fnp.astype(x, dtype), shape) for x in ends]
    return ends, [fnp.broadcast_to(x, shape) for x in user]


def _counts(info, keys):
    """The integer fields, as SciPy's types; traced (under ``vmap``) they stay traced."""
    info = stop_gradient(info)
    if isinstance(info, Tracer):
        return {key: fnp.astype(info[i], dtype) for i, (key, dtype) in enumerate(keys)}
    info = np.asarray(info)
    return {key: row.astype(dtype)[()] for row, (key, dtype) in zip(info, keys)}


def _success(status):
    return status == 0 if isinstance(status, Tracer) else _plain(np.asarray(status == 0))


def _plain(x):
    """0-d results as NumPy scalars, as SciPy's."""
    return x[()] if isinstance(x, np.ndarray) else x


def tanhsinh(f: Callable[..., ArrayLike], a: ArrayLike, b: ArrayLike, *, args: Any = (),
             log: bool = False, maxlevel: Optional[int] = None, minlevel: int = 2,
             atol: Optional[float] = None, rtol: Optional[float] = None,
             preserve_shape: bool = False, callback: Optional[Callable] = None
             ) -> RichResult:
    """The integral of the elementwise ``f(x, *args)`` from ``a`` to ``b`` by tanh-sinh
    quadrature, as ``scipy.integrate.tanhsinh``: a result with ``integral``, ``error``,
    ``success``, ``status``, ``nfev`` and ``maxlevel``, elementwise over the broadcast
    ``a``, ``b`` and ``args``.  Either limit may be infinite, singularities at the limits
    are fine; ``log=True`` takes and gives logarithms.  The values are SciPy's (its code
    runs on concrete values; SciPy is imported on the first call): not under ``jit``;
    under ``vmap`` over ``args`` (not the limits) one SciPy call per example.

    Differentiable in both modes in ``a`` and ``b`` (the Leibniz rule: ``d/db = f(b)``,
    ``d/da = -f(a)``, zero at an infinite limit), in ``args`` and in values ``f``
    captures (the integral of ``f``'s derivative, by tanh-sinh again with the same
    tolerances, so differentiable again): the derivative of the integral, accurate to the
    tolerances.  ``preserve_shape=True`` raises NotImplementedError.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.integrate as fsi
    >>> res = fsi.tanhsinh(lambda x: np.exp(-x * x), -np.inf, np.inf)
    >>> bool(abs(res.integral - np.sqrt(np.pi)) < 1e-14), bool(res.success)
    (True, True)
    >>> # d/ds of the integral of exp(-s x) over [0, b] at s = 1, b = 2: -(1 - 3 e^-2)
    >>> g = fg.grad(lambda s, b: fsi.tanhsinh(lambda x, s: np.exp(-s * x), 0.0, b,
    ...                                       args=(s,)).integral, argnums=(0, 1))
    >>> [round(float(v), 10) for v in g(1.0, 2.0)]  # and d/db = exp(-2)
    [-0.5939941503, 0.1353352832]
    """
    if not callable(f):
        raise ValueError("`f` must be callable.")
    if preserve_shape:
        raise NotImplementedError("tanhsinh: preserve_shape=True is not supported; write f "
                                  "elementwise (the output shaped as x) and pass "
                                  "preserve_shape=False")
    if log not in (True, False):
        raise ValueError("`log` must be True or False.")
    (a, b), user = _broadcast("tanhsinh", (a, b), args)
    lo, hi = concrete(a, "tanhsinh"), concrete(b, "tanhsinh")
    with np.errstate(all="ignore"):  # (a point inside each range, to find captures at)
        probe = np.where(np.isfinite(lo) & np.isfinite(hi), 0.5 * (lo + hi),
                         np.where(np.isfinite(lo), lo + 1.0,
                                  np.where(np.isfinite(hi), hi - 1.0, 0.0))).astype(lo.dtype)
    func, consts, out_dtype = lift_pointwise(lambda x, *u: f(x, *u), probe, user,
                                             "tanhsinh")
    opts = Opts("tanhsinh", len(user), bool(log),
                (("maxlevel", maxlevel), ("minlevel", minlevel), ("atol", atol),
                 ("rtol", rtol)), callback, out_dtype)
    value, error, info = _rule(func, opts, a, b, *user, *consts)
    counts = _counts(info, (("status", np.int32), ("nfev", np.int32),
                            ("maxlevel", np.int64)))
    return RichResult(success=_success(counts["status"]),
                      status=counts["status"], integral=_plain(value),
                      error=_plain(error), nfev=counts["nfev"],
                      maxlevel=counts["maxlevel"])


def _refuse_derivative(name, x, why):
    if isinstance(stop_gradient(x), Tracer) or isinstance(x, Tracer) or is_special(x):
        raise TypeError(f"nsum: the sum has no derivative in `{name}` ({why}); pass a "
                        f"concrete value (fg.stop_gradient drops a derivative on purpose)")


def nsum(f: Callable[..., ArrayLike], a: ArrayLike, b: ArrayLike, *, step: ArrayLike = 1,
         args: Any = (), log: bool = False, maxterms: int = int(2 ** 20),
         tolerances: Optional[dict] = None) -> RichResult:
    """The sum of the elementwise ``f(k, *args)`` over ``k = a, a + step, ..., b``, as
    ``scipy.integrate.nsum``: a result with ``sum``, ``error``, ``status``, ``success``
    and ``nfev``, elementwise over the broadcast ``a``, ``b``, ``step`` and ``args``.
    ``b`` may be infinite (SciPy's Euler-Maclaurin tail: the integral of ``f`` bounds the
    rest of a positive, decreasing series); ``log=True`` takes and gives logarithms.  The
    values are SciPy's (its code runs on concrete values; SciPy is imported on the first
    call): not under ``jit``; under ``vmap`` over ``args`` one SciPy call per example.

    Differentiable in both modes in ``args`` and in values ``f`` captures: the sum of
    ``f``'s derivative, by ``nsum`` again with the same tolerances (so differentiable
    again), accurate to them.  ``a``, ``b`` and ``step`` count the terms: the sum has no
    derivative in them, and a traced or differentiated value there raises TypeError.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.integrate as fsi
    >>> res = fsi.nsum(lambda k: 1.0 / k ** 2, 1, np.inf)  # pi^2 / 6
    >>> bool(abs(res.sum - np.pi ** 2 / 6) < 1e-9), bool(res.success)
    (True, True)
    >>> # d/ds of the sum of k^-s (zeta(s)) at s = 2: -sum log(k) k^-2 = -0.9375482543...
    >>> g = fg.grad(lambda s: fsi.nsum(lambda k, s: k ** -s, 1.0, np.inf, args=(s,)).sum)
    >>> round(float(g(2.0)), 7)
    -0.9375483
    """
    if not callable(f):
        raise ValueError("`f` must be callable.")
    if log not in (True, False):
        raise ValueError("`log` must be True or False.")
    for name, x in (("a", a), ("b", b), ("step", step)):
        _refuse_derivative(name, x, "the terms sit at a, a + step, ... up to b: they are "
                                    "counted, not moved")
    (a, b, step_a), user = _broadcast("nsum", (a, b, step), args)
    func, consts, out_dtype = lift_pointwise(lambda x, *u: f(x, *u), concrete(a, "nsum"),
                                             user, "nsum")
    options = (("step", concrete(step_a, "nsum").tolist()), ("maxterms", maxterms),
               ("tolerances", None if tolerances is None else
                tuple(sorted(dict(tolerances).items()))))
    opts = Opts("nsum", len(user), bool(log), options, None, out_dtype)
    value, error, info = _rule(func, opts, a, b, *user, *consts)
    counts = _counts(info, (("status", np.int32), ("nfev", np.int32)))
    return RichResult(sum=_plain(value), error=_plain(error), status=counts["status"],
                      success=_success(counts["status"]), nfev=counts["nfev"])
