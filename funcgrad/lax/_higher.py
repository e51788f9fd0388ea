"""``jax.lax``'s higher-order operations on pytrees: ``map`` (a function over the leading
axis, as a :func:`~funcgrad.lax.scan`, optionally in vectorised batches),
``associative_scan`` (all prefix combinations in a logarithmic number of steps),
``stop_gradient``, ``composite`` and ``platform_dependent`` (which run the function they
are given), and the hints a compiler reads that funcgrad needs not
(``optimization_barrier``, ``dce_sink``, ``with_sharding_constraint``).

``associative_scan`` is built from slicing, the user's function and concatenation, so it
differentiates through the function as any composition does.  Its recursion: combine the
neighbours ``(0, 1), (2, 3), ...``; the prefixes of those pairs are the prefixes at the
odd positions; each even position ``2i > 0`` is then the odd prefix before it combined
with its own element; the two halves interleave back.
"""
import functools
import sys
from typing import Any, Callable

from .. import numpy as fnp
from .. import tree
from ..batched import vmap
from ..core import concrete
from ..numpy._convert import is_concrete
from ..primitives.structural import stop_gradient as _stop_gradient
from ._common import array, canonical_axis, static_int
from ._graphs import flatten_operands
from ._scan import scan
from ..typing import PyTree

__all__ = ["map", "associative_scan", "stop_gradient", "optimization_barrier", "composite",
           "platform_dependent", "dce_sink", "with_sharding_constraint"]


def stop_gradient(x: PyTree) -> PyTree:
    """``x`` (a pytree of arrays), treated as a constant by every derivative.

    >>> import funcgrad as fg
    >>> from funcgrad import lax
    >>> float(fg.grad(lambda x: x * lax.stop_gradient(x))(3.0))
    3.0
    """
    return tree.tree_map(_stop_gradient, x)


def optimization_barrier(operand: PyTree) -> PyTree:
    """``operand`` (a pytree of arrays) unchanged, derivatives included: JAX's fence
    against XLA moving computations across it; funcgrad's compiler keeps the order of the
    code as written, so nothing is needed.

    >>> import funcgrad as fg
    >>> from funcgrad import lax
    >>> float(fg.grad(lambda x: lax.optimization_barrier(x * x))(3.0))
    6.0
    """
    return operand


def dce_sink(val: PyTree, *, prevent_mlir_dce: bool = False) -> None:
    """Nothing: JAX's marks ``val`` as used so that its compiler keeps the code computing
    it; funcgrad's runs everything it is given.

    >>> from funcgrad import lax
    >>> lax.dce_sink(1.0) is None
    True
    """
    return None


def with_sharding_constraint(x: PyTree, shardings: Any) -> PyTree:
    """``x`` unchanged: JAX's constrains how ``x`` is laid out over several devices;
    funcgrad computes on one, where every layout is met.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.with_sharding_constraint(np.ones(2), None)
    array([1., 1.])
    """
    return x


def composite(decomposition: Callable[..., Any], name: str,
              version: int = 0) -> Callable[..., Any]:
    """``decomposition`` as a named operation (JAX's lets a compiler that knows ``name``
    swap in its own kernel; funcgrad always runs the decomposition, so derivatives,
    ``vmap`` and ``jit`` are those of the decomposition).  Positional arguments are the
    operands, keyword arguments the operation's attributes.  Also a decorator:
    ``functools.partial(lax.composite, name=...)``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> tangent = lax.composite(lambda x: lax.sin(x) / lax.cos(x), name="my.tangent")
    >>> bool(np.allclose(tangent(np.array([0.0, np.pi / 4])), [0.0, 1.0]))
    True
    """
    if not isinstance(name, str):
        raise TypeError(f"composite: name must be a string, got {name!r}")

    @functools.wraps(decomposition)
    def call(*args: Any, **attributes: Any) -> Any:
        return decomposition(*args, **attributes)
    return call


def _on_gpu(args):
    """Whether an array among ``args`` (pytrees) holds a GPU array: its operations run on
    the GPU, JAX's execution platform.  (Values known only abstractly, under ``jit`` or
    ``vmap``, count as the CPU's.)"""
    gpu = sys.modules.get("funcgrad.gpu")  # (only loaded once GPU arrays exist)
    return gpu is not None and any(is_concrete(x) and isinstance(concrete(x), gpu.GpuArray)
                                   for x in tree.leaves(args))


def platform_dependent(*args: Any, default: Callable[..., Any] | None = None,
                       **per_platform: Callable[..., Any]) -> Any:
    """``per_platform[platform](*args)``, or ``default(*args)`` when that platform has no
    branch: the platform is ``"cuda"`` when an argument is a GPU array (its operations
    run on the GPU), else ``"cpu"``.  JAX's traces every branch and picks one when it
    compiles; only the chosen branch runs here.  As JAX's, the GPU branch is named
    ``cuda=`` (or ``rocm=``), never ``gpu=``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.platform_dependent(np.ones(2), cpu=lambda x: 2 * x, default=lambda x: x)
    array([2., 2.])
    >>> lax.platform_dependent(np.ones(2), tpu=lambda x: 2 * x, default=lambda x: -x)
    array([-1., -1.])
    """
    if "gpu" in per_platform:
        raise ValueError("lax.platform_dependent: name the GPU branch cuda= (or rocm=), as "
                         "JAX does, not gpu=")
    platform = "cuda" if _on_gpu(args) else "cpu"
    branch = per_platform.get(platform, default)
    if branch is None:
        raise NotImplementedError(f"platform_dependent: these arguments live on the "
                                  f"{platform!r} platform, and neither a {platform}= branch "
                                  f"nor a default= was given (branches: "
                                  f"{sorted(per_platform)}); add one of them")
    return branch(*args)


