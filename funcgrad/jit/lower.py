"""Lowering: a Graph becomes the source of a Python module of Numba kernels.

The equations are split into *segments*: runs of equations Numba can compile become one
``@njit`` function each; an equation it cannot (LAPACK routines, advanced indexing,
scatter, a reduction order NumPy would not use...; :mod:`funcgrad.jit.lowerable` decides)
is called from Python through the primitive's own ``impl``, so an unsupported operation
costs speed, never correctness.  When every equation lowers, the whole graph is one
kernel and calling it is one Numba call.

Inside a kernel (:mod:`funcgrad.jit.block`), elementwise equations (and the broadcasts and
casts between them) with the same result shape are *fused* into one loop
(:mod:`funcgrad.jit.fusion`), and the other equations become NumPy-order reductions, BLAS
calls, slicing, and Python control flow around lowered bodies.
A large kernel calls its fused loops as separate functions, bounded in size and shared by
all loops of the same structure, passes their results as rows of one array per dtype, and
calls a repeated step's function from a ``for`` loop (:mod:`funcgrad.jit.outline`), so
that compile time grows linearly, and slowly, with the number of operations.

Floating-point choices: no ``fastmath`` (no
reassociation, NaN and signed-zero semantics kept); each elementwise operation computes
in its output dtype, so float32 stays float32 and every intermediate is rounded as in
the eager path; scalar constants are converted to the operation's dtype as NumPy does.
Transcendental functions come from the vector maths (or the C library), which may differ
from NumPy's SIMD versions in the last bit (at most about 1 ulp each); large float32 exp,
log, log1p and tanh are NumPy's own ufuncs between kernels, as eagerly
(:data:`funcgrad.jit.lowerable.NUMPY_FLOAT32_MATH_MIN`).
"""
import numpy as np

from ..core import aval_of
from ..interpreters.graph import Var
from .block import Block
from .fusion import MAX_FUSED_MATH, MAX_OUTLINED_MATH, VECTOR_MATH
from .lowerable import can_lower, expand
from .outline import OUTLINE_MIN_EQNS, loop_header
from ..primitives.structural import convert_element_type_p, stop_gradient_p
from .passes import cse, dce, elide, graph_consts, subgraphs
from .source import HEADER, KERNEL_OPTIONS, Function, Names, literal, loop_key
from .structure import diagonal_products, unit_moves

__all__ = ["lower_graph", "Lowered"]
# 0-d results a kernel returns as Python scalars of these types; others are cast back
_PYTHON_SCALAR_DTYPES = (np.dtype(np.float64), np.dtype(np.int64), np.dtype(np.bool_))


class Lowered:
    """The lowering of one graph.

    ``kernel_source`` is a module of ``@njit`` kernels (cached on disk, shared by every
    graph that lowers to the same text); ``driver_source`` defines ``run(*consts,
    *inputs)``, which computes the graph's outputs (a tuple, or the value itself when
    ``single``) by calling the kernels and ``python_calls`` (the fallbacks, by name).
    ``consts`` are the constant arrays; ``loop_sources`` the modules of the loop functions
    the kernels call (:mod:`funcgrad.jit.outline`), loaded before them; ``trig_checked``:
    a loop may raise ``TrigRangeError`` (see :func:`lower_graph`).
    """

    def __init__(self, kernel_source, driver_source, consts, python_calls, single, out_avals,
                 kernels, loop_sources=(), trig_checked=False, call_names=None):
        self.kernel_source = kernel_source
        self.loop_sources = list(loop_sources)
        self.driver_source = driver_source
        self.consts = consts
        self.python_calls = python_calls
        self.single = single
        self.out_avals = out_avals
        self.kernels = kernels
        self.trig_checked = trig_checked
        self.call_names = call_names or {}  # what the text calls python_calls' entries

    def as_text(self):
        """The generated source: the loop functions' modules, the kernel module, then the
        Python driver ``run``."""
        text = "".join(f"# loop function {loop_key(s)}\n{s}\n" for s in self.loop_sources)
        text += self.kernel_source
        if self.driver_source != "run = kernel0\n":
            calls = "".join(f"# {name}: {self.call_names.get(name, fn.__name__)}\n"
                            for name, fn in self.python_calls.items())
            text += ("\n" if text else "") + "# driver (plain Python)\n" + calls + \
                self.driver_source
        return text


