"""Collectives over a named ``vmap`` axis (JAX's ``psum``, ``pmean``, ``pmax``, ``pmin``,
``axis_index``): inside ``fg.vmap(f, axis_name="i")`` they combine the examples of the
batch, each example seeing the combined value.

Each is a primitive whose parameter ``axes`` holds the batching interpreters it reduces
over (names are looked up once, when it is called: identity, not names, from then on).
Called inside a graph being traced (``jit``, the body of ``scan``, ``fori_loop``,
``while_loop``, a branch of ``cond``) within the named vmap, it holds a
:class:`~funcgrad.interpreters.batching.StagedAxis` (the name) instead: the graph is
batched later, by an interpreter that answers to that name, as in JAX.
The interpreter of one of those axes reduces its batch dimension away (the rule in
``NAMED_AXIS_RULES``); any other interpreter batches the operation elementwise; a value
that is not batched along the axis is the same for every example (``psum`` of it is
``axis_size`` times it).  As in JAX, the transpose of ``psum`` is ``psum``: under
``vmap(grad(f))`` each example gets the derivative of the sum of every example's
output with respect to its input.  ``pmax``/``pmin`` are differentiable too (JAX's are
not): ties share the derivative equally, as ``max`` does.
"""
from typing import Any, Hashable

import numpy as np

from .. import tree
from ..core import Primitive, ShapedArray, current_interpreter
from ..devices import register_gpu
from ..interpreters.batching import NAMED_AXIS_RULES, BatchInterpreter, BatchTracer, StagedAxis
from ..interpreters.graph import GraphInterpreter
from ..numpy._convert import asarray
from ..primitives import elementwise as ew
from ..primitives import reductions as red
from ..primitives import structural as st
from ..typing import Array, ArrayLike, PyTree

__all__ = ["psum", "pmean", "pmax", "pmin", "axis_index", "psum_p", "pmax_p", "pmin_p"]

AxisName = Hashable | tuple[Hashable, ...]


def _axes(axis_name, what, staged_ok=True):
    """The batching interpreters named ``axis_name`` (a name or a tuple of names); a
    :class:`StagedAxis` for one beyond a graph being traced (unless not ``staged_ok``:
    the interpreter itself then)."""
    names = axis_name if isinstance(axis_name, (tuple, list)) else (axis_name,)
    found = []
    for name in names:
        interp, staged = current_interpreter(), False
        while interp is not None:
            if type(interp) is BatchInterpreter and interp.axis_name == name:
                break
            staged = staged or isinstance(interp, GraphInterpreter)
            interp = interp.parent
        else:
            raise NameError(f"unbound axis name: {name!r}. {what} combines the examples of "
                            f"a vmap named so: call it inside fg.vmap(f, axis_name={name!r})")
        # (the graph is batched later by another interpreter, which answers to the name)
        found.append(StagedAxis(name, interp.axis_size) if staged and staged_ok else interp)
    return tuple(found)


def _own_axis(interp, axes):
    """The entry of ``axes`` that ``interp`` batches: itself, or the name it answers to in
    a graph it batches (None if neither)."""
    for a in axes:
        if a is interp or (type(a) is StagedAxis and a.axis_name == interp.axis_name
                           and a.axis_size == interp.axis_size):
            return a
    return None


def _size(axes):
    n = 1
    for interp in axes:
        n *= interp.axis_size
    return n


def _same(aval, *, axes):
    return ShapedArray(aval.shape, aval.dtype)


def _batch(prim):
    """Under a vmap that is not one of ``axes``: the same collective, example by example
    of that vmap."""
    def rule(args, dims, *, axes):
        return prim.bind(args[0], axes=axes), dims[0]
    return rule


def _named(prim, reduce):
    """Under one of ``axes``' own vmap: reduce its batch dimension away, then the other
    axes (outer vmaps) combine the result."""
    def rule(interp, args, dims, *, axes):
        own = _own_axis(interp, axes)
        if own is None:
            return prim.batch(args, dims, axes=axes)
        out = reduce(args[0], (dims[0],))
        rest = tuple(a for a in axes if a is not own)
        return (prim.bind(out, axes=rest) if rest else out), None
    return rule


# --- psum -----------------------------------------------------------------------------------------

def _psum_impl(x, *, axes):
    # (reached by a value the same for every example: the sum is axis_size copies of it)
    n = _size(axes)
    return x if n == 1 else ew.multiply(x, n)


def _psum_jvp(primals, tangents, *, axes):
    t, = tangents
    return (psum_p.bind(primals[0], axes=axes),
            None if t is None else psum_p.bind(t, axes=axes))


def _psum_vjp(needs, ct, out, x, *, axes):
    return [psum_p.bind(ct, axes=axes)]


psum_p = Primitive("psum", _psum_impl, abstract_eval=_same, jvp=_psum_jvp, vjp=_psum_vjp)
psum_p.batch = _batch(psum_p)
NAMED_AXIS_RULES[psum_p] = _named(psum_p, st.reduce_sum)


# --- pmax and pmin ----------------------------------------------------------------------------------

