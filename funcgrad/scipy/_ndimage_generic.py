"""Filters and measurements that call a user's function, of ``funcgrad.scipy.ndimage``:
``generic_filter``, ``generic_filter1d`` and ``labeled_comprehension``.

``generic_filter`` stacks each point's footprint samples (as the order-statistic filters
do, in the footprint's row-major order: SciPy's buffer) and maps the function over them
with ``vmap``, or, where the function cannot be traced (it converts its window to a
NumPy array, or branches on it), calls it once per window; either way the result is
differentiable in ``input`` and ``cval`` as far as the function is.
``labeled_comprehension`` calls the function on each label's values, selected from
``input`` (differentiable) by the concrete labels.  ``generic_filter1d``'s function
writes its output line in place, which no derivative can follow: concrete values only,
SciPy's own result.
"""
import warnings
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..batched import vmap
from ..core import Tracer, is_special
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike
from ._ndimage_correlate import _origin_ok
from ._ndimage_filters import _axes, _check_mode, _per_axis
from ._ndimage_rank import _footprint_on_all_axes, _origins_on_all_axes, _windows

__all__ = ["generic_filter", "generic_filter1d", "labeled_comprehension"]

Sizes = Union[None, int, Sequence[int]]


def _map_windows(function, rows, extra_arguments, extra_keywords):
    """``function`` on each row of ``rows`` (a window each), as one array."""
    def call(window):
        return function(window, *extra_arguments, **extra_keywords)
    try:
        values = asarray(vmap(call)(rows))
    except Exception:  # (a function vmap cannot trace: one call per window)
        values = None
    if values is None or values.shape != rows.shape[:1]:
        values = [asarray(call(row)) for row in rows]
        if any(v.size != 1 for v in values):
            raise ValueError("generic_filter: function must return one number for each "
                             "window (a scalar)")
        values = fnp.stack([fnp.reshape(v, ()) for v in values]) if values else \
            fnp.zeros((0,), rows.dtype)
    return values


def generic_filter(input: ArrayLike, function: Callable[..., Any], size: Sizes = None,
                   footprint: Optional[ArrayLike] = None, output: None = None,
                   mode: str = "reflect", cval: float = 0.0,
                   origin: Union[int, Sequence[int]] = 0, extra_arguments: Sequence = (),
                   extra_keywords: Optional[dict] = None, *,
                   axes: Union[None, int, Sequence[int]] = None) -> Array:
    """``function(window, *extra_arguments, **extra_keywords)`` at every point, ``window``
    the 1-d float64 array of the samples under ``footprint`` (or a ``size`` box) in its
    row-major order, the input extended as ``mode`` says, as
    ``scipy.ndimage.generic_filter``; the result has the input's dtype.  Differentiable
    in ``input`` and ``cval`` as far as ``function`` is (written with
    ``funcgrad.numpy``, or NumPy's functions, which dispatch to it): the windows are
    mapped with ``vmap``, or one call each where ``function`` cannot be traced.
    ``output=`` is not supported (the result is a new array).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.ndimage as fnd
    >>> x = np.array([1.0, 4.0, 2.0, 8.0])
    >>> fnd.generic_filter(x, lambda w: w.max() - w.min(), size=3)
    array([3., 3., 6., 6.])
    >>> fg.grad(lambda x: fnd.generic_filter(x, np.sum, size=2).sum())(x)
    array([3., 2., 2., 1.])
    """
    if output is not None:
        raise TypeError("generic_filter(..., output=...) would write into an array, but "
                        "funcgrad's results are new arrays: use the returned value")
    if not callable(function):
        raise TypeError(f"generic_filter: function must be callable, got "
                        f"{type(function).__name__}")
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=2)
    _check_mode("generic_filter", mode)
    given = asarray(input)
    if given.dtype.kind == "c":
        raise TypeError("generic_filter: complex input is not supported (SciPy's neither): "
                        "filter the real and imaginary parts apart")
    x = fnp.astype(given, np.float64)
    chosen = _axes("generic_filter", axes, x.ndim)
    if footprint is None:
        if size is None:
            raise RuntimeError("generic_filter: no footprint or filter size provided: give "
                               "size= or footprint=")
        sizes = [int(s) for s in _per_axis("generic_filter", "size", size, len(chosen))]
        footprint = np.ones(sizes, bool)
    else:
        footprint = np.asarray(footprint, dtype=bool)
    footprint = _footprint_on_all_axes("generic_filter", footprint, chosen, x.ndim)
    if not footprint.any():
        raise ValueError("generic_filter: footprint has no True element: the windows would "
                         "be empty")
    origins = _origins_on_all_axes("generic_filter", origin, chosen, x.ndim)
    for o, f in zip(origins, footprint.shape):
        _origin_ok("generic_filter", o, f)
    if x.size == 0:
        return fnp.astype(x, given.dtype)
    stacked, _ = _windows(x, footprint, origins, mode, cval)
    rows = fnp.reshape(stacked, (-1, stacked.shape[-1]))
    values = _map_windows(function, rows, tuple(extra_arguments), extra_keywords or {})
    out = fnp.reshape(values, x.shape)
    if given.dtype.kind in "biu":  # (SciPy's C cast to the input's type: toward zero)
        out = fnp.trunc(out)
    return fnp.astype(out, given.dtype)