def _leading(name, leaves):
    sizes = {int(x.shape[0]) for x in leaves if x.ndim}
    if not leaves or any(not x.ndim for x in leaves) or len(sizes) != 1:
        raise ValueError(f"{name}: every leaf needs the same leading axis to map over, got "
                         f"shapes {[tuple(x.shape) for x in leaves]}")
    return sizes.pop()


def map(f: Callable[..., Any], xs: PyTree, *,  # noqa: A001 - JAX's name
        batch_size: int | None = None) -> PyTree:
    """``f`` applied to each slice of ``xs`` (a pytree) along its leading axis, the
    results stacked: a :func:`~funcgrad.lax.scan` without carry.  With ``batch_size``,
    ``batch_size`` slices at a time under ``vmap`` (and the remainder in one batch).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.map(lambda x: x * x, np.arange(4.0))
    array([0., 1., 4., 9.])
    >>> lax.map(lambda x: x.sum(), np.ones((5, 2)), batch_size=2)
    array([2., 2., 2., 2., 2.])
    """
    leaves, treedef = flatten_operands(xs)
    leaves = [array(x) for x in leaves]
    n = _leading("map", leaves)
    xs = tree.unflatten(treedef, leaves)
    if batch_size is None:
        return scan(lambda carry, x: (carry, f(x)), (), xs)[1]
    size = static_int(batch_size, "map: batch_size")
    if size < 1:
        raise ValueError(f"map: batch_size must be >= 1, got {size}")
    full, rest = divmod(n, size)
    outs = []
    if full:
        blocks = tree.tree_map(lambda x: fnp.reshape(x[:full * size], (full, size) + tuple(
            x.shape[1:])), xs)
        ys = scan(lambda carry, x: (carry, vmap(f)(x)), (), blocks)[1]
        outs.append(tree.tree_map(lambda y: fnp.reshape(y, (full * size,) + tuple(
            y.shape[2:])), ys))
    if rest:
        outs.append(vmap(f)(tree.tree_map(lambda x: x[full * size:], xs)))
    if len(outs) == 1:
        return outs[0]
    return tree.tree_map(lambda a, b: fnp.concatenate([a, b]), outs[0], outs[1])


def _take(leaves, start, stop, axis, step=1):
    from ._structural import slice_in_dim
    return [slice_in_dim(x, start, stop, step, axis) for x in leaves]


def _interleave(evens, odds, axis):
    """Entries ``e0, o0, e1, o1, ...`` along ``axis`` (``len(evens) == len(odds)``)."""
    out = []
    for e, o in zip(evens, odds):
        pair = fnp.stack([e, o], axis=axis + 1)
        shape = list(e.shape)
        shape[axis] *= 2
        out.append(fnp.reshape(pair, tuple(shape)))
    return out


def associative_scan(fn: Callable[..., Any], elems: PyTree, reverse: bool = False,
                     axis: int = 0) -> PyTree:
    """All prefix combinations ``fn(...fn(fn(e0, e1), e2)..., ek)`` of ``elems`` (a pytree
    of arrays with one length along ``axis``) for an associative ``fn`` of two such pytrees
    (applied to whole slices at once), in ``O(log n)`` rounds; ``reverse=True`` combines
    from the end.  Differentiable through ``fn``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.associative_scan(np.add, np.arange(1.0, 6.0))
    array([ 1.,  3.,  6., 10., 15.])
    >>> lax.associative_scan(np.maximum, np.array([1.0, 3.0, 2.0, 5.0]), reverse=True)
    array([5., 5., 5., 5.])
    """
    leaves, treedef = flatten_operands(elems)
    leaves = [array(x) for x in leaves]
    if not leaves:
        return elems
    axis = canonical_axis(axis, leaves[0].ndim)
    lengths = {int(x.shape[axis]) for x in leaves}
    if len(lengths) != 1:
        raise ValueError(f"associative_scan: the leaves need one length along axis {axis}, "
                         f"got shapes {[tuple(x.shape) for x in leaves]}")

    def combine(a, b):
        out = fn(tree.unflatten(treedef, a), tree.unflatten(treedef, b))
        out_leaves, out_tree = flatten_operands(out)
        if out_tree != treedef:
            raise TypeError(f"associative_scan: fn returned structure {out_tree}, but the "
                            f"elements have structure {treedef}; they must be the same")
        return [array(x) for x in out_leaves]

    def prefixes(xs):
        n = int(xs[0].shape[axis])
        if n < 2:
            return xs
        odds = prefixes(combine(_take(xs, 0, n - 1, axis, 2), _take(xs, 1, n, axis, 2)))
        later = _take(xs, 2, n, axis, 2)  # the even positions after the first
        if int(later[0].shape[axis]):
            before = _take(odds, 0, int(later[0].shape[axis]), axis)
            later = combine(before, later)
        evens = [fnp.concatenate([f, e], axis=axis) for f, e in zip(_take(xs, 0, 1, axis),
                                                                   later)]
        out = _interleave(_take(evens, 0, n // 2, axis), odds, axis)
        if n % 2:
            out = [fnp.concatenate([o, e], axis=axis)
                   for o, e in zip(out, _take(evens, n // 2, n // 2 + 1, axis))]
        return out

    if reverse:
        leaves = [fnp.flip(x, axis) for x in leaves]
    out = prefixes(leaves)
    if reverse:
        out = [fnp.flip(x, axis) for x in out]
    return tree.unflatten(treedef, out)