def _extremum(name, reduce):
    def impl(x, *, axes):
        return x  # (the same value in every example)

    def share(x, out, dtype, axes):
        # Ties share the derivative equally, as max's do.  (At least the maximum itself
        # hits, so the count is 1 or more, except over an empty batch: there, nothing.)
        hit = st.convert_element_type(ew.equal(x, out), dtype)
        return hit / ew.maximum(psum_p.bind(hit, axes=axes), 1)

    def jvp(primals, tangents, *, axes):
        x, = primals
        t, = tangents
        out = prim.bind(x, axes=axes)
        if t is None:
            return out, None
        return out, psum_p.bind(t * share(x, out, t.dtype, axes), axes=axes)

    def vjp(needs, ct, out, x, *, axes):
        return [psum_p.bind(ct, axes=axes) * share(x, out, ct.dtype, axes)]

    prim = Primitive(name, impl, abstract_eval=_same, jvp=jvp, vjp=vjp)
    prim.batch = _batch(prim)
    NAMED_AXIS_RULES[prim] = _named(prim, reduce)
    return prim


pmax_p = _extremum("pmax", red.reduce_max)
pmin_p = _extremum("pmin", red.reduce_min)

# They compute with primitives, on GPU arrays as on NumPy's.
register_gpu({p: (lambda p: lambda *xs, **params: p.impl(*xs, **params))(p)
              for p in (psum_p, pmax_p, pmin_p)})


# --- the functions --------------------------------------------------------------------------------

def _no_groups(axis_index_groups, what):
    # (subgroups of the axis: JAX's vmap collectives refuse them too)
    if axis_index_groups is not None:
        raise NotImplementedError(f"{what}: axis_index_groups is not supported; reduce over "
                                  f"the whole axis (axis_index_groups=None)")


def _collective(prim, x, axis_name, what):
    axes = _axes(axis_name, what)
    return tree.tree_map(lambda leaf: prim.bind(asarray(leaf), axes=axes), x)


def psum(x: PyTree, axis_name: AxisName, *, axis_index_groups: Any = None) -> PyTree:
    """The sum over the examples of the named ``vmap`` axis (a name, or a tuple of names
    of nested vmaps); every example gets it.  ``x`` may be a pytree.

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: x / fg.lax.psum(x, "i"), axis_name="i")(np.array([1.0, 3.0]))
    array([0.25, 0.75])
    """
    _no_groups(axis_index_groups, "psum")
    return _collective(psum_p, x, axis_name, "psum")


def pmean(x: PyTree, axis_name: AxisName, *, axis_index_groups: Any = None) -> PyTree:
    """The mean over the examples of the named ``vmap`` axis (see :func:`psum`).

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: x - fg.lax.pmean(x, "i"), axis_name="i")(np.array([1.0, 3.0]))
    array([-1.,  1.])
    """
    _no_groups(axis_index_groups, "pmean")
    n = _size(_axes(axis_name, "pmean"))
    return tree.tree_map(lambda s: ew.divide(s, n) if n != 1 else s,
                         psum(x, axis_name))


def pmax(x: PyTree, axis_name: AxisName, *, axis_index_groups: Any = None) -> PyTree:
    """The maximum over the examples of the named ``vmap`` axis (see :func:`psum`); tied
    maxima share the derivative.

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: fg.lax.pmax(x, "i"), axis_name="i")(np.array([1.0, 3.0]))
    array([3., 3.])
    """
    _no_groups(axis_index_groups, "pmax")
    return _collective(pmax_p, x, axis_name, "pmax")


def pmin(x: PyTree, axis_name: AxisName, *, axis_index_groups: Any = None) -> PyTree:
    """The minimum over the examples of the named ``vmap`` axis (see :func:`psum`).

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: fg.lax.pmin(x, "i"), axis_name="i")(np.array([1.0, 3.0]))
    array([1., 1.])
    """
    _no_groups(axis_index_groups, "pmin")
    return _collective(pmin_p, x, axis_name, "pmin")


def axis_index(axis_name: AxisName) -> Array:
    """Each example's position along the named ``vmap`` axis (int32, as JAX's); for a
    tuple of names, the position in their row-major product.

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: x * fg.lax.axis_index("i"), axis_name="i")(np.ones(3))
    array([0., 1., 2.])
    """
    index: Any = None
    for interp in _axes(axis_name, "axis_index", staged_ok=False):
        # (built as the vmap's own batched value: a constant to every other transform, a
        # graph being traced included, which takes it as an input)
        position = BatchTracer(interp, np.arange(interp.axis_size, dtype=np.int32), 0)
        index = position if index is None else index * np.int32(interp.axis_size) + position
    return index


def one_hot_along(x: ArrayLike, num_classes: int, axis_name: AxisName, dtype: Any) -> Array:
    """``jax.nn.one_hot(x, num_classes, axis=name)``: the class is the position along the
    named vmap axis, whose size must be ``num_classes``."""
    size = _size(_axes(axis_name, "one_hot"))
    if size != num_classes:
        raise ValueError(f"one_hot: num_classes ({num_classes}) must be the size of the vmap "
                         f"axis {axis_name!r} ({size})")
    return st.convert_element_type(ew.equal(asarray(x), axis_index(axis_name)), dtype)
