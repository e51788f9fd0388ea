"""``add``/``subtract``/``multiply`` with a Numba row loop for the 2-d layouts NumPy's
iterator runs slowly.

Measured (400 x 399 float64, NumPy 2.4): a batch of tangents times one unbatched vector
(``A * v``, a row broadcast) takes 0.064 ms in NumPy against 0.040 ms for ``A * B`` of the
same size, and any operand that is a strided 2-d view (``A[:, 1:]``, the tangent batch of
``x[1:]``) makes an operation 2-3x slower than on contiguous arrays.  A plain Numba loop
over rows takes 0.031 ms (row broadcast) and 0.053 ms (strided view).  Such operations
make up most of a forward-over-reverse Hessian (``fg.hessian``).

Dispatch: only float32/float64 operands of one dtype (Python ``int``/``float`` scalars
beside them), a 2-d result of at least ``config.numba_min`` elements, rows with unit
inner stride, and a layout NumPy is slow on (a row-broadcast 1-d or (1, k) operand, or a
non-contiguous 2-d one) take the loop; everything else is NumPy's ufunc.  The result is
C-contiguous and equal bit for bit to NumPy's (one IEEE operation per element).
"""
import numpy as np

from . import _lazy
from ._lazy import F32, F64, config

_ndarray = np.ndarray
_loops = {}


def _loop(name):
    """The row loop of ``name``, or None while Numba loads in the background (NumPy's
    ufunc gives the same bits meanwhile)."""
    try:
        return _loops[name]
    except KeyError:
        L = _lazy.loops(wait=False)
        if L is None:
            return None
        with _lazy.loading(name):
            _loops[name] = L.rows_map(getattr(L, name + "_s"))
        return _loops[name]


def _operand(v, dt, k):
    """``v`` as the loop takes it (2-d (m, k), 1-d (k,), or a scalar of ``dt``), or None."""
    if type(v) is _ndarray:
        if v.dtype is not dt:
            return None
        if v.ndim == 2:
            if v.shape[0] == 1:
                v = v[0]
            elif v.strides[1] != dt.itemsize:
                return None
            else:
                return v
        if v.ndim == 1 and v.shape[0] == k and (v.strides[0] == dt.itemsize or k == 1):
            return v
        return None
    t = type(v)
    if t is float or t is int:
        return dt.type(v)
    return None


def _rows(name, x, y):
    """The row loop's result for ``name(x, y)``, or None where NumPy should run."""
    if type(x) is _ndarray and x.ndim == 2 and not (
            type(y) is _ndarray and y.ndim == 2 and x.shape[0] < y.shape[0]):
        big = x
    elif type(y) is _ndarray and y.ndim == 2:
        big = y
    else:
        return None
    m, k = big.shape
    dt = big.dtype
    if m * k < config.numba_min or (dt is not F64 and dt is not F32) or m < 2:
        return None
    other = y if big is x else x
    if type(other) is _ndarray and other.ndim == 2 and other.shape[0] != 1:
        if other.shape != big.shape:
            return None
        if big.flags.c_contiguous and other.flags.c_contiguous:
            return None  # NumPy's fast case
    elif big.flags.c_contiguous and type(other) is not _ndarray:
        return None  # contiguous array and a scalar: NumPy's fast case
    a = _operand(x, dt, k)
    if a is None:
        return None
    b = _operand(y, dt, k)
    if b is None:
        return None
    loop = _loop(name)
    if loop is None:
        return None
    out = np.empty((m, k), dt)
    loop(a, b, out)
    return out


def _make(name, np_fn):
    def f(x, y):
        # Only a 2-d array of at least numba_min elements can take the loop: other
        # operands (every operation of a 1-d or scalar function, a small layer's bias)
        # go to NumPy at once, without _rows's call.
        if (type(x) is _ndarray and x.ndim == 2 and x.size >= config.numba_min) or (
                type(y) is _ndarray and y.ndim == 2 and y.size >= config.numba_min):
            out = _rows(name, x, y)
            if out is not None:
                return out
        return np_fn(x, y)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"``np.{name}``, with a Numba row loop for slow 2-d layouts (see module)."
    # (what operands of fewer than two dimensions get, the same bits: a caller that knows
    # its operands' dimensions may call it without this function's frame)
    f.below_2d = np_fn
    return f


add = _make("add", np.add)
subtract = _make("subtract", np.subtract)
multiply = _make("multiply", np.multiply)


def add_window(x, u, r0, c0):
    """``x`` with ``u`` added to its window at ``(r0, c0)`` (a new array), in one pass:
    the scatter-add of a cotangent sliced out of an accumulated one.  None where NumPy
    should do it (small, other dtypes or shapes; ``u`` must fit inside ``x``)."""
    if (type(x) is not _ndarray or type(u) is not _ndarray or x.ndim != 2 or u.ndim != 2
            or x.size < config.numba_min or u.dtype is not x.dtype
            or (x.dtype is not F64 and x.dtype is not F32) or not any(x.strides)):
        return None
    p, q = u.shape
    if not (0 <= r0 and r0 + p <= x.shape[0] and 0 <= c0 and c0 + q <= x.shape[1]):
        return None
    L = _lazy.loops(wait=False)
    if L is None:  # loading in the background: the caller's NumPy add (the same bits)
        return None
    out = np.empty(x.shape, x.dtype)
    L.add_window_rows(x, u, out, r0, c0)
    return out
