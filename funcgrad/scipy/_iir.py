"""IIR filtering for ``funcgrad.scipy.signal``: ``lfilter``, ``lfilter_zi``,
``filtfilt`` (``method='pad'``), ``sosfilt``, ``sosfilt_zi``, ``sosfiltfilt``,
differentiable in the signal, the coefficients and the initial state (the design
functions are in :mod:`._iir_design`).

``lfilter`` is SciPy's direct form II transposed written as one recursion: with ``b``
and ``a`` divided by ``a[0]``, ``K = max(len(a), len(b)) - 1`` and ``zi`` added to the
first ``K`` samples of the forcing, ``sum_k a[k] y[n - k] = sum_k b[k] x[n - k] +
zi[n]``.  The moving-average side is ``K + 1`` shifted products; the recursion is the
primitive :func:`funcgrad.primitives.recurrence.all_pole`, whose derivatives are the
filter run again (backwards in time for the gradient).  The final state ``zf`` is the
part of that sum the next block would still receive: a ``K x K`` triangular product of
the last ``K`` samples of ``x`` and ``y``.  Integer inputs are taken as float64 (SciPy
refuses some of them); float32 stays float32 when every input is float32 (``butter``'s
float64 coefficients make the result float64, as in SciPy).
"""
from typing import Any, Optional, Union

import numpy as np

from .. import numpy as fnp
from ..core import internal
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..primitives.recurrence import all_pole
from ..typing import Array, ArrayLike

__all__ = ["lfilter", "lfilter_zi", "filtfilt", "sosfilt", "sosfilt_zi", "sosfiltfilt"]


def _float(x, dtype):
    return fnp.astype(x, dtype) if x.dtype != dtype else x


def _dtype(*arrays):
    dtype = np.result_type(*(x.dtype for x in arrays))
    return dtype if dtype.kind in "fc" else np.dtype(np.float64)


def _coefficients(name, b, a):
    b, a = fnp.atleast_1d(asarray(b)), fnp.atleast_1d(asarray(a))
    for label, c in (("b", b), ("a", a)):
        if c.ndim != 1 or c.shape[0] == 0:
            raise ValueError(f"{name}: {label} must be a non-empty 1-d array of filter "
                             f"coefficients, got shape {tuple(c.shape)}")
    if is_concrete(a) and concrete_values(a, name, "")[0] == 0:
        raise ValueError(f"{name}: a[0] is 0, so the filter is not causal; divide by the "
                         f"first nonzero coefficient of a and drop the leading zeros")
    return b, a


def _signal(name, x, axis):
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError(f"{name}: x must have at least one axis, got a scalar")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"{name}: axis {axis} is out of bounds for x of shape "
                         f"{tuple(x.shape)}")
    return x, axis % x.ndim


def _delayed(x, k):
    """``x`` delayed ``k`` samples along the last axis, zeros entering (by ``pad``, whose
    zeros follow ``x`` to its device)."""
    n = x.shape[-1]
    k = min(k, n)
    return fnp.pad(x[..., :n - k], [(0, 0)] * (x.ndim - 1) + [(k, 0)])


def _tail(x, k):
    """The last ``k`` samples of ``x`` along the last axis (zeros before its start)."""
    n = x.shape[-1]
    if n >= k:
        return x[..., n - k:]
    return fnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(k - n, 0)])


@internal  # (its index and mask constants follow c to its device)
def _state_matrix(c, k):
    """``M`` with ``M[i, j] = c[k + i - j]`` for ``j >= i``, else 0: ``M @ tail`` is the
    part of ``sum c[m] v[n - m]`` past the end that the last ``k`` samples give."""
    i, j = np.arange(k)[:, None], np.arange(k)[None, :]
    gathered = fnp.take(c, np.clip(k + i - j, 0, k))
    return fnp.where(j >= i, gathered, fnp.zeros((), c.dtype))


