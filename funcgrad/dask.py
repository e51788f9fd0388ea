"""Gradients over data that outgrow one machine, computed by Dask.

The data are ``dask.array`` arrays split into blocks of rows; each block's share of the
derivative is computed where the block lives (a thread, a worker process, a machine of a
cluster), with funcgrad's transforms, and Dask assembles the result:

* :func:`value_and_grad_sum` / :func:`grad_sum`: the gradient of a loss that is a sum over
  rows, ``L(params) = sum over blocks of loss(params, block)``: each block's
  ``value_and_grad`` is a row of partial sums, and Dask tasks add the rows in a tree
  (``split_every`` rows a task, in block order), or, for data held in the workers' memory,
  each worker adds up its own blocks' rows (one ``Client.run`` call, no tasks);
* :func:`per_example_grads`: ``vmap(grad(loss))`` over the rows, as ``dask.array`` arrays
  with the data's row blocks.

The same code runs on the threads of one process, on a ``LocalCluster``'s worker
processes and on a cluster of machines: it follows Dask's current scheduler (a
``distributed.Client`` once one is made).  With a client, the parameters and the
transformed function are scattered to every worker once per call, not sent with every
task; a jitted loss (``fg.jit``) is rebuilt once per worker process and compiles there
once for all the calls that ship it (see ``funcgrad/jit/shipping.py``).  Functions travel
with cloudpickle, as Dask sends them: importable ones by name, others by value.

Worker processes: Dask starts them with ``MALLOC_TRIM_THRESHOLD_=65536`` (to hand freed
memory back to the system), and funcgrad then leaves the C allocator alone (see
``funcgrad/_malloc.py``); and a worker runs its tasks on a thread whose own malloc arena
gives emptied heaps back at once.  Either way every large temporary array faults its pages
in again, and a gradient ran 2-10 times slower in a worker than in the client (measured:
0.12 s against 0.02 s per block of 10^5 rows; 120 ms against 75 ms for a tanh network on
2*10^5 rows).  Start clusters under ``dask.config.set(WORKER_CONFIG)`` (or, in the
workers' Dask configuration, put ``MALLOC_TRIM_THRESHOLD_: null`` and
``MALLOC_ARENA_MAX: 1`` under ``distributed.nanny.pre-spawn-environ``) so that funcgrad
keeps freed memory for reuse there too.

Needs Dask: ``pip install 'funcgrad[dask]'`` (``dask[distributed]``).
"""
import asyncio
import functools
import numbers
import sys
import weakref
from typing import Any, Callable, Optional

import numpy as np

try:
    import dask
    import dask.array as da
except ImportError:  # (the message names the extra that installs it)
    raise ImportError("funcgrad.dask needs Dask: pip install 'funcgrad[dask]' (or "
                      "pip install 'dask[distributed]')") from None

from . import tree
from .api import grad, value_and_grad
from .batched import vmap
from .typing import Array, ArrayLike, PyTree

__all__ = ["value_and_grad_sum", "grad_sum", "per_example_grads", "WORKER_CONFIG"]

#: Dask configuration for starting funcgrad's workers: without Dask's allocator setting,
#: so that funcgrad's own applies (see the module's docstring).  Use it around the
#: cluster's creation:
#:
#: >>> import dask, funcgrad.dask as fgd
#: >>> with dask.config.set(fgd.WORKER_CONFIG):
#: ...     pass  # cluster = distributed.LocalCluster(...)
#:
#: It also makes Dask's own upkeep lighter: no statistical profiler sampling every
#: thread's stack 100 times a second (the dashboard's "Profile" page stays empty), and
#: event-loop health checks, memory and system monitoring every 0.2-2 s instead of
#: every 20-500 ms.  Idle, a ``LocalCluster`` of 2 workers then used 2% of a core instead
#: of 13%, CPU taken from the workers' arithmetic on a machine with a core per worker.
WORKER_CONFIG = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
                 "distributed.nanny.pre-spawn-environ.MALLOC_ARENA_MAX": 1,
                 "distributed.worker.profile.enabled": False,
                 "distributed.admin.tick.interval": "200ms",
                 "distributed.worker.memory.monitor-interval": "1s",
                 "distributed.admin.system-monitor.interval": "2s"}


