"""The Hessian of a function of one vector from its recording, the basis as a band.

``jacfwd(jacrev(f))`` pushes the identity (one tangent per element of ``x``: an
``n x n`` batch) through forward-over-reverse.  For a function built from elementwise
arithmetic and step-1 slices (chains, stencils: Rosenbrock) most of that batch is zero
and stays zero: a tangent of a vector node at element ``j`` along basis vector ``k``
depends on ``k - j`` only through a few offsets.  This module sweeps the recording
(:mod:`funcgrad.second_order`) backwards by :func:`funcgrad.lean_sweep.sweep`, the
hvp's sweep, with the same rules derived from each primitive's declaration
(:mod:`funcgrad.pair_rules`), but every batch of tangents is a :class:`Band`: one row
per diagonal ``k - j = d`` that may hold something, plus one row, *far*, holding what
every other entry of that column holds.  An elementwise rule treats the rows as the
dense batch's rows (its coefficients depend on ``j`` only), so each entry is computed by
exactly the operations the dense batch would run on it, in the same order: the far row
is the dense entries' value (zeros, signed as the dense ones; ``0 * inf`` as NaN where
the dense ones are), and the result has the composition's bits.  A slice shifts the
offsets; its VJP pads or adds into a slice of the rows.  Which diagonals each batch
holds depends only on the recording's shape, so, as the hvp's sweep, the first sweep of
a shape is written down as a program (:class:`funcgrad.sweep_programs.Programs`) that
later recordings of that shape run.  Anything else that a batch reaches (a sum's tangent, an
index array, another shape, a non-elementwise rule reading a tangent) raises
:class:`NotBanded`, and the caller takes the composition on the same recording.
"""
import numpy as np

from .lean_sweep import _shape, sweep
from .sweep_programs import _EAGER, Programs
from .primitives.indexing import gather_p

__all__ = ["Band", "NotBanded", "band_sweep", "band_hessian"]


class NotBanded(Exception):
    """A batch of tangents the band does not hold (the caller takes the composition)."""


class Band:
    """A batch of tangents of a vector of length ``m``, one per basis vector ``k`` of the
    input: entry ``(k, j)`` is ``rows[1 + i][j]`` where ``k - j == offsets[i]``, else
    ``rows[0][j]`` (the value every entry off the stored diagonals has in column ``j``).

    >>> import numpy as np
    >>> b = Band((0, 1), np.array([[0.0, 0.0], [1.0, 2.0], [3.0, 4.0]]))
    >>> b.dense(3)  # rows k, columns j
    array([[1., 0.],
           [3., 2.],
           [0., 4.]])
    """

    __slots__ = ("offsets", "rows")

    def __init__(self, offsets, rows):
        self.offsets, self.rows = offsets, rows

    def dense(self, n):
        """The ``(n, m)`` batch the band stands for (tests and debugging)."""
        m = self.rows.shape[1]
        out = np.empty((n, m), self.rows.dtype)
        out[...] = self.rows[0]
        for i, d in enumerate(self.offsets):
            for j in range(m):
                if 0 <= j + d < n:
                    out[j + d, j] = self.rows[1 + i][j]
        return out


def _index(band, offsets):
    """Where ``band``'s rows for the diagonals ``offsets`` (a superset of its own) are:
    None where they are its rows as they are; an absent diagonal reads the far row."""
    if band.offsets == offsets:
        return None
    where = {d: 1 + i for i, d in enumerate(band.offsets)}
    return (0,) + tuple(where.get(d, 0) for d in offsets)


def _take(rows, index):
    return rows[list(index)]


def _aligned(ops, band, offsets):
    index = _index(band, offsets)
    return band.rows if index is None else ops.call(_take, band.rows, index)


def _union(bands, limit):
    offsets = bands[0].offsets
    for b in bands[1:]:
        if b.offsets != offsets:
            offsets = tuple(sorted(set(offsets).union(b.offsets)))
    if len(offsets) >= limit:  # (as many rows as the dense batch: no gain left)
        raise NotBanded
    return offsets


def _common(ops, ts, shape, limit):
    """The diagonals of the batches ``ts`` (None: zero) meeting in one rule whose output
    has ``shape``, and their rows on those diagonals."""
    present = [t for t in ts if t is not None]
    if len(shape) != 1 or any(_shape(t.rows)[1] != shape[0] for t in present):
        raise NotBanded  # (another shape, or a broadcast across j: not a band)
    offsets = _union(present, limit)
    return offsets, [None if t is None else _aligned(ops, t, offsets) for t in ts]


def _fit(ops, d, offsets, arg):
    """A rule's batch result as a band of argument ``arg``'s shape and dtype."""
    shape = _shape(arg)
    if len(shape) != 1:
        raise NotBanded
    rows = (1 + len(offsets), shape[0])
    if _shape(d) != rows:
        if _shape(d)[-1:] != shape and _shape(d) != ():
            raise NotBanded  # (summed down to a broadcast argument: mixes columns)
        d = ops.call(np.broadcast_to, d, rows)
    if d.dtype != arg.dtype:
        d = ops.call(_cast, d, arg.dtype)
    return Band(offsets, d)


def _cast(d, dtype):
    return d.astype(dtype)


def _slice_start(node):
    """``a`` for ``v[a:b]`` of a vector (a gather of one step-1 slice), else None."""
    if node.prim is not gather_p or len(node.args) != 1 or len(_shape(node.args[0])) != 1:
        return None
    spec = node.params["spec"]
    if len(spec) != 1 or spec[0][0] != "s" or spec[0][3] != 1:
        return None
    return spec[0][1]


def _columns(rows, start, stop):
    return rows[:, start:stop]