def generic_filter1d(input: ArrayLike, function: Callable[..., Any], filter_size: int,
                     axis: int = -1, output: None = None, mode: str = "reflect",
                     cval: float = 0.0, origin: int = 0, extra_arguments: Sequence = (),
                     extra_keywords: Optional[dict] = None) -> np.ndarray:
    """``scipy.ndimage.generic_filter1d``: ``function(input_line, output_line, ...)``
    along ``axis``, writing each output line in place, on concrete values (SciPy's own
    result).  A derivative cannot follow writes into a NumPy array: a traced ``input``
    is refused; :func:`generic_filter` (whose function returns its value) is the
    differentiable form.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> def diff(line_in, line_out):
    ...     line_out[...] = line_in[2:] - line_in[:-2]
    >>> fnd.generic_filter1d(np.array([1.0, 2.0, 4.0, 8.0]), diff, 3)
    array([1., 3., 6., 4.])
    """
    if output is not None:
        raise TypeError("generic_filter1d(..., output=...) would write into an array, but "
                        "funcgrad's results are new arrays: use the returned value")
    if isinstance(input, Tracer) or is_special(input):
        raise TypeError(
            "generic_filter1d: its function writes each output line in place, which a "
            "derivative (or jit/vmap) cannot follow; write the filter with generic_filter "
            "(its function returns each value) or funcgrad.numpy")
    from scipy import ndimage
    return ndimage.generic_filter1d(np.asarray(input), function, filter_size, axis=axis,
                                    mode=mode, cval=cval, origin=origin,
                                    extra_arguments=tuple(extra_arguments),
                                    extra_keywords=extra_keywords)


def labeled_comprehension(input: ArrayLike, labels: Optional[ArrayLike], index: Any,
                          func: Callable[..., Any], out_dtype: Any, default: Any,
                          pass_positions: bool = False) -> Any:
    """``func`` on the values of ``input`` under each label in ``index`` (and, with
    ``pass_positions``, their flat positions), ``default`` for a label with none, as
    ``scipy.ndimage.labeled_comprehension``: an array of ``out_dtype`` shaped as
    ``index`` (a number for a scalar ``index``).  ``labels=None``: ``func`` on all of
    ``input``; ``index=None``: on the values whose label is positive.  Differentiable in
    ``input`` as far as ``func`` is (a float ``out_dtype``); the labels are concrete.
    Each label's values reach ``func`` in row-major order (SciPy's order within a label
    is that of an unstable sort).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.ndimage as fnd
    >>> x = np.array([1.0, 2.0, 3.0, 4.0])
    >>> fnd.labeled_comprehension(x, np.array([1, 2, 1, 0]), [1, 2, 3], np.mean, float, -1.0)
    array([ 2.,  2., -1.])
    >>> fg.grad(lambda x: fnd.labeled_comprehension(x, np.array([1, 2, 1, 0]), 1, np.sum,
    ...                                             float, 0.0))(x)
    array([1., 0., 1., 0.])
    """
    as_scalar = np.isscalar(index)
    x = asarray(input)
    positions = np.arange(int(np.prod(x.shape))).reshape(x.shape) if pass_positions else None

    def call(mask):
        chosen = fnp.reshape(x, (-1,)) if mask is None else x[mask]
        if not pass_positions:
            return func(chosen)
        return func(chosen, positions.ravel() if mask is None else positions[mask])

    if labels is None:
        if index is not None:
            raise ValueError("index without defined labels")
        return call(None)
    lab = concrete_values(labels, "labeled_comprehension's selection",
                          "pass concrete labels")
    try:
        shape = np.broadcast_shapes(x.shape, lab.shape)
    except ValueError as e:
        raise ValueError("input and labels must have the same shape (excepting dimensions "
                         "with width 1)") from e
    if x.shape != shape:
        x = fnp.broadcast_to(x, shape)
        if positions is not None:
            positions = np.broadcast_to(positions, shape)
    lab = np.broadcast_to(lab, shape)
    if index is None:
        return call(lab > 0)
    wanted = np.atleast_1d(np.asarray(index))
    if np.any(wanted.astype(lab.dtype).astype(wanted.dtype) != wanted):
        raise ValueError(f"Cannot convert index values from <{wanted.dtype}> to "
                         f"<{lab.dtype}> (labels' type) without loss of precision")
    out_dtype = np.dtype(out_dtype)
    results = []
    for value in wanted.astype(lab.dtype).ravel():
        mask = lab == value
        result = call(mask) if mask.any() else default
        results.append(fnp.astype(fnp.reshape(asarray(result), ()), out_dtype))
    out = fnp.reshape(fnp.stack(results), wanted.shape) if results else \
        np.zeros(wanted.shape, out_dtype)
    return out[0] if as_scalar else out