# --- the client side: checks, broadcast, the graph ----------------------------------------

def _check_params(params, caller):
    leaves, treedef = tree.flatten(params)
    for i, leaf in enumerate(leaves):
        kind = np.asarray(leaf).dtype.kind
        if kind not in "fc":
            raise TypeError(f"{caller}: parameter leaf {i} has dtype "
                            f"{np.asarray(leaf).dtype}; gradients are taken with respect to "
                            f"float or complex arrays. Convert it (np.asarray(p, float)) or "
                            f"close over it in the loss.")
    return leaves, treedef


def _row_blocks(data, caller):
    """The data arrays with the same row blocks and every other axis in one block."""
    if not data:
        raise TypeError(f"{caller}: no data given; pass one or more dask arrays after the "
                        f"parameters, e.g. {caller}(loss, params, X, y)")
    arrays = []
    for i, x in enumerate(data):
        if not isinstance(x, da.Array):
            raise TypeError(f"{caller}: data argument {i} is a {type(x).__name__}, not a "
                            f"dask array. Wrap it with dask.array.from_array(x, "
                            f"chunks=(rows_per_block, ...)) so that Dask splits it into "
                            f"blocks of rows.")
        if x.ndim == 0:
            raise ValueError(f"{caller}: data argument {i} is 0-d; data are arrays of rows "
                             f"(axis 0 indexes the rows)")
        if x.shape[0] != data[0].shape[0]:
            raise ValueError(f"{caller}: data argument {i} has {x.shape[0]} rows but data "
                             f"argument 0 has {data[0].shape[0]}; every data array must "
                             f"have one row per example")
        # Rows follow the first array's blocks; a row's other axes stay together.
        arrays.append(x.rechunk((data[0].chunks[0],) + (-1,) * (x.ndim - 1)))
    return arrays


def _client():
    """The ``distributed.Client`` that Dask's ``compute`` would use now, or None (the
    threaded, processes or synchronous scheduler, even while a client exists)."""
    if "distributed" not in sys.modules:  # no client can exist without the module
        return None
    from dask.base import get_scheduler
    from distributed import Client
    client = getattr(get_scheduler(), "__self__", None)  # (Client.get, bound)
    return client if isinstance(client, Client) else None


def _broadcast(*objs):
    """Each object as one node of the graph, sent to each worker once (not once per
    task): with a client, scattered to every worker in one round trip."""
    client = _client()
    if client is not None:
        return client.scatter(list(objs), broadcast=True, hash=False)
    return [dask.delayed(obj, traverse=False) for obj in objs]


_placements: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _held_blocks(client, arrays):
    """``({worker: [the row blocks of every data array, ...]}, together)`` when every
    row block is in a worker's memory (persisted data), grouped by the worker holding the
    first array's block, ``together`` when that worker holds the row's other blocks too;
    None otherwise (the blocks are computed by the graph instead).

    Where the blocks live is asked of the scheduler once per client and data (a round
    trip): blocks that move later still reach their worker's sum, only slower, since it
    then runs as tasks that fetch them."""
    from dask.core import flatten
    from distributed import futures_of
    futures = {}
    for x in arrays:
        futures.update((f.key, f) for f in futures_of(x))
    keys = [list(flatten(x.__dask_keys__())) for x in arrays]
    if any(len(k) != arrays[0].numblocks[0] or not all(key in futures for key in k)
           for k in keys):
        return None
    known = _placements.setdefault(client, {})
    data_keys = tuple(tuple(k) for k in keys)
    placement = known.get(data_keys)
    if placement is None:
        everything = [key for k in keys for key in k]
        holders = client.who_has([futures[key] for key in everything])
        if not all(holders.get(key) for key in everything):
            return None  # (still being computed)
        first = [holders[key][0] for key in keys[0]]
        together = all(w in holders[k[i]] for k in keys[1:] for i, w in enumerate(first))
        placement = (first, together)
        if len(known) > 64:
            known.clear()
        known[data_keys] = placement
    groups = {}
    for i, worker in enumerate(placement[0]):
        groups.setdefault(worker, []).append([futures[k[i]] for k in keys])
    return groups, placement[1]