def _filter_last(b, a, x, zi):
    """``lfilter`` along the last axis of ``x``; ``(y, zf)`` (``zf`` None without ``zi``).
    ``b``, ``a`` 1-d and ``x``, ``zi`` of one dtype."""
    b, a = b / a[0], a / a[0]
    k = max(a.shape[0], b.shape[0]) - 1
    taps = b.shape[0]
    b = fnp.pad(b, (0, k + 1 - b.shape[0]))
    a = fnp.pad(a, (0, k + 1 - a.shape[0]))
    n = x.shape[-1]
    forcing = b[0] * x
    for m in range(1, min(taps, n)):  # (one product per tap, whatever the length)
        forcing = forcing + b[m] * _delayed(x, m)
    if zi is not None and k and n:
        first = min(k, n)
        forcing = forcing + fnp.pad(zi[..., :first],
                                    [(0, 0)] * (zi.ndim - 1) + [(0, n - first)])
    y = all_pole(a, forcing) if k else forcing
    if zi is None:
        return y, None
    if k == 0:
        return y, zi
    zf = (fnp.matmul(_tail(x, k), _state_matrix(b, k).T)
          - fnp.matmul(_tail(y, k), _state_matrix(a, k).T))
    if n < k:  # (the part of zi the signal has not reached yet)
        zf = zf + fnp.pad(zi[..., n:], [(0, 0)] * (zi.ndim - 1) + [(0, n)])
    return y, zf


def _initial_state(name, zi, x, axis, k, dtype):
    """``zi`` checked (SciPy's shape: ``x``'s with ``k`` along ``axis``; other axes may be
    1) and broadcast, its ``axis`` last."""
    zi = asarray(zi)
    want = x.shape[:axis] + (k,) + x.shape[axis + 1:]
    if zi.ndim != x.ndim or any(z != w and not (d != axis and z == 1)
                                for d, (z, w) in enumerate(zip(zi.shape, want))):
        raise ValueError(f"{name}: zi must have shape {want} (x's shape with "
                         f"max(len(a), len(b)) - 1 = {k} along axis {axis}; other axes may "
                         f"be 1), got {tuple(zi.shape)}")
    zi = fnp.moveaxis(_float(zi, dtype), axis, -1)
    return fnp.broadcast_to(zi, fnp.moveaxis(x, axis, -1).shape[:-1] + (k,))


def lfilter(b: ArrayLike, a: ArrayLike, x: ArrayLike, axis: int = -1,
            zi: Optional[ArrayLike] = None) -> Union[Array, tuple[Array, Array]]:
    """Filter ``x`` along ``axis`` with the IIR filter of numerator ``b`` and denominator
    ``a`` (``scipy.signal.lfilter``): ``a[0] y[n] = sum_k b[k] x[n-k] - sum_{k>0} a[k]
    y[n-k]``.  With initial conditions ``zi`` (direct form II transposed, shape of ``x``
    with ``max(len(a), len(b)) - 1`` along ``axis``) returns ``(y, zf)``, the final state.
    Differentiable in ``b``, ``a``, ``x`` and ``zi``; the gradient runs the filter
    backwards in time, so its cost is that of the filter.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.signal as fss
    >>> fss.lfilter([1.0], [1.0, -0.5], np.array([1.0, 0.0, 0.0, 0.0]))
    array([1.   , 0.5  , 0.25 , 0.125])
    >>> float(fg.grad(lambda p: fss.lfilter([1.0], [1.0, -p], np.ones(3))[-1])(0.5))
    2.0
    """
    b, a = _coefficients("lfilter", b, a)
    x, axis = _signal("lfilter", x, axis)
    k = max(a.shape[0], b.shape[0]) - 1
    dtype = _dtype(b, a, x) if zi is None else _dtype(b, a, x, asarray(zi))
    state = None if zi is None else _initial_state("lfilter", zi, x, axis, k, dtype)
    y, zf = _filter_last(_float(b, dtype), _float(a, dtype),
                         fnp.moveaxis(_float(x, dtype), axis, -1), state)
    y = fnp.moveaxis(y, -1, axis)
    return y if zf is None else (y, fnp.moveaxis(zf, -1, axis))


