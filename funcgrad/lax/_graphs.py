"""What the control-flow primitives share: the user's functions traced into graphs, and
the bookkeeping their derived rules do on those graphs' inputs and outputs."""
import numpy as np

from .. import tree
from ..core import WEAK_TYPES, ShapedArray, Tracer, is_special, stands_for_tensor
from ..interpreters.graph import Graph, Var
from ..jit.derive import out_aval, zeros
from ..jit.passes import closure_convert, lift_tensors
from ..jit.trace import trace_flat
from ..numpy._convert import asarray

__all__ = ["flatten_operands", "operand", "aval", "trace_pytree", "merge_closures", "cast_constant_outputs",
           "check_carry", "promoting_weak_carry", "plain_array", "reorder", "with_extra_inputs", "batch_size",
           "batch_axis_first", "carry_fixed_point", "tangent_groups", "with_tangents",
           "split_tangents"]


def flatten_operands(operands):
    """``tree.flatten`` of what the user hands a control-flow function, an eager Tensor
    one leaf (``core.is_special``), as the transforms take it: the primitive then binds
    on the Tensor and records on its graph.  Flattened as the pytree of its value, the
    Tensor would give up its derivative, silently."""
    return tree.flatten(operands, is_special)


def operand(x):
    return x if isinstance(x, Tracer) else asarray(x)


def aval(x):
    return ShapedArray(x.shape, x.dtype)


def plain_array(x):
    """A 0-d array for a NumPy or Python scalar: impls return arrays, as kernels do."""
    return np.asarray(x) if isinstance(x, (np.generic, float, int, bool)) else x


# --- the user's functions, as graphs -----------------------------------------------------------

def trace_pytree(fun, avals, what, values=()):
    """Trace ``fun`` on ``avals`` into a graph with closed-over tracers made inputs:
    ``(graph, tracers, out_tree)``; ``fun`` returns a pytree.  ``values``: the operands
    the avals are of, so that an input standing for an eager Tensor is traced as one
    (with the Tensor's methods, as the function runs eagerly on it)."""
    out_trees = []

    def flat(*xs):
        out = fun(*xs)
        leaves, out_tree = tree.flatten(out)
        out_trees.append(out_tree)
        return [operand(o) for o in leaves]

    tensors = tuple(i for i, x in enumerate(values) if stands_for_tensor(x))
    graph = trace_flat(flat, avals, what, tensors)
    graph, tracers = closure_convert(graph)
    # (eager Tensors closed over are operands too: under jit they reach the compiled
    # call as inputs, recorded on their graph, instead of constants NumPy cannot read)
    graph, tensors = lift_tensors(graph)
    return graph, tensors + tracers, out_trees[0]


def merge_closures(graphs_and_tracers):
    """Give several graphs the same leading closure inputs: the union of the tracers they
    closed over.  Returns ``(graphs, tracers)``."""
    union, index = [], {}
    for _, tracers in graphs_and_tracers:
        for t in tracers:
            if id(t) not in index:
                index[id(t)] = len(union)
                union.append(t)
    graphs = []
    for graph, tracers in graphs_and_tracers:
        own = {id(t): v for t, v in zip(tracers, graph.invars[:len(tracers)])}
        lead = [own.get(id(t)) or Var(aval(t)) for t in union]
        graphs.append(Graph(lead + list(graph.invars[len(tracers):]), graph.eqns,
                            graph.outvars))
    return graphs, union


def cast_constant_outputs(graph, avals, what):
    """Outputs that are constants take the abstract value ``avals`` expects."""
    outs = []
    for i, (x, want) in enumerate(zip(graph.outvars, avals)):
        if not isinstance(x, Var) and out_aval(x) != want:
            c = np.asarray(x)
            try:
                np.broadcast_to(c, want.shape)
            except ValueError:
                raise TypeError(f"{what}: output {i} is a constant of shape {c.shape}, which "
                                f"does not fit {want.str_short()}") from None
            x = np.broadcast_to(c.astype(want.dtype), want.shape).copy()
        outs.append(x)
    return Graph(list(graph.invars), graph.eqns, outs + list(graph.outvars[len(avals):]))


class _WeakCarry(TypeError):
    """A carry leaf given as a Python number met a body returning another dtype of its
    shape (raised inside the trace, caught by :func:`promoting_weak_carry`)."""

    def __init__(self, message, owner, leaf, dtype):
        super().__init__(message)
        self.owner, self.leaf, self.dtype = owner, leaf, dtype