def lower_graph(graph, exact_trig=False):
    """Lower a graph (already optimised by :func:`passes.optimize`) to a :class:`Lowered`.

    ``exact_trig``: write each fused loop's second pass, with the C library, for sin/cos
    arguments beyond the vector maths' range.  Without it (a quarter less to compile for
    such loops) a loop meeting one raises :class:`funcgrad.jit.runtime.TrigRangeError`,
    and ``Lowered.trig_checked`` says whether any loop may."""
    # Expanded primitives (logsumexp) may repeat what the rest computes (the softmax of
    # its VJP, behind a stop_gradient): merged again.
    graph = elide(expand(graph), {stop_gradient_p})
    # (jacrev's basis through a matrix product: a scaling, without the reshapes around it)
    graph = dce(cse(diagonal_products(unit_moves(graph))))
    module = _Module(graph, exact_trig)
    for (kind, seg), after in zip(module.segments, module.later_uses()):
        if kind == "python":
            module.python_call(seg)
        else:
            module.kernel(seg, after)
    return module.lowered()


# --- segments: kernels and Python calls --------------------------------------------------

def _schedule(eqns):
    """Split equations into segments ("numba", [eqns]) and ("python", eqn), running every
    kernel-able equation as early as its inputs allow so that kernels are few."""
    lowerable = [can_lower(e) for e in eqns]
    defined_by = {}
    for i, e in enumerate(eqns):
        for v in e.outvars:
            defined_by[id(v)] = i
    deps = [{defined_by[id(x)] for x in e.inputs if isinstance(x, Var) and id(x) in defined_by}
            for e in eqns]
    done = set()
    pending = list(range(len(eqns)))
    segments = []
    while pending:
        batch = []
        progress = True
        while progress:  # all kernel equations whose inputs are ready
            progress = False
            rest = []
            for i in pending:
                if lowerable[i] and deps[i] <= done:
                    batch.append(i)
                    done.add(i)
                    progress = True
                else:
                    rest.append(i)
            pending = rest
        if batch:
            segments.append(("numba", [eqns[i] for i in sorted(batch)]))
        ready = [i for i in pending if not lowerable[i] and deps[i] <= done]
        for i in ready:
            segments.append(("python", eqns[i]))
            done.add(i)
        pending = [i for i in pending if i not in done]
        if not batch and not ready and pending:  # pragma: no cover - graphs are acyclic
            raise AssertionError("cyclic graph")
    return segments