def lfilter_zi(b: ArrayLike, a: ArrayLike) -> Array:
    """The initial state of ``lfilter`` for a step response at steady state
    (``scipy.signal.lfilter_zi``): ``lfilter(b, a, ones, zi=lfilter_zi(b, a))`` is
    constant.  The solution of ``(I - A^T) zi = B`` for the filter's companion matrix
    ``A``; differentiable in ``b`` and ``a``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.lfilter_zi([1.0], [1.0, -0.5])  # (the step response settles at 2)
    array([1.])
    """
    b, a = fnp.atleast_1d(asarray(b)), fnp.atleast_1d(asarray(a))
    if b.ndim != 1 or a.ndim != 1:
        raise ValueError(f"lfilter_zi: b and a must be 1-d, got shapes {tuple(b.shape)} and "
                         f"{tuple(a.shape)}")
    if is_concrete(a):  # (SciPy drops leading zeros of a; traced, a[0] is taken nonzero)
        nonzero = np.flatnonzero(concrete_values(a, "lfilter_zi", ""))
        if nonzero.size == 0:
            raise ValueError("lfilter_zi: there must be at least one nonzero `a` "
                             "coefficient")
        a = a[int(nonzero[0]):]
    dtype = _dtype(b, a)
    b, a = _float(b, dtype), _float(a, dtype)
    b, a = b / a[0], a / a[0]
    n = max(a.shape[0], b.shape[0])
    a, b = fnp.pad(a, (0, n - a.shape[0])), fnp.pad(b, (0, n - b.shape[0]))
    if n == 1:
        return fnp.zeros((0,), dtype)
    return _steady_state(b, a)


@internal  # (its constant matrices follow a to its device)
def _steady_state(b, a):
    """``(I - companion(a)^T)^-1 (b[1:] - a[1:] b[0])`` for ``a[0] = 1``."""
    n = a.shape[0]
    # I - companion(a)^T: 1 on the diagonal, -1 above it, a[1:] added down column 0
    shift = np.eye(n - 1, dtype=a.dtype) - np.eye(n - 1, k=1, dtype=a.dtype)
    first = np.zeros(n - 1, a.dtype)
    first[0] = 1
    i_minus_a = shift + fnp.outer(a[1:], first)
    return fnp.linalg.solve(i_minus_a, b[1:] - a[1:] * b[0])


_PADTYPES = ("even", "odd", "constant", None)


def _extended(x, edge, padtype):
    """``x`` (axis last) extended by ``edge`` samples at each end, as SciPy's
    ``odd_ext``/``even_ext``/``const_ext``."""
    if padtype is None or edge == 0:
        return x
    first, last = x[..., :1], x[..., -1:]
    left = x[..., edge:0:-1]
    right = x[..., -2:-(edge + 2):-1]
    if padtype == "odd":
        left, right = 2 * first - left, 2 * last - right
    elif padtype == "constant":
        left = fnp.broadcast_to(first, x.shape[:-1] + (edge,))
        right = fnp.broadcast_to(last, x.shape[:-1] + (edge,))
    return fnp.concatenate([left, x, right], -1)


def _padding(name, padtype, padlen, x, ntaps):
    if padtype not in _PADTYPES:
        raise ValueError(f"{name}: unknown padtype {padtype!r}; padtype must be 'even', "
                         f"'odd', 'constant', or None")
    edge = 0 if padtype is None else (3 * ntaps if padlen is None else int(padlen))
    if x.shape[-1] <= edge:
        raise ValueError(f"{name}: the length of the input vector x must be greater than "
                         f"padlen, which is {edge}.")
    return edge, _extended(x, edge, padtype)


def _forward_backward(run, zi, ext, edge):
    """The zero-phase filtering of SciPy's ``filtfilt``: ``ext`` (axis last) filtered from
    the steady state of its first sample, the result backwards from its last's, reversed
    and cut back by ``edge``."""
    y, _ = run(ext, zi * ext[..., :1])
    y = y[..., ::-1]
    y, _ = run(y, zi * y[..., :1])
    y = y[..., ::-1]
    return y[..., edge:y.shape[-1] - edge] if edge else y


