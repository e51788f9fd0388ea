"""Statements of a kernel: a list of equations lowered into the body of an ``@njit`` function.

A :class:`Block` walks the units :func:`~funcgrad.jit.fusion.fuse` makes of its equations:
a fused group becomes one loop (:func:`~funcgrad.jit.fusion.emit_loop`), any other
equation is lowered on its own by the rule :data:`LOWERINGS` holds for its primitive.
Reductions call helpers in :mod:`funcgrad.jit.runtime` that sum in NumPy's own order
(pairwise along a contiguous axis), so a jitted sum has the bits of the eager one;
``matmul`` becomes ``np.dot`` (BLAS); ``cond``/``scan``/``while_loop`` become Python
``if``/``for``/``while`` around their lowered bodies.  :mod:`funcgrad.jit.lowerable`
decides which equations get here.
"""
import numpy as np

from ..interpreters.graph import Var
from ..lax import cond_p, scan_p, while_loop_p
from ..primitives.indexing import gather_p, scatter_p
from ..primitives.linalg import matmul_p
from ..primitives.reductions import reduce_max_p, reduce_min_p
from ..primitives.structural import (concatenate_p, reduce_sum_p, reshape_p, split_p,
                                     transpose_p)
from .elementwise import SCALARS, computation_dtypes
from .fusion import PAIRWISE_LEAF, emit_loop, fuse
from .lowerable import SLICE_UPDATE, expand, reduce_pattern
from .outline import call_loop
from .passes import optimize
from .source import cast, literal, shape_text

__all__ = ["Block", "LOWERINGS"]

_BOOL = np.dtype(np.bool_)
# The runtime helper of each reduction (runtime.sum_* / max_rows / min_rows).
_REDUCTIONS = {reduce_sum_p: "sum", reduce_max_p: "max", reduce_min_p: "min"}