def _pad(rows, start, n):
    out = np.zeros((rows.shape[0], n), rows.dtype)
    out[:, start:start + rows.shape[1]] = rows
    return out


def _padded(ops, band, start, n):
    """A slice's VJP on a band: the rows padded with zeros to length ``n`` (the pad
    copies, as the scatter of the dense batch does), the diagonals shifted."""
    return Band(tuple(d - start for d in band.offsets), ops.call(_pad, band.rows, start, n))


def _window_add(prev, prev_index, rows, index, start):
    out = prev.copy() if prev_index is None else prev[list(prev_index)]
    out[:, start:start + rows.shape[1]] += rows if index is None else rows[list(index)]
    return out


def _added_into(ops, prev, band, start, limit):
    """A slice's VJP added into ``prev`` (``prev[:, a:b] + g``, as ``vjp_into``)."""
    shifted = Band(tuple(d - start for d in band.offsets), band.rows)
    offsets = _union([prev, shifted], limit)
    return Band(offsets, ops.call(_window_add, prev.rows, _index(prev, offsets), band.rows,
                                  _index(shifted, offsets), start))


def _rows_sum(a, a_index, b, b_index):
    return (a if a_index is None else a[list(a_index)]) + \
        (b if b_index is None else b[list(b_index)])


def _band_sum(ops, prev, band, limit):
    offsets = _union([prev, band], limit)
    return Band(offsets, ops.call(_rows_sum, prev.rows, _index(prev, offsets), band.rows,
                                  _index(band, offsets)))


class _Bands:
    """The Hessian's tangents: a batch of ``limit`` tangents (the basis) as a
    :class:`Band`; the hooks of :func:`funcgrad.lean_sweep.sweep` (see its ``Dense``)."""

    __slots__ = ("limit",)
    refusal = NotBanded

    def __init__(self, limit):
        self.limit = limit  # (as many diagonals as this: no gain over the dense batch)

    @staticmethod
    def seed(ops, seed):
        return Band((0,), ops.call(_identity_seed, seed))

    def prepare(self, ops, ts, out):
        return _common(ops, ts, _shape(out), self.limit)

    @staticmethod
    def fit(ops, d, offsets, arg):
        return _fit(ops, d, offsets, arg)

    fit_output = fit

    @staticmethod
    def other_tangent(ops, node, args, out, ts):
        start = _slice_start(node)  # (a slice shifts the diagonals; nothing else is banded)
        if start is None:
            raise NotBanded
        band = ts[0]
        return Band(tuple(d + start for d in band.offsets),
                    ops.call(_columns, band.rows, start, start + _shape(out)[0]))

    @staticmethod
    def linear_tangents(ops, node, args, out, vjp, dct):
        start = _slice_start(node)
        if start is None:
            raise NotBanded
        return [_padded(ops, dct, start, _shape(args[0])[0])]

    def add_into(self, ops, owned, key, node, args, out, into, prev, dct):
        start = _slice_start(node)
        if start is None:
            raise NotBanded
        return _padded(ops, dct, start, _shape(args[0])[0]) if prev is None else \
            _added_into(ops, prev, dct, start, self.limit)

    def sum(self, ops, owned, slot, prev, band):
        return _band_sum(ops, prev, band, self.limit)

    def finish(self, ops, band, seed):
        if band is None:
            return ops.call(_zero_hessian, seed)
        return ops.call(_written, band.rows, band.offsets, self.limit)


def band_sweep(tape, x, out, seed, ops=_EAGER):
    """The Hessian ``H[j, k] = d(df/dx_j)/dx_k`` (as ``jacfwd(jacrev(f))`` lays it out)
    of the recording ``tape`` of a scalar function of the vector input tracer ``x`` with
    output tracer ``out`` (``seed``: ``x``'s value, for :class:`Programs`' signature);
    raises :class:`NotBanded` where a batch leaves the band.

    >>> import numpy as np
    >>> from funcgrad.second_order import record
    >>> rec = record(lambda y: np.sum(y[1:] * y[:-1]), np.arange(4.0), {})
    >>> band_sweep(rec.tape, rec.x, rec.out, rec.x.value)
    array([[0., 1., 0., 0.],
           [1., 0., 1., 0.],
           [0., 1., 0., 1.],
           [0., 0., 1., 0.]])
    """
    return sweep(tape, x, out, seed, _Bands(x.value.shape[0]), ops)


def _identity_seed(x):
    """The basis (the identity) as a band: the main diagonal of ones, zeros elsewhere."""
    rows = np.zeros((2, x.shape[0]), x.dtype)
    rows[1] = 1
    return rows


def _zero_hessian(x):
    return np.zeros(x.shape * 2, x.dtype)


def _written(rows, offsets, n):
    """The ``n x n`` Hessian from the input's band (row ``j``: element ``j`` of the
    gradient; column ``k``: the basis vector), the far row broadcast along each row."""
    H = np.empty((n, n), rows.dtype)
    H[...] = rows[0][:, None]
    flat = H.reshape(-1)
    for i, d in enumerate(offsets):
        if not -n < d < n:
            continue
        row = rows[1 + i]
        if d >= 0:  # H[j, j + d] for j < n - d
            flat[d:d + (n - d) * (n + 1):n + 1] = row[:n - d]
        else:  # H[j, j + d] for j >= -d
            flat[-d * n:-d * n + (n + d) * (n + 1):n + 1] = row[-d:]
    return H


PROGRAMS = Programs(run=band_sweep, refusals=(NotBanded,))


def band_hessian(tape, x, out, sweepable):
    """:func:`band_sweep` by the program written for the recording's shape
    (``sweepable()``: does a sweep cover the recording at all; see
    :meth:`funcgrad.sweep_programs.Programs.sweep`)."""
    return PROGRAMS.sweep(tape, x, out, x.value, sweepable)