def _per_worker_sums(client, held, kernel, params, dtype):
    """The sum of the blocks' ``[value, *gradient]`` rows, each worker adding up the
    blocks it holds (no block moves), the client adding the workers' rows.

    Where each worker holds all of its rows' blocks, its sum runs through ``Client.run``,
    outside Dask's task system: no task states, dependencies or transitions for the
    scheduler to keep, which on a 2-core machine cost the scheduler and client 30-45 ms
    of CPU per call beside the workers.  Otherwise (data arrays persisted apart, or a
    block moved since its placement was asked), one task per worker does the same sum,
    fetching what it lacks."""
    groups, together = held
    rows = None
    if together:
        keys = {worker: [[f.key for f in row] for row in blocks]
                for worker, blocks in groups.items()}
        rows = list(client.run(_held_sum, kernel, params, keys, dtype,
                               workers=list(keys)).values())
        if any(row is None for row in rows):  # a block moved: ask again next time
            _placements.pop(client, None)
            rows = None
    if rows is None:
        tasks = [client.submit(_blocks_value_and_grad, kernel, params, blocks,
                               out_dtype=dtype, workers=[worker], allow_other_workers=True,
                               pure=False)
                 for worker, blocks in groups.items()]
        rows = client.gather(tasks)
    return np.sum(rows, axis=0)[0]


def _blockwise(block_fn, kernel, params, arrays, width, dtype, one_row_per_block):
    """A dask array with a row of ``width`` numbers per block (or per row) of the data."""
    letters = iter("abcdefghijklmnoqstuvwxyz")
    kernel_node, params_node = _broadcast(kernel, params)
    args = [kernel_node, None, params_node, None]
    for x in arrays:  # the data's other axes are contracted: each block is whole rows
        args += [x, "r" + "".join(next(letters) for _ in range(x.ndim - 1))]
    # Not concatenate=True: the other axes are one chunk, and Dask's concatenation of one
    # chunk copies it (a block's copy was a third of a worker's time per task).
    return da.blockwise(block_fn, "rp", *args, new_axes={"p": width}, concatenate=False,
                        adjust_chunks={"r": 1} if one_row_per_block else None,
                        dtype=dtype, meta=np.empty((0, 0), dtype), out_dtype=dtype)


def _tree_sum(rows, split_every, caller):
    """The sum of the 1-row blocks of ``rows``, ``split_every`` of them added by each
    task, in block order (the same additions whichever worker runs which).

    Not ``rows.sum``: Dask's reduction adds a task per block (each block's own sum)
    before its tree, and a call spends most of its time in Dask's cost per task (20
    blocks on a LocalCluster: 68 tasks against these 48, 950 against 770 ms a call)."""
    split = split_every or dask.config.get("split_every", 4)
    if isinstance(split, dict):  # (Dask's per-axis form)
        split = split.get(0, 4)
    if not isinstance(split, numbers.Integral) or split < 2:
        raise ValueError(f"{caller}: split_every={split_every!r}; give an integer >= 2 "
                         f"(the partial sums added at a time) or None for Dask's default")
    parts = list(rows.to_delayed().ravel())
    while len(parts) > 1:
        parts = [dask.delayed(_add_rows, pure=True)(*parts[i:i + split])
                 for i in range(0, len(parts), split)]
    return dask.compute(parts[0])[0][0]


# --- the worker side: one block ---------------------------------------------------------

def _whole(block):
    """A data block as an array: Dask hands a block with contracted axes in nested lists,
    one level per axis, each holding the one chunk :func:`_row_blocks` made."""
    while type(block) is list:
        block = block[0]
    return block


def _block_value_and_grad(kernel, params, *blocks, out_dtype):
    """``[value, *gradient]`` of one block of rows, as a 1-row array."""
    value, grads = kernel(params, *map(_whole, blocks))
    return np.concatenate([np.reshape(value, 1).astype(out_dtype, copy=False)]
                          + [np.ravel(g).astype(out_dtype, copy=False)
                             for g in tree.leaves(grads)])[None, :]