def filtfilt(b: ArrayLike, a: ArrayLike, x: ArrayLike, axis: int = -1, padtype: Optional[str] =
             "odd", padlen: Optional[int] = None, method: str = "pad",
             irlen: Optional[int] = None) -> Array:
    """Zero-phase filtering: ``x`` filtered forwards, then backwards, by ``lfilter``
    (``scipy.signal.filtfilt``), the ends extended by ``padlen`` samples (default ``3 *
    max(len(a), len(b))``) as ``padtype`` says ('odd', 'even', 'constant', None) and each
    pass started at the steady state of its first sample (:func:`lfilter_zi`); or, with
    ``method='gust'``, no padding and the initial states of both passes chosen by
    Gustafsson's least-squares condition that filtering forwards-then-backwards and
    backwards-then-forwards agree (``irlen``: how many samples of the impulse response to
    count; default all).  Differentiable in ``b``, ``a`` and ``x``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> x = np.array([0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0])
    >>> np.round(fss.filtfilt([0.5, 0.5], [1.0], x, padlen=2), 6) + 0.0
    array([0. , 0.5, 0.5, 0.5, 0.5, 0.5, 0. ])
    """
    if method not in ("pad", "gust"):
        raise ValueError(f"filtfilt: method must be 'pad' or 'gust', got {method!r}")
    b, a = _coefficients("filtfilt", b, a)
    x, axis = _signal("filtfilt", x, axis)
    dtype = _dtype(b, a, x)
    b, a = _float(b, dtype), _float(a, dtype)
    if method == "gust":
        if irlen is not None and int(irlen) < 1:
            raise ValueError(f"filtfilt: irlen must be a positive number of samples, got "
                             f"{irlen}")
        y = _gustafsson(b, a, fnp.moveaxis(_float(x, dtype), axis, -1), irlen)
        return fnp.moveaxis(y, -1, axis)
    edge, ext = _padding("filtfilt", padtype, padlen,
                         fnp.moveaxis(_float(x, dtype), axis, -1),
                         max(a.shape[0], b.shape[0]))
    zi = _float(lfilter_zi(b, a), dtype)
    y = _forward_backward(lambda v, z: _filter_last(b, a, v, z), zi, ext, edge)
    return fnp.moveaxis(y, -1, axis)


@internal  # (the zero input and the unit state follow b to its device)
def _unit_responses(b, a, k, m):
    """The ``m`` first outputs, with no input, of the filter started from each unit
    state: state ``j``'s is state 0's delayed ``j`` samples.  ``(k, m)``."""
    unit = fnp.asarray(np.eye(1, k, dtype=b.dtype)[0])
    response = _filter_last(b, a, fnp.zeros((m,), b.dtype), unit)[0]
    return fnp.stack([_delayed(response, j) for j in range(k)])


@internal  # (its zero blocks follow the data to its device)
def _block_diagonal(top, bottom):
    """``[[top, 0], [0, bottom]]`` for two ``(k, m)`` blocks."""
    zeros = fnp.zeros(top.shape, top.dtype)
    return fnp.concatenate([fnp.concatenate([top, zeros], -1),
                            fnp.concatenate([zeros, bottom], -1)])