def _sink(segments, outvars):
    """Move kernel equations from an early kernel to the last kernel before the first
    segment that reads their results, where that kernel is later.

    Scheduling every equation as early as possible puts a value the backward pass reads
    only after a BLAS call (``1 - h * h`` of tanh's VJP, the cotangent of a mean) in a
    kernel of its own or beside unrelated work; moved, it joins the loop that reads it
    and the early kernel may vanish.  An equation moves only with all of its inputs from
    the same kernel that it reads (so the early kernel writes no array it did not write
    before), and never a control-flow equation (its bodies may read more than its inputs).
    """
    n = len(segments)
    kernels = [i for i, (kind, _) in enumerate(segments) if kind == "numba"]
    if len(kernels) < 2:
        return segments
    eqns_of = [list(seg) if kind == "numba" else [seg] for kind, seg in segments]
    readers = {}  # id(Var) -> {segment index: number of reading equations}
    for i, eqns in enumerate(eqns_of):
        for e in eqns:
            for x in e.inputs:
                if isinstance(x, Var):
                    counts = readers.setdefault(id(x), {})
                    counts[i] = counts.get(i, 0) + 1
    for x in outvars:
        if isinstance(x, Var):
            readers.setdefault(id(x), {})[n] = 1
    moved_in = {i: [] for i in kernels}
    for k in reversed(kernels[:-1]):
        eqns = eqns_of[k]
        made_here = {id(v): j for j, e in enumerate(eqns) for v in e.outvars}
        inside = [[] for _ in eqns]  # inside[j]: the equations of k reading j's results
        for i, e in enumerate(eqns):
            for j in {made_here[id(x)] for x in e.inputs
                      if isinstance(x, Var) and id(x) in made_here}:
                inside[j].append(i)
        stay = {j for j, e in enumerate(eqns) if subgraphs(e)}
        while True:
            target = _sink_targets(eqns, k, kernels, readers, inside, stay)
            bad = {j for j, t in target.items() if t > k and any(
                target[made_here[id(x)]] != t for x in eqns[j].inputs
                if isinstance(x, Var) and id(x) in made_here)}
            if not bad:
                break
            stay |= bad
        for j in sorted(target, reverse=True):
            t = target[j]
            if t == k:
                continue
            for x in eqns[j].inputs:
                if isinstance(x, Var):
                    counts = readers[id(x)]
                    counts[k] -= 1
                    if not counts[k]:
                        del counts[k]
                    counts[t] = counts.get(t, 0) + 1
        moving = {}
        for j, e in enumerate(eqns):
            moving.setdefault(target[j], []).append(e)
        eqns_of[k] = moving.pop(k, [])
        for t, es in moving.items():
            moved_in[t][:0] = es
    out = []
    for i, (kind, seg) in enumerate(segments):
        if kind == "python":
            out.append((kind, seg))
        elif moved_in[i] or eqns_of[i]:
            out.append(("numba", moved_in[i] + eqns_of[i]))
    return out


def _lone_casts(segments):
    """Kernels that would only convert to or from complex (the real input of an FFT, the
    real part of its output) become the casts' NumPy calls: one pass over memory either
    way, without a Numba compile of its own (about a second each, cold)."""
    out = []
    for kind, seg in segments:
        if kind == "numba" and all(e.prim is convert_element_type_p and any(
                v.aval.dtype.kind == "c" for v in e.inputs[:1] + e.outvars
                if isinstance(v, Var)) for e in seg):
            out.extend(("python", e) for e in seg)
        else:
            out.append((kind, seg))
    return out


def _sink_targets(eqns, k, kernels, readers, inside, stay):
    """The segment each equation of kernel ``k`` may move to (see :func:`_sink`): the last
    kernel before the first later segment reading its results, no later than where the
    equations of ``k`` reading them go; ``k`` for those in ``stay``."""
    target = {}
    for j in reversed(range(len(eqns))):
        if j in stay:
            target[j] = k
            continue
        first = min((i for v in eqns[j].outvars for i in readers.get(id(v), {})
                     if i > k), default=None)
        for i in inside[j]:  # (later equations: their targets are known)
            first = target[i] if first is None else min(first, target[i])
        target[j] = k if first is None or first == k else max(
            i for i in kernels if i <= first)
    return target


def _size(eqns):
    """The number of equations in ``eqns``, control-flow bodies included."""
    return sum(1 + sum(_size(g.eqns) for g in subgraphs(e)) for e in eqns)


def _python_call(eqn):
    prim, params, template = eqn.prim, eqn.params, list(eqn.inputs)
    slots = [i for i, x in enumerate(template) if isinstance(x, Var)]
    if not params and len(slots) == len(template) and isinstance(prim.impl, np.ufunc):
        # (the ufunc itself: W3's five matrix products and tanh, 0.5 us less per call)
        return prim.impl

    def call(*values):
        args = list(template)
        for i, v in zip(slots, values):
            args[i] = v
        return prim.impl(*args, **params)

    call.__name__ = f"impl_{prim.name}"
    return call