def _blocks_value_and_grad(kernel, params, blocks, *, out_dtype):
    """The sum of :func:`_block_value_and_grad` over ``blocks`` (each the row blocks of
    the data arrays), in order."""
    total = None
    for row_blocks in blocks:
        row = _block_value_and_grad(kernel, params, *row_blocks, out_dtype=out_dtype)
        total = row if total is None else total + row
    return total


async def _held_sum(kernel, params, keys, out_dtype, dask_worker=None):
    """On a worker, by ``Client.run``: :func:`_blocks_value_and_grad` over the blocks
    ``keys[this worker]`` it holds (None if one is gone), computed on the worker's
    executor so that its event loop keeps answering meanwhile."""
    data = dask_worker.data
    wanted = keys[dask_worker.address]
    if not all(k in data for row in wanted for k in row):
        return None
    blocks = [[data[k] for k in row] for row in wanted]
    work = functools.partial(_blocks_value_and_grad, kernel, params, blocks,
                             out_dtype=out_dtype)
    return await asyncio.get_running_loop().run_in_executor(
        dask_worker.executors.get("default"), work)


def _add_rows(*rows):
    """Partial sums added in the order given."""
    total = rows[0]
    for row in rows[1:]:
        total = total + row
    return total


def _block_per_example(kernel, params, *blocks, out_dtype):
    """One row ``[*gradient]`` per example of the block."""
    blocks = [_whole(b) for b in blocks]
    grads = kernel(params, *blocks)
    n = blocks[0].shape[0]
    leaves = [np.reshape(g, (n, -1)).astype(out_dtype, copy=False)
              for g in tree.leaves(grads)]
    return np.concatenate(leaves, axis=1) if leaves else np.empty((n, 0), out_dtype)


def _unravel(flat, leaves, treedef):
    """Gradient leaves with the parameters' shapes, dtypes and array-or-scalar kinds."""
    out, start = [], 0
    for leaf in leaves:
        arr = np.asarray(leaf)
        piece = flat[start:start + arr.size].reshape(arr.shape)
        start += arr.size
        piece = piece.real if arr.dtype.kind == "f" and piece.dtype.kind == "c" else piece
        piece = piece.astype(arr.dtype)
        out.append(piece if isinstance(leaf, np.ndarray) else piece[()])
    return tree.unflatten(treedef, out)


# --- the public functions ---------------------------------------------------------------

def value_and_grad_sum(loss: Callable[..., ArrayLike], params: PyTree, *data: Any,
                       split_every: Optional[int] = None) -> tuple[Array, PyTree]:
    """``(L, dL/dparams)`` for ``L = sum over the row blocks of loss(params, *blocks)``.

    ``data`` are dask arrays with one row per example (axis 0; several arrays, such as
    inputs and labels, are split at the same rows).  ``loss(params, *blocks)`` returns a
    real scalar for a block of rows, and the losses of the blocks add up to the total (a
    sum over rows; for a mean, divide by the total number of rows inside ``loss``).
    Each block's ``fg.value_and_grad(loss)`` runs where Dask schedules it, and tasks add
    them in a tree (``split_every`` partial sums a task, in block order, so every run
    adds the same numbers in the same order; Dask's default, 4, when None).  Data
    held in the workers' memory (``persist()`` on a ``distributed.Client``) take a
    shorter way: each worker adds up the blocks it holds, outside Dask's task system,
    and the client adds the workers' sums (Dask's cost per task, milliseconds, is not
    paid per block and partial sum).  The worker holding the most blocks then sets the
    call's time: ``persist`` places blocks where Dask sees fit (20 blocks went 11 and 9
    to 2 workers in some runs, 10% slower than 10 and 10); make blocks on chosen
    workers (``client.submit(..., workers=[w])``) where that matters.
    Returns NumPy values: ``params``' structure, shapes and dtypes.

    Pass ``fg.jit(loss)`` to run compiled code: it compiles once per worker process
    and signature (keep the row blocks equal in size so they share one).  Computes on
    Dask's current scheduler, a ``distributed.Client`` when one exists.

    >>> import numpy as np, dask.array as da, funcgrad.dask as fgd
    >>> X = da.from_array(np.arange(12.0).reshape(6, 2), chunks=(2, 2))
    >>> loss = lambda w, x: np.sum((x @ w) ** 2)
    >>> value, g = fgd.value_and_grad_sum(loss, np.array([1.0, -1.0]), X)
    >>> value, g
    (np.float64(6.0), array([-60., -72.]))
    """
    caller = "value_and_grad_sum"
    leaves, treedef = _check_params(params, caller)
    arrays = _row_blocks(data, caller)
    # Partial sums are added in the widest type of the parameters and the data.
    dtype = np.result_type(*leaves, *(x.dtype for x in arrays), np.float16)
    width = 1 + sum(np.size(leaf) for leaf in leaves)
    client = _client()
    held = None if client is None else _held_blocks(client, arrays)
    if held is not None:
        total = _per_worker_sums(client, held, value_and_grad(loss), params, dtype)
    else:
        rows = _blockwise(_block_value_and_grad, value_and_grad(loss), params, arrays, width,
                          dtype, one_row_per_block=True)
        total = _tree_sum(rows, split_every, caller)
    value = np.asarray(total[0].real if dtype.kind == "c" else total[0])
    return value[()], _unravel(total[1:], leaves, treedef)