def _gustafsson(b, a, x, irlen):
    """``filtfilt(method='gust')`` along the last axis (F. Gustafsson, "Determining the
    initial states in forward-backward filtering", IEEE Trans. Signal Processing 44(4),
    1996).  An initial state ``s`` of a pass adds ``O s`` to its output, ``O`` the
    responses to the unit states (state ``j``'s is state 0's delayed ``j`` samples).  The
    forward-backward result with zero states, ``fb``, gains ``Sr u + Or v`` from states
    ``u`` (forward) and ``v`` (backward), ``S`` being ``O`` reversed in time and filtered,
    ``R`` a reversal; backward-forward gains ``O u + S v``.  The states are the
    least-squares solution of ``fb + Sr u + Or v = bf + O u + S v``, and the result is
    ``fb + Sr u + Or v``.  With ``irlen`` the responses are cut to ``m`` samples, so the
    two ends are fitted separately."""
    k = max(a.shape[0], b.shape[0]) - 1
    if k == 0:
        return (b[0] / a[0]) ** 2 * x

    def run(v, state=None):
        return _filter_last(b, a, v, state)[0]

    n = x.shape[-1]
    m = n if irlen is None or n <= 2 * int(irlen) else int(irlen)
    obs = _unit_responses(b, a, k, m)  # (k, m): O transposed
    obs_r = obs[:, ::-1]
    s_t = run(obs_r)  # (S transposed)
    s_r = s_t[:, ::-1]
    fb = run(run(x)[..., ::-1])[..., ::-1]
    bf = run(run(x[..., ::-1])[..., ::-1])
    if m == n:
        system = fnp.concatenate([s_r - obs, obs_r - s_t]).T
        gains = fnp.concatenate([s_r, obs_r]).T
        mismatch = bf - fb
    else:
        system = _block_diagonal(s_r - obs, obs_r - s_t).T
        gains = _block_diagonal(s_r, obs_r).T
        mismatch = fnp.concatenate([bf[..., :m] - fb[..., :m], bf[..., n - m:] - fb[..., n - m:]],
                                   -1)
    cutoff = np.finfo(x.dtype).eps * max(system.shape)  # (lstsq's, as SciPy's solve)
    states = fnp.matmul(mismatch, fnp.linalg.pinv(system, cutoff).T)
    correction = fnp.matmul(states, gains.T)
    if m == n:
        return fb + correction
    edge = [(0, 0)] * (x.ndim - 1)
    return (fb + fnp.pad(correction[..., :m], edge + [(0, n - m)])
            + fnp.pad(correction[..., m:], edge + [(n - m, 0)]))


def _sections(name, sos):
    sos = asarray(sos)
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError(f"{name}: sos must be of shape (n_sections, 6), got "
                         f"{tuple(sos.shape)}")
    if sos.shape[0] == 0:
        raise ValueError(f"{name}: sos must have at least one section")
    if is_concrete(sos) and not np.all(concrete_values(sos, name, "")[:, 3] == 1):
        raise ValueError(f"{name}: sos[:, 3] should be all ones (each section's a[0]); "
                         f"divide each row by its a[0]")
    return sos


def _sosfilt_last(sos, x, zi):
    """``sosfilt`` along the last axis; ``zi`` ``(n_sections, ..., 2)`` or None."""
    finals = []
    for s in range(sos.shape[0]):
        x, zf = _filter_last(sos[s, :3], sos[s, 3:], x, None if zi is None else zi[s])
        finals.append(zf)
    return x, (None if zi is None else fnp.stack(finals))


def sosfilt(sos: ArrayLike, x: ArrayLike, axis: int = -1, zi: Optional[ArrayLike] = None
            ) -> Union[Array, tuple[Array, Array]]:
    """Filter ``x`` along ``axis`` with the cascade of second-order sections ``sos``
    (``(n_sections, 6)``, rows ``[b0, b1, b2, 1, a1, a2]``; ``scipy.signal.sosfilt``).
    With ``zi`` (shape ``(n_sections,)`` + ``x``'s with 2 along ``axis``) returns ``(y,
    zf)``.  Differentiable in ``sos``, ``x`` and ``zi``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.sosfilt(np.array([[1.0, 0.0, 0.0, 1.0, -0.5, 0.0]]), np.array([1.0, 0.0, 0.0]))
    array([1.  , 0.5 , 0.25])
    """
    sos = _sections("sosfilt", sos)
    x, axis = _signal("sosfilt", x, axis)
    dtype = _dtype(sos, x) if zi is None else _dtype(sos, x, asarray(zi))
    state = None
    if zi is not None:
        zi = asarray(zi)
        want = (sos.shape[0],) + x.shape[:axis] + (2,) + x.shape[axis + 1:]
        if tuple(zi.shape) != want:
            raise ValueError(f"sosfilt: invalid zi shape. With axis={axis}, an input with "
                             f"shape {tuple(x.shape)}, and an sos array with {sos.shape[0]} "
                             f"sections, zi must have shape {want}, got {tuple(zi.shape)}.")
        state = fnp.moveaxis(_float(zi, dtype), axis + 1, -1)
    y, zf = _sosfilt_last(_float(sos, dtype), fnp.moveaxis(_float(x, dtype), axis, -1), state)
    y = fnp.moveaxis(y, -1, axis)
    return y if zf is None else (y, fnp.moveaxis(zf, -1, axis + 1))


