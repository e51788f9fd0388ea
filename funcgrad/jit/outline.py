"""Fused loops compiled as functions of their own, once per structure.

Numba's compile time grows faster than linearly with the size of one function: typing,
SSA reconstruction, lowering and LLVM's passes all work on the whole function, and one
kernel of a 3,200-operation chain took minutes.  So a large kernel (more than
:data:`OUTLINE_MIN_EQNS` equations) does not write its fused loops into its own body: it
calls each loop as a separate ``@njit`` function, and each such function is bounded in size
(:data:`funcgrad.jit.fusion.MAX_FUSED_EQNS`).  Compile time then grows linearly with the
number of operations.

A loop function's text names everything locally (parameters ``p0, p1...`` in order of first
use, then fresh names), so loops of the same structure -- the steps of a chain, a repeated
layer, its backward pass -- have exactly the same text.  Each distinct text is a module of
its own (:func:`funcgrad.jit.cache.load_loop`, named by a hash of the text), compiled once
per process, kept on disk by Numba, and shared by every kernel and every jitted function
that calls it.  The kernel calls it as a global (``_loop0 = _rt_loop("<hash>")``).
"""
import os

import numpy as np

from ..interpreters.graph import Var
from .fusion import emit_loop
from .source import HEADER, KERNEL_OPTIONS, Function, Names, loop_key

__all__ = ["OUTLINE_MIN_EQNS", "call_loop", "loop_header"]

# Kernels with more equations than this call their fused loops (below it, one function
# compiles faster than several: Numba's fixed cost per function is ~0.1 s).
OUTLINE_MIN_EQNS = int(os.environ.get("FUNCGRAD_JIT_OUTLINE_MIN_EQNS", 64))


def call_loop(block, eqns):
    """Write the fused group ``eqns`` as a loop function and, into ``block``, the call
    that binds its results (the values the rest of the kernel needs)."""
    names = block.fn.names
    fn = Function(Names(names.writer.vector_math), {})
    sub = type(block)(fn, {}, 1)
    inside = {id(v) for e in eqns for v in e.outvars}
    args, params = [], []  # what the caller passes, and the loop function's parameters
    for e in eqns:
        for x in e.inputs:
            if isinstance(x, Var):
                if id(x) in inside or id(x) in sub.env:
                    continue
                if id(x) in block.uniform:
                    sub.uniform[id(x)] = block.uniform[id(x)]
                args.append(block.env[id(x)])
                params.append(fn.names.fresh("p"))
                sub.env[id(x)] = params[-1]
            elif type(x) is np.ndarray and id(x) not in fn.consts:
                args.append(block.fn.const(x))
                params.append(fn.names.fresh("p"))
                fn.consts[id(x)] = params[-1]
    unit = id(eqns)
    sub.outputs = {id(v) for e in eqns for v in e.outvars
                   if id(v) in block.outputs or block.uses.get(id(v), set()) - {unit}}
    emit_loop(sub, eqns)
    results = [v for e in eqns for v in e.outvars if id(v) in sub.env]
    if not results:  # nothing is used: the loop is not needed
        return
    # Called from kernels only: no wrappers for calls from Python or C (~20% of its time).
    opts = KERNEL_OPTIONS + ", no_cpython_wrapper=True, no_cfunc_wrapper=True" + (
        ", parallel=True" if fn.parallel else "")
    texts = [sub.env[id(v)] for v in results]
    source = "\n".join(HEADER) + fn.names.writer.helper_source() + "\n" + "\n".join(
        [f"@njit({opts})", f"def loop({', '.join(params)}):"]
        + fn.lines + [f"    return ({', '.join(texts)},)", ""])
    name = names.loop(source)
    outs = [names.fresh() for _ in results]
    block.emit(f"{', '.join(outs)}, = {name}({', '.join(args)})")
    for v, out in zip(results, outs):
        block.env[id(v)] = out


def loop_header(loops):
    """The lines of a kernel module that bind its loop functions (``loops``: source ->
    name), after the module's imports."""
    if not loops:
        return []
    lines = ["from funcgrad.jit.cache import loop as _rt_loop"]
    lines += [f"{name} = _rt_loop({loop_key(source)!r})" for source, name in loops.items()]
    return lines + [""]