def check_carry(what, init_tree, init_avals, carry, weak=None):
    """The leaves of the ``carry`` a loop body returned, which must have the structure,
    shapes and dtypes of the initial value (``init_tree``, ``init_avals``).  ``weak``
    (from :func:`promoting_weak_carry`) marks the leaves given as Python numbers."""
    leaves, out_tree = tree.flatten(carry)
    out_avals = [aval(operand(c)) for c in leaves]
    if out_tree != init_tree:
        raise TypeError(f"{what}: the body returns a carry of structure {out_tree}, but the "
                        f"initial value has structure {init_tree}; they must be the same")
    for i, (a, b) in enumerate(zip(init_avals, out_avals)):
        if a != b:
            message = (
                f"{what}: the body returns {b.str_short()} for carry leaf {i}, but the "
                f"initial value is {a.str_short()}; the carry must keep its shape and dtype "
                f"(give the initial value the right dtype, e.g. np.float32(0), or cast in the "
                f"body with .astype)")
            if (weak is not None and weak[i] and a.shape == b.shape
                    and np.promote_types(a.dtype, b.dtype) == b.dtype):
                raise _WeakCarry(message, weak, i, b.dtype)
            raise TypeError(message)
    return leaves


def promoting_weak_carry(raw_leaves, run):
    """``run(leaves, weak)``, the tracing of a loop on its initial carry leaves, where a
    leaf given as a Python number takes the dtype the body returns for it (``0`` summing
    floats becomes ``0.0``), as JAX promotes weakly typed carries; ``weak`` goes to
    :func:`check_carry`.  Other dtype changes stay errors."""
    weak = [type(x) in WEAK_TYPES for x in raw_leaves]
    leaves = [operand(x) for x in raw_leaves]
    while True:
        try:
            return run(leaves, weak)
        except _WeakCarry as e:
            if e.owner is not weak:  # an inner loop's, or an outer loop's, leaf
                raise
            leaves[e.leaf] = np.asarray(leaves[e.leaf]).astype(e.dtype)


# --- regrouping a graph's inputs and outputs ----------------------------------------------------

def reorder(graph, groups_in, groups_out):
    """``graph`` with inputs and outputs regrouped: ``groups_*`` list index ranges."""
    invars = [graph.invars[i] for g in groups_in for i in g]
    outvars = [graph.outvars[i] for g in groups_out for i in g]
    return Graph(invars, graph.eqns, outvars)


def with_extra_inputs(graph, extra_avals):
    """``graph`` taking (and ignoring) extra trailing inputs."""
    return Graph(list(graph.invars) + [Var(a) for a in extra_avals], graph.eqns,
                 graph.outvars)


# --- batching ---------------------------------------------------------------------------------

def batch_size(args, dims):
    return next(a.shape[d] for a, d in zip(args, dims) if d is not None)


def batch_axis_first(x, dim, size, force=False):
    """``x`` with its batch axis ``dim`` moved first; an unbatched ``x`` is left as it is,
    or, with ``force``, given a batch axis (a loop carry that becomes batched)."""
    from ..primitives.structural import broadcast_to, moveaxis, reshape
    if dim is not None:
        return moveaxis(x, dim, 0)
    if force:
        return broadcast_to(reshape(x, (1,) + tuple(x.shape)), (size,) + tuple(x.shape))
    return x


# --- loops: which carries a transform reaches --------------------------------------------------

def carry_fixed_point(flags, step):
    """Which loop carries end up nonzero (batched): those in ``flags`` and those one step
    of the body makes so, ``step(flags) -> flags of the new carries``, until nothing
    changes -- at most one round per carry."""
    flags = list(flags)
    for _ in range(len(flags) + 1):
        new = [a or b for a, b in zip(flags, step(flags))]
        if new == flags:
            break
        flags = new
    return flags


# --- forward mode: primals and their tangents, side by side -----------------------------------
#
# A JVP graph takes (and returns) the primals, then the tangents of the positions its
# ``pattern`` marks.  Primitives that split their operands into groups (constants,
# carries, scanned inputs) want each group's tangents right after that group.

def tangent_groups(n, pattern, groups):
    """For a JVP graph of ``n`` primals and the tangents ``pattern`` marks: the index of
    each group's primals and then of their tangents, per ``[lo, hi)`` in ``groups``."""
    tangent_index = {p: n + j for j, p in enumerate(p for p, z in enumerate(pattern) if z)}
    return [list(range(lo, hi)) + [tangent_index[p] for p in range(lo, hi) if pattern[p]]
            for lo, hi in groups]


def with_tangents(primals, tangents, pattern, groups):
    """The operands in the order :func:`tangent_groups` gives (a None tangent that the
    pattern marks becomes zeros)."""
    out = []
    for lo, hi in groups:
        out += primals[lo:hi]
        out += [tangents[p] if tangents[p] is not None else zeros(aval(primals[p]))
                for p in range(lo, hi) if pattern[p]]
    return out


def split_tangents(outs, pattern, groups):
    """Outputs in the order of :func:`tangent_groups` back to ``(primals, tangents)``; the
    tangent of a position the pattern does not mark is None (a symbolic zero)."""
    outs = iter(outs)
    primals, tangents = [], []
    for lo, hi in groups:
        primals += [next(outs) for _ in range(lo, hi)]
        tangents += [next(outs) if pattern[p] else None for p in range(lo, hi)]
    return primals, tangents