class Block:
    """Lowers a list of equations into statements of a kernel.

    ``env`` maps ``id(Var)`` to the name holding its value (a Numba array, or a scalar
    for 0-d values).
    """

    def __init__(self, fn, env, indent):
        self.fn = fn
        self.env = env
        self.indent = indent
        self.uniform = {}  # id(Var) -> shape: a scalar broadcast to it (see fusion.fuse)
        self.outputs = set()  # ids of the Vars needed after the block
        self.uses = {}  # id(Var) -> ids of the units reading it

    def emit(self, text, extra=0):
        """Append a statement, ``extra`` levels deeper than the block."""
        self.fn.emit(self.indent + extra, text)

    # operands -----------------------------------------------------------------------
    def operand(self, x, dtype=None):
        """Source text of a scalar operand ``x`` converted to ``dtype``."""
        if isinstance(x, Var):
            return cast(self.env[id(x)], x.aval.dtype, dtype)
        if isinstance(x, (SCALARS, complex, np.generic)):  # (complex: complexloop's)
            return literal(x, dtype if dtype is not None else np.result_type(x))
        raise AssertionError("an array operand where a scalar is needed")

    def array(self, x):
        """Source text of an array operand (a name)."""
        if isinstance(x, Var):
            shape = self.uniform.get(id(x))
            if shape is not None:  # a broadcast scalar: materialised on first use
                key = ("array", id(x))
                if key not in self.env:
                    name = self.fn.names.fresh()
                    self.emit(f"{name} = np.full({shape_text(shape)}, {self.env[id(x)]}, "
                              f"np.{x.aval.dtype.name})")
                    self.env[key] = name
                return self.env[key]
            return self.env[id(x)]
        return self.fn.const(x)

    def bind(self, var, expr):
        """Assign ``expr`` to a fresh name, which then holds ``var``."""
        name = self.fn.names.fresh()
        self.emit(f"{name} = {expr}")
        self.env[id(var)] = name
        return name

    # the block ----------------------------------------------------------------------------
    def lower(self, eqns, outputs):
        """Emit ``eqns``; ``outputs`` are the Vars needed after the block."""
        units, uniform = fuse(eqns, self.fn.max_math)
        self.uniform.update(uniform)
        self.outputs = {id(v) for v in outputs if isinstance(v, Var)}
        self.uses = {}
        for unit in units:
            for eqn in (unit if isinstance(unit, list) else [unit]):
                for x in eqn.inputs:
                    if isinstance(x, Var):
                        self.uses.setdefault(id(x), set()).add(id(unit))
        for unit in units:
            if isinstance(unit, list):
                self.group(unit)
            else:
                self.single(unit)
        for v in outputs:  # values leaving the block are arrays, not broadcast scalars
            if isinstance(v, Var) and id(v) in self.uniform:
                self.env[id(v)] = self.array(v)

    def group(self, eqns):
        """One fused loop for elementwise equations of one result shape (or, for 0-d
        results and scalars broadcast to a shape, plain scalar statements)."""
        if not all(id(e.outvars[0]) in self.uniform or not e.outvars[0].aval.shape
                   for e in eqns):
            (call_loop if self.fn.outline else emit_loop)(self, eqns)
            return
        for e in eqns:
            name = self.fn.names.fresh()
            self.emit(f"{name} = {self.scalar_expr(e, self.operand, 'scalar')}")
            self.env[id(e.outvars[0])] = name

    def scalar_expr(self, eqn, load, mode):
        """The expression of an elementwise equation; ``mode`` is "vector" (inside a
        loop: vectorisable math), "exact" (the C library) or "scalar" (outside loops)."""
        args = [load(x, c) for x, c in zip(eqn.inputs, computation_dtypes(eqn))]
        return self.fn.names.writer.expression(eqn, args, mode)

    def single(self, eqn):
        """Emit an equation that is not part of a fused loop."""
        LOWERINGS[eqn.prim](self, eqn)

    # reductions and matrix products -----------------------------------------------------
    def op_reduce(self, eqn):
        kind = _REDUCTIONS[eqn.prim]
        x = eqn.inputs[0]
        out = eqn.outvars[0].aval
        axes = eqn.params["axes"]
        src = self.array(x)
        shape = x.aval.shape
        if not shape:
            self.bind(eqn.outvars[0], cast(src, x.aval.dtype, out.dtype))
            return
        if kind == "sum" and x.aval.dtype != out.dtype:
            src = f"{src}.astype(np.{out.dtype.name})"
        if any(shape[a] == 0 for a in axes):  # an empty sum
            self.bind(eqn.outvars[0], f"np.zeros({shape_text(out.shape)}, np.{out.dtype.name})"
                      if out.shape else literal(0, out.dtype))
            return
        kept = [i for i in range(len(shape)) if i not in axes]
        m = int(np.prod([shape[i] for i in kept]))
        r = int(np.prod([shape[i] for i in axes]))
        zero = literal(0, out.dtype)
        contiguous = f"np.ascontiguousarray({src})"
        if kind == "sum":
            pattern = reduce_pattern(shape, axes)
            if pattern == "none":
                expr = f"{contiguous}.reshape({shape_text(out.shape)})" if out.shape else \
                    f"np.ravel({src})[0]"
            elif pattern == "all":  # (up to 128 terms: one leaf of the pairwise sum)
                expr = f"_rt.sum_all{'_leaf' if r <= PAIRWISE_LEAF else ''}({src}, {zero})"
            elif pattern == "trailing":
                expr = (f"_rt.sum_rows{'_leaf' if r <= PAIRWISE_LEAF else ''}("
                        f"{contiguous}.reshape(({m}, {r})), {zero})")
            else:
                expr = f"_rt.sum_leading({contiguous}.reshape(({r}, {m})), {zero})"
        else:
            perm = kept + list(axes)
            moved = _transposed(src, perm)
            expr = f"_rt.{kind}_rows(np.ascontiguousarray({moved}).reshape(({m}, {r})))"
        if expr.startswith("_rt.sum_all"):  # a scalar (sum_all or sum_all_leaf)
            self.bind(eqn.outvars[0], expr if not out.shape else
                      f"np.full({shape_text(out.shape)}, {expr}, np.{out.dtype.name})")
        elif not out.shape:
            self.bind(eqn.outvars[0], expr if expr.endswith("[0]") else f"{expr}[0]")
        elif expr.endswith(f".reshape({shape_text(out.shape)})"):
            self.bind(eqn.outvars[0], expr)
        else:
            self.bind(eqn.outvars[0], f"{expr}.reshape({shape_text(out.shape)})")

    def op_matmul(self, eqn):
        # (Numba's np.dot is slow on transposed, Fortran-ordered operands: copy them.)
        a, b = (f"np.ascontiguousarray({self.array(x)})" for x in eqn.inputs)
        self.bind(eqn.outvars[0], f"np.dot({a}, {b})")

    # shapes, indexing, joining and splitting ----------------------------------------------
    def op_reshape(self, eqn):
        x = eqn.inputs[0]
        src = self.array(x)
        shape = eqn.params["shape"]
        out = eqn.outvars[0].aval
        if not x.aval.shape:
            self.bind(eqn.outvars[0], src if not shape else
                      f"np.full({shape_text(shape)}, {src}, np.{out.dtype.name})")
        elif not shape:
            self.bind(eqn.outvars[0], f"np.ravel({src})[0]")
        else:
            self.bind(eqn.outvars[0],
                      f"np.ascontiguousarray({src}).reshape({shape_text(shape)})")

    def op_transpose(self, eqn):
        self.bind(eqn.outvars[0], _transposed(self.array(eqn.inputs[0]), eqn.params["perm"]))

    def op_gather(self, eqn):
        src = self.array(eqn.inputs[0])
        self.bind(eqn.outvars[0], f"{src}[{_basic_index(eqn.params['spec'])}]")

    def op_scatter(self, eqn):
        operand, updates = eqn.inputs
        out = eqn.outvars[0].aval
        dtype = f"np.{out.dtype.name}"
        if id(operand) in self.uniform:  # scattering into zeros: no copy of a broadcast
            target = self.bind(eqn.outvars[0], f"np.full({shape_text(out.shape)}, "
                                                f"{self.env[id(operand)]}, {dtype})")
        else:
            target = self.bind(eqn.outvars[0], f"{self.array(operand)}.astype({dtype})")
        if isinstance(updates, Var) and updates.aval.ndim:
            value = self.array(updates)
        else:
            value = self.operand(updates, out.dtype)
        op = SLICE_UPDATE[eqn.params["mode"]]
        self.emit(f"{target}[{_basic_index(eqn.params['spec'])}] {op} {value}")

    def op_concatenate(self, eqn):
        out = eqn.outvars[0].aval.dtype
        parts = []
        for x in eqn.inputs:
            src = self.array(x)
            parts.append(src if x.aval.dtype == out else f"{src}.astype(np.{out.name})")
        self.bind(eqn.outvars[0], f"np.concatenate(({', '.join(parts)},), "
                                  f"axis={eqn.params['axis']})")

    def op_split(self, eqn):
        src = self.array(eqn.inputs[0])
        axis = eqn.params["axis"]
        ndim = eqn.inputs[0].aval.ndim
        edges = (0,) + tuple(eqn.params["bounds"]) + (eqn.inputs[0].aval.shape[axis],)
        for v, lo, hi in zip(eqn.outvars, edges[:-1], edges[1:]):
            index = [":"] * ndim
            index[axis] = f"{lo}:{hi}"
            self.bind(v, f"{src}[{', '.join(index)}]")

    # control flow ------------------------------------------------------------------------
    def sub_block(self, graph, inputs, indent):
        """Lower ``graph`` applied to ``inputs`` (source texts) at ``indent``; returns
        the texts of its outputs (names or literals)."""
        graph = expand(optimize(graph))
        env = dict(self.env)
        for v, text in zip(graph.invars, inputs):
            env[id(v)] = text
        block = Block(self.fn, env, indent)
        block.lower(graph.eqns, graph.outvars)
        return [env[id(x)] if isinstance(x, Var) else self._constant(x)
                for x in graph.outvars]

    def _input_texts(self, inputs):
        return [(self.array(x) if x.aval.ndim else self.env[id(x)])
                if isinstance(x, Var) else self._constant(x) for x in inputs]

    def _constant(self, x):
        """Source text of a constant operand: a constant array's parameter, or a literal."""
        return self.fn.const(x) if type(x) is np.ndarray else literal(x, np.result_type(x))

    def _carry(self, texts, outvars, prefix, extra=0):
        """Fresh names (``prefix``...) assigned ``texts``, each typed as its ``outvars``."""
        names = [self.fn.names.fresh(prefix) for _ in texts]
        for name, text, v in zip(names, texts, outvars):
            self.emit(f"{name} = {_typed(text, v.aval)}", extra)
        return names

    def op_cond(self, eqn):
        index, *operands = self._input_texts(eqn.inputs)
        branches = eqn.params["branches"]
        outs = [self.fn.names.fresh() for _ in eqn.outvars]
        idx = self.fn.names.fresh("k")
        n = len(branches)
        self.emit(f"{idx} = min(max(int({index}), 0), {n - 1})")
        for k, graph in enumerate(branches):
            head = "if" if k == 0 else "elif"
            self.emit(f"{head} {idx} == {k}:" if k < n - 1 else "else:")
            results = self.sub_block(graph, operands, self.indent + 1)
            for name, text, v in zip(outs, results, eqn.outvars):
                self.emit(f"{name} = {_typed(text, v.aval)}", 1)
            if not eqn.outvars:
                self.emit("pass", 1)
        for name, v in zip(outs, eqn.outvars):
            self.env[id(v)] = name

    def op_scan(self, eqn):
        p = eqn.params
        body, length, reverse = p["body"], p["length"], p["reverse"]
        nc, nk = p["num_consts"], p["num_carry"]
        texts = self._input_texts(eqn.inputs)
        consts, init, xs = texts[:nc], texts[nc:nc + nk], texts[nc + nk:]
        names = self.fn.names
        carry = self._carry(init, eqn.outvars[:nk], "c")
        ys = []
        for v in eqn.outvars[nk:]:
            name = names.fresh("ys")
            self.emit(f"{name} = np.empty({shape_text(v.aval.shape)}, np.{v.aval.dtype.name})")
            ys.append(name)
        k = names.fresh("k")
        rng = f"range({length} - 1, -1, -1)" if reverse else f"range({length})"
        self.emit(f"for {k} in {rng}:")
        xk = []
        for text in xs:
            name = names.fresh("x")
            self.emit(f"{name} = {text}[{k}]", 1)
            xk.append(name)
        results = self.sub_block(body, consts + carry + xk, self.indent + 1)
        new = self._carry(results[:nk], eqn.outvars[:nk], "n", 1)
        for name, text in zip(ys, results[nk:]):  # (before the carry, which they may read)
            self.emit(f"{name}[{k}] = {text}", 1)
        self._update(carry, new)
        for name, v in zip(carry + ys, eqn.outvars):
            self.env[id(v)] = name

    def op_while_loop(self, eqn):
        p = eqn.params
        cond, body = p["cond"], p["body"]
        nc, nb = p["cond_nconsts"], p["body_nconsts"]
        texts = self._input_texts(eqn.inputs)
        cconsts, bconsts, init = texts[:nc], texts[nc:nc + nb], texts[nc + nb:]
        carry = self._carry(init, eqn.outvars, "c")
        self.emit("while True:")
        pred, = self.sub_block(cond, cconsts + carry, self.indent + 1)
        self.emit(f"if not {pred}:", 1)
        self.emit("break", 2)
        results = self.sub_block(body, bconsts + carry, self.indent + 1)
        new = self._carry(results, eqn.outvars, "n", 1)
        self._update(carry, new)
        for name, v in zip(carry, eqn.outvars):
            self.env[id(v)] = name

    def _update(self, carry, new):
        """The loop's carry takes its new values (at the end of the loop's body)."""
        for name, n in zip(carry, new):
            self.emit(f"{name} = {n}", 1)