def _result_texts(outvars, name_of, const_of):
    """Source texts of a graph's outputs: the names of its Vars, copies of its constant
    arrays (the caller may write to a result), literals of its scalars."""
    return [name_of(x) if isinstance(x, Var) else
            f"{const_of(x)}.copy()" if type(x) is np.ndarray else
            literal(x, np.result_type(x)) for x in outvars]


def _return(results, single):
    """The return statement of ``results``: the value itself when ``single``, else a tuple."""
    if single:
        return f"    return {results[0]}"
    return f"    return ({', '.join(results)}{',' if len(results) == 1 else ''})"


class _Module:
    """The generated module of one graph, written segment by segment: the kernels, and
    the driver ``run`` that calls them and the Python fallbacks in order."""

    def __init__(self, graph, exact_trig):
        self.graph = graph
        self.names = Names(VECTOR_MATH, exact_trig)
        originals = graph_consts(graph)
        self.const_names = {id(c): f"const{i}" for i, c in enumerate(originals)}
        # C order once, at compile time (a transposed constant would be copied by every call).
        self.consts = [np.ascontiguousarray(c) for c in originals]
        self.in_names = [f"a{i}" for i in range(len(graph.invars))]
        self.segments = _lone_casts(_sink(_schedule(graph.eqns), graph.outvars))
        self.whole = len(self.segments) == 1  # one segment: its kernel is `run` itself
        self.var_names = {id(v): n for v, n in zip(graph.invars, self.in_names)}
        self.body = []  # the kernels' source lines
        self.driver = []  # the lines of `run`
        self.python_calls = {}
        self.call_names = {}
        self.kernels = []

    def later_uses(self):
        """Per segment, the ids of the Vars that later segments or the outputs read."""
        uses = []
        used = {id(x) for x in self.graph.outvars if isinstance(x, Var)}
        for kind, seg in reversed(self.segments):
            uses.append(set(used))
            for e in (seg if kind == "numba" else [seg]):
                used.update(id(x) for x in e.inputs if isinstance(x, Var))
        uses.reverse()
        return uses

    def _fresh_names(self, outvars):
        names = []
        for v in outvars:
            n = self.names.fresh()
            self.var_names[id(v)] = n
            names.append(n)
        return names

    def python_call(self, eqn):
        """A driver line calling the primitive's impl on ``eqn``'s inputs."""
        call_name = f"_py{len(self.python_calls)}"
        self.python_calls[call_name] = _python_call(eqn)
        self.call_names[call_name] = f"impl_{eqn.prim.name}"
        args = ", ".join(self.var_names[id(x)] for x in eqn.inputs if isinstance(x, Var))
        if not eqn.outvars:  # (a call for its effect: debug.callback's)
            self.driver.append(f"    {call_name}({args})")
            return
        target = ", ".join(self._fresh_names(eqn.outvars)) + (
            "," if eqn.prim.multiple_results else "")
        self.driver.append(f"    {target} = {call_name}({args})")

    def _parameters(self, seg):
        """The names of the values ``seg`` reads from before it, and the statements that
        make its 0-d parameters scalars (``env`` maps them to what holds them)."""
        if self.whole:
            params = list(self.in_names)
        else:
            defined = {id(v) for e in seg for v in e.outvars}
            params = []
            for e in seg:
                for x in e.inputs:
                    if isinstance(x, Var) and id(x) not in defined and id(x) in self.var_names \
                            and self.var_names[id(x)] not in params:
                        params.append(self.var_names[id(x)])
        param_vars = {n: None for n in params}
        for v in self.graph.invars:
            n = self.var_names[id(v)]
            if n in param_vars:
                param_vars[n] = v
        for e in seg:
            for x in e.inputs:
                if isinstance(x, Var) and self.var_names.get(id(x)) in param_vars:
                    param_vars[self.var_names[id(x)]] = x
        env, prologue = {}, []
        for n, v in param_vars.items():
            if v is None:
                continue
            if v.aval.ndim == 0:
                local = self.names.fresh("s")
                prologue.append(f"    {local} = _rt.scalar({n})")
                env[id(v)] = local
            else:
                env[id(v)] = n
        return params, env, prologue

    def _body(self, seg, outputs, env, outline, max_math):
        """The :class:`Function` computing ``seg``, and its ``env`` (see :meth:`kernel`)."""
        fn = Function(self.names, self.const_names)
        fn.outline, fn.max_math = outline, max_math
        env = dict(env)
        Block(fn, env, 1).lower(seg, outputs)
        fn.flush()
        return fn, env

    def kernel(self, seg, after):
        """An ``@njit`` kernel computing the equations ``seg`` and returning what the
        Vars in ``after`` need; the driver line that calls it."""
        kname = f"kernel{len(self.kernels)}"
        self.kernels.append(kname)
        params, env, prologue = self._parameters(seg)
        outputs = [v for e in seg for v in e.outvars if id(v) in after]
        outline = _size(seg) > OUTLINE_MIN_EQNS
        loops = dict(self.names.loops)
        fn, body_env = self._body(seg, outputs, env, outline,
                                  MAX_OUTLINED_MATH if outline else MAX_FUSED_MATH)
        if outline and fn.loop_calls < 2 * (len(self.names.loops) - len(loops)):
            # Small loop functions pay when a repeated step calls each many times; for
            # steps that all differ, fewer larger ones compile faster (12 differing
            # trig steps: 12 s CPU with MAX_OUTLINED_MATH, 8 s with MAX_FUSED_MATH).
            self.names.loops.clear()
            self.names.loops.update(loops)
            fn, body_env = self._body(seg, outputs, env, outline, MAX_FUSED_MATH)
        env = body_env

        def result(x):  # a row of a packed array (see .outline) leaves as an array of its own
            return env[id(x)] + (".copy()" if id(x) in fn.packed else "")

        if self.whole:
            results = _result_texts(self.graph.outvars, result, fn.const)
            const_params = [f"const{i}" for i in range(len(self.consts))]
        else:
            results = [result(v) for v in outputs]
            const_params = sorted(fn.used_consts, key=lambda s: int(s[len("const"):]))
        opts = KERNEL_OPTIONS + (", parallel=True" if fn.parallel else "")
        self.body.append(f"@njit({opts})")
        self.body.append(f"def {kname}({', '.join(const_params + params)}):")
        self.body.extend(prologue)
        self.body.extend(fn.lines)
        self.body.append(_return(results, self.whole and len(self.graph.outvars) == 1))
        self.body.append("")
        if self.whole:
            return
        outs = self._fresh_names(outputs)
        target = ", ".join(outs) + ("," if len(outs) == 1 else "")
        call = f"{kname}({', '.join(const_params + params)})"
        self.driver.append(f"    {target} = {call}" if outs else f"    {call}")
        for v in outputs:
            if v.aval.ndim == 0 and v.aval.dtype not in _PYTHON_SCALAR_DTYPES:
                n = self.var_names[id(v)]
                self.driver.append(f"    {n} = np.{v.aval.dtype.name}({n})")

    def lowered(self):
        """The :class:`Lowered` of the whole module."""
        graph = self.graph
        single = len(graph.outvars) == 1
        kernel_source = ("\n".join(HEADER + loop_header(self.names.loops))
                         + self.names.writer.helper_source() + "\n"
                         + "\n".join(self.body) + "\n") if self.kernels else ""
        if self.whole and self.segments[0][0] == "numba":
            driver_source = "run = kernel0\n"
        else:
            results = _result_texts(graph.outvars, lambda x: self.var_names[id(x)],
                                    lambda x: self.const_names[id(x)])
            head = ", ".join([f"const{i}" for i in range(len(self.consts))] + self.in_names)
            driver_source = "\n".join([f"def run({head}):"] + self.driver
                                      + [_return(results, single)]) + "\n"
        out_avals = [x.aval if isinstance(x, Var) else aval_of(np.asarray(x))
                     for x in graph.outvars]
        return Lowered(kernel_source, driver_source, self.consts, self.python_calls, single,
                       out_avals, self.kernels, self.names.loops, self.names.trig_checked,
                       self.call_names)