def sosfilt_zi(sos: ArrayLike) -> Array:
    """The initial states of ``sosfilt`` for a step response at steady state
    (``scipy.signal.sosfilt_zi``), ``(n_sections, 2)``: each section's
    :func:`lfilter_zi` times the DC gain of the sections before it.  Differentiable.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.sosfilt_zi(np.array([[1.0, 0.0, 0.0, 1.0, -0.5, 0.0]]))
    array([[1., 0.]])
    """
    sections = asarray(sos)
    if sections.ndim != 2 or sections.shape[1] != 6:
        raise ValueError(f"sosfilt_zi: sos must be of shape (n_sections, 6), got "
                         f"{tuple(sections.shape)}")
    sections = _float(sections, _dtype(sections))
    rows: list = []
    scale: Any = 1.0
    for s in range(sections.shape[0]):
        b, a = sections[s, :3], sections[s, 3:]
        rows.append(scale * lfilter_zi(b, a))
        scale = scale * fnp.sum(b) / fnp.sum(a)
    return fnp.stack(rows) if rows else fnp.zeros((0, 2), sections.dtype)


def sosfiltfilt(sos: ArrayLike, x: ArrayLike, axis: int = -1,
                padtype: Optional[str] = "odd", padlen: Optional[int] = None) -> Array:
    """Zero-phase filtering by second-order sections (``scipy.signal.sosfiltfilt``):
    :func:`sosfilt` forwards, then backwards, the ends extended as in :func:`filtfilt`
    (default ``padlen``: three times ``2 n_sections + 1``, less the sections of order
    one, as SciPy's; under ``vmap``/``jit`` pass ``padlen``, as counting them reads
    ``sos``'s values).  Differentiable in ``sos`` and ``x``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> sos = np.array([[0.5, 0.5, 0.0, 1.0, 0.0, 0.0]])
    >>> x = np.array([0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0])
    >>> np.round(fss.sosfiltfilt(sos, x, padlen=2), 6) + 0.0
    array([0. , 0.5, 0.5, 0.5, 0.5, 0.5, 0. ])
    """
    sos = _sections("sosfiltfilt", sos)
    x, axis = _signal("sosfiltfilt", x, axis)
    dtype = _dtype(sos, x)
    sos = _float(sos, dtype)
    ntaps = 2 * sos.shape[0] + 1
    if padlen is None and padtype is not None:
        values = concrete_values(sos, "sosfiltfilt's default padlen (which counts the "
                                 "sections of order one)", "Pass padlen= explicitly.")
        ntaps -= min(int(np.sum(values[:, 2] == 0)), int(np.sum(values[:, 5] == 0)))
    edge, ext = _padding("sosfiltfilt", padtype, padlen,
                         fnp.moveaxis(_float(x, dtype), axis, -1), ntaps)
    zi = sosfilt_zi(sos)
    zi = fnp.reshape(zi, (zi.shape[0],) + (1,) * (ext.ndim - 1) + (2,))
    y = _forward_backward(lambda v, z: _sosfilt_last(sos, v, z), zi, ext, edge)
    return fnp.moveaxis(y, -1, axis)
