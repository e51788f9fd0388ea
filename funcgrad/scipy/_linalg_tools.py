"""What the modules of ``funcgrad.scipy.linalg`` share: SciPy 1.17's batching of stacks of
matrices (:func:`over_batch`), SciPy's float conversion and real-result rule, and an
identity whose derivative refuses, for results that have none.

``over_batch`` is the differentiable twin of SciPy's ``_apply_over_batch``: each array
argument has a number of *core* dimensions (2 for a matrix, 1 for a vector, ``"1|2"``
for a right-hand side that may be either); leading dimensions beyond them are batch
dimensions, broadcast against each other, and the function runs once per batch index
(a Python loop: slices of traced values are traced values, so derivatives, ``vmap`` and
``jit`` see through it) and its results are stacked.  Calls without batch dimensions go
straight through.
"""
import functools
import inspect
import math
from typing import Any, Callable, TypeVar

import numpy as np

from ..kernels._broadcast import broadcast_shapes
from .. import numpy as fnp
from ..custom._decorators import _casting_custom_jvp as custom_jvp  # (own rules: cast)
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike

__all__ = ["over_batch", "as_float", "adjoint", "maybe_real", "no_derivative", "is_plain"]

_F = TypeVar("_F", bound=Callable[..., Any])


def as_float(a: ArrayLike) -> Array:
    """``a`` as an array, integers and booleans as float64 (SciPy's LAPACK inputs)."""
    a = asarray(a)
    return fnp.astype(a, np.float64) if a.dtype.kind in "biu" else a


def adjoint(x: ArrayLike) -> Array:
    """The conjugate transpose of the last two axes (``x^H``).

    >>> import numpy as np
    >>> adjoint(np.array([[1j, 2.0]]))
    array([[0.-1.j],
           [2.-0.j]])
    """
    return fnp.conj(fnp.swapaxes(x, -1, -2))


def is_plain(*arrays):
    """Whether every given array is a plain NumPy value (nothing traced: no derivative to
    carry, so SciPy's own result may be returned)."""
    return all(type(asarray(a)) is np.ndarray for a in arrays if a is not None)


def maybe_real(a, out, name):
    """SciPy's ``_maybe_real``: a real ``a`` whose result came out complex with a
    negligible imaginary part gets the real part (decided on the values)."""
    if a.dtype.kind == "c" or out.dtype.kind != "c":
        return out
    eps = np.finfo(a.dtype).eps
    tol = eps * 1e6 if a.dtype == np.float64 else eps * 1e3
    imag = concrete_values(fnp.imag(out), name,
                           f"Pass a complex matrix (a.astype(complex)) to {name} there.")
    return fnp.real(out) if np.allclose(imag, 0.0, atol=tol) else out


def _core_ndim(x, core):
    if core == "1|2":
        return 2 if x.ndim >= 2 else 1
    return core


def over_batch(*cores: tuple[str, Any]) -> Callable[[_F], _F]:
    """Decorator: run the function over the batch dimensions of the named array arguments
    (``(name, core_ndim)`` pairs, ``core_ndim`` 0, 1, 2 or ``"1|2"``), as SciPy 1.17's
    ``scipy.linalg`` functions do; see the module docstring."""
    def decorate(fn):
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def batched(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            arrays, batch_shapes, core_shapes = {}, [], {}
            for name, core in cores:
                value = bound.arguments.get(name)
                if value is None:
                    continue
                x = asarray(value)
                nd = _core_ndim(x, core)
                arrays[name] = x
                split = x.ndim - nd if nd else x.ndim
                batch_shapes.append(x.shape[:max(split, 0)])
                core_shapes[name] = x.shape[max(split, 0):]
            if not any(batch_shapes):
                return fn(*args, **kwargs)
            batch = broadcast_shapes(*batch_shapes)
            if math.prod(batch) == 0:
                raise ValueError(f"{fn.__name__}: zero-size batches are not supported (as "
                                 f"SciPy's); got batch shape {batch}")
            arrays = {n: fnp.broadcast_to(x, batch + core_shapes[n]) for n, x in arrays.items()}
            results = []
            for index in np.ndindex(*batch):
                for name, x in arrays.items():
                    bound.arguments[name] = x[index]
                out = fn(*bound.args, **bound.kwargs)
                results.append(out if isinstance(out, tuple) else (out,))
            stacked = tuple(_stack(parts, batch) for parts in zip(*results))
            return stacked[0] if len(stacked) == 1 else stacked
        return batched
    return decorate


def _stack(parts, batch):
    if all(p is None for p in parts):
        return None
    if all(not hasattr(p, "shape") or type(p) is np.ndarray or isinstance(p, np.generic)
           for p in parts):
        out = np.stack([np.asarray(p) for p in parts])
    else:
        out = fnp.stack([asarray(p) for p in parts])
    return fnp.reshape(out, batch + tuple(out.shape[1:]))


@functools.partial(custom_jvp, nondiff_argnums=(1,))
def no_derivative(x, message):
    """``x`` itself; differentiating through it raises ``ValueError(message)`` (a result
    whose derivative does not exist there, e.g. a rank that perturbations change)."""
    return x


@no_derivative.defjvp
def _no_derivative_jvp(message, primals, tangents):
    raise ValueError(message)