def _transposed(src, perm):
    """Source text of ``src`` with its axes permuted by ``perm``.  Reversing them (every 2-d
    transpose) is ``.transpose()``, which Numba lowers directly; a permutation given as
    axes also compiles Numba's check of them (a set, hashing, error messages): about 9 s
    the first time in a process with a cold cache, measured."""
    perm = tuple(perm)
    if perm == tuple(range(len(perm))):
        return src
    if perm == tuple(reversed(range(len(perm)))):
        return f"{src}.transpose()"
    return f"{src}.transpose({shape_text(perm)})"


def _basic_index(spec):
    """A basic index (slices, integers, new axes) as subscript text."""
    parts = []
    for e in spec:
        if e[0] == "s":
            start, stop, step = e[1:]
            if step < 0 and stop < 0:
                stop = None
            parts.append(f"{start}:{'' if stop is None else stop}:{step}")
        elif e[0] == "i":
            parts.append(str(e[1]))
        else:
            parts.append("None")
    return ", ".join(parts)


def _typed(text, aval):
    """``text`` converted to exactly ``aval``'s dtype (for variables assigned on several
    paths, which Numba needs to have one type)."""
    if aval.shape:
        return text
    return f"np.{aval.dtype.name}({text})" if aval.dtype != _BOOL else f"bool({text})"


# How a kernel computes each primitive that is not fused elementwise (which ones, and on
# which operands: lowerable.LOWERABLE).
LOWERINGS = {
    reduce_sum_p: Block.op_reduce, reduce_max_p: Block.op_reduce, reduce_min_p: Block.op_reduce,
    matmul_p: Block.op_matmul,
    reshape_p: Block.op_reshape, transpose_p: Block.op_transpose,
    gather_p: Block.op_gather, scatter_p: Block.op_scatter,
    concatenate_p: Block.op_concatenate, split_p: Block.op_split,
    cond_p: Block.op_cond, scan_p: Block.op_scan, while_loop_p: Block.op_while_loop,
}