def grad_sum(loss: Callable[..., ArrayLike], params: PyTree, *data: Any,
             split_every: Optional[int] = None) -> PyTree:
    """``dL/dparams`` for ``L = sum over the row blocks of loss(params, *blocks)``: the
    gradient part of :func:`value_and_grad_sum` (see there).

    >>> import numpy as np, dask.array as da, funcgrad.dask as fgd
    >>> X = da.from_array(np.ones((8, 3)), chunks=(4, 3))
    >>> fgd.grad_sum(lambda w, x: np.sum(x @ w), np.zeros(3), X)
    array([8., 8., 8.])
    """
    return value_and_grad_sum(loss, params, *data, split_every=split_every)[1]


def per_example_grads(loss: Callable[..., ArrayLike], params: PyTree, *data: Any) -> PyTree:
    """The gradient of ``loss(params, *example)`` for every example (row) of the data,
    as dask arrays: ``fg.vmap(fg.grad(loss), in_axes=(None, 0, ...))`` on each block.

    ``loss`` takes one example (a row of each data array) and returns a real scalar.
    The result has ``params``' structure; each leaf is a lazy dask array of shape
    ``(rows,) + leaf.shape`` and the leaf's dtype, split into the data's row blocks
    (compute it, store it, or reduce it with Dask).

    >>> import numpy as np, dask.array as da, funcgrad.dask as fgd
    >>> X = da.from_array(np.arange(6.0).reshape(3, 2), chunks=(2, 2))
    >>> g = fgd.per_example_grads(lambda w, x: (x @ w) ** 2, np.ones(2), X)
    >>> g.shape, g.chunks
    ((3, 2), ((2, 1), (2,)))
    >>> g.compute()
    array([[ 0.,  2.],
           [20., 30.],
           [72., 90.]])
    """
    caller = "per_example_grads"
    leaves, treedef = _check_params(params, caller)
    arrays = _row_blocks(data, caller)
    dtype = np.result_type(*leaves, np.float16)
    kernel = vmap(grad(loss), in_axes=(None,) + (0,) * len(arrays))
    width = sum(np.size(leaf) for leaf in leaves)
    rows = _blockwise(_block_per_example, kernel, params, arrays, width, dtype,
                      one_row_per_block=False)
    out, start = [], 0
    for leaf in leaves:
        arr = np.asarray(leaf)
        piece = rows[:, start:start + arr.size].reshape((rows.shape[0],) + arr.shape)
        start += arr.size
        out.append(piece.astype(arr.dtype) if piece.dtype != arr.dtype else piece)
    return tree.unflatten(treedef, out)
