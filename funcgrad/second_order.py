"""Forward-over-reverse from one recording: ``hvp`` of a function of one array.

The general route nests interpreters (forward mode over reverse mode) around the user's
function, and each of its operations passes through both.
For a function of one plain float array (no transform around it, no aux, no complex
numbers), this module runs the function **once**, recording its operations on a
reverse-mode tape at the root (:func:`record`), and then works on the recording only:

* **the sweep** (:func:`hvp_of_array`): walk the tape backwards
  once, carrying for each node the pair (cotangent, tangent of the cotangent).  A node's
  pair rule is not written anywhere: it is the primitive's own declared VJP rule evaluated
  in forward mode (its cotangent and the residuals it reads as dual numbers), and the
  tangents of the residuals are the primitives' declared JVP rules applied along the
  tape, computed only where a rule reads one.  So every primitive with a declared JVP and
  VJP is covered, by construction, and in the association of its own rules.  For an hvp
  the same rules run on plain arrays, as a program written once per shape of recording
  (:mod:`funcgrad.lean_sweep`) where every node is elementwise or linear at that point,
  else on dual numbers (:func:`_sweep`);
* **the replay** (:func:`replay`): where the sweep does not apply (an operation with
  several outputs, one run with gradients off or while instruments watched, a value that
  is not a real float), the recording is bound again, operation by operation, under the
  general composition: the result is today's, and the user's function (its prints, random
  draws, counters) has still run once.

``hessian`` (:func:`hessian_of_array`) sweeps the same recording with the basis as a band
of diagonals (:mod:`funcgrad.hessian_bands`) where the function keeps it banded, else
evaluates the composition ``jacfwd(jacrev(f))`` on the replay: a dense batch through the
sweep measured the composition's cost (session 11, ``benchmarks/results/session11-w5.md``).
"""
import numpy as np
from numpy import ndarray

from . import tree
from .core import ROOT, _state, run_under, user_code
from .interpreters.backprop import SELECT, edges
from .interpreters.forward import JVPInterpreter, JVPTracer
from .interpreters.graph import EFFECTS
from .interpreters.reverse import ReverseInterpreter, ReverseTracer
from .modes import no_grad
from .hessian_bands import NotBanded, band_hessian
from .lean_sweep import (NotLean, forward_tangent, lean_sweep, reads, rule_params,
                         seed_cotangent)
from .sweep_programs import NotSweepable, Programs

__all__ = ["Recording", "record", "replay", "hvp_of_array", "hessian_of_array"]


class _Recorder(ReverseInterpreter):
    """Reverse mode at the root that also records what runs with gradients off (the
    general route still carries forward tangents through it), marking it, and notes
    whether instruments watched (the sweep runs no backward rule they would see)."""

    __slots__ = ("grad_off", "watched")

    def __init__(self):
        super().__init__(ROOT)
        self.grad_off = set()
        self.watched = False

    def process(self, prim, args, params):
        local = self.local
        mode = local["recording"]
        if mode == 1:
            return ReverseInterpreter.process(self, prim, args, params)
        if mode == 2:
            self.watched = True
            return ReverseInterpreter.process(self, prim, args, params)
        if self.tag >= _state.grad_off_tag:  # (gradients turned off before this started)
            return ReverseInterpreter.process(self, prim, args, params)
        local["recording"] = 1
        try:
            out = ReverseInterpreter.process(self, prim, args, params)
        finally:
            local["recording"] = 0
        if type(out) is ReverseTracer and out._trace is self:
            self.grad_off.add(id(out))
        return out


class Recording:
    """One run of a function of one array: its input tracer, its output (as the function
    returned it) and the tape of every operation that depended on the input."""

    __slots__ = ("interp", "x", "out", "tape")

    def __init__(self, interp, x, out):
        self.interp, self.x, self.out, self.tape = interp, x, out, interp.tape

    def release(self):
        """Drop the tape (its tracers and their interpreter form a cycle the GC would
        otherwise chase)."""
        self.tape.clear()


def record(fun, x, kwargs):
    """Run ``fun(x, **kwargs)`` once on a reverse-mode tape at the root.

    >>> import numpy as np
    >>> rec = record(lambda y: np.sum(y * y), np.array([1.0, 2.0]), {})
    >>> [node.prim.name for node in rec.tape], rec.out.value
    (['multiply', 'reduce_sum'], np.float64(5.0))
    """
    interp = _Recorder()
    with interp:
        tracer = interp.new_input(x)
        try:
            with user_code():
                out = fun(tracer, **kwargs)
        except BaseException:  # (leave no tape-interpreter cycle behind)
            interp.tape.clear()
            raise
    return Recording(interp, tracer, out)


def replay(rec):
    """A function of one argument that binds the recorded operations again, each under
    the interpreters current when it is called (the general composition's), those
    recorded with gradients off again with gradients off.  At the recorded input it
    computes what the function did, without calling it.

    >>> import numpy as np, funcgrad as fg
    >>> rec = record(lambda y: np.sum(np.sin(y)), np.array([0.0, 1.0]), {})
    >>> float(fg.grad(replay(rec))(np.array([0.0, 1.0]))[0])
    1.0
    """
    interp, x, out, tape = rec.interp, rec.x, rec.out, list(rec.tape)
    grad_off = interp.grad_off

    def replayed(value):
        env = {id(x): value}
        for node in tape:
            if node.prim is SELECT:  # output k of a node with several outputs
                env[id(node)] = env[id(node.parents[0])][node.args[0]]
                continue
            args = list(node.args)
            for i, parent in enumerate(node.parents):
                if parent is not None:
                    args[i] = env[id(parent)]
            if node.prim in EFFECTS:  # (a callback: it has run, in the recording)
                continue
            params = node.params or {}
            if "residuals" in params:  # (computed for the root's reverse mode only)
                params = {k: v for k, v in params.items() if k != "residuals"}
            if id(node) in grad_off:
                with no_grad():
                    env[id(node)] = node.prim.bind(*args, **params)
            else:
                env[id(node)] = node.prim.bind(*args, **params)

        def read(o):
            if type(o) is ReverseTracer and o._trace is interp:
                return env[id(o)]
            return o
        return tree.map(read, out)

    return replayed


def _sweepable(rec, dtype):
    """Does the sweep cover the recording: one real float scalar output of the tape, every
    node one output of a differentiable primitive of real float values, recorded plainly?"""
    interp, out = rec.interp, rec.out
    if type(out) is not ReverseTracer or out._trace is not interp or out.shape != () \
            or out.dtype != dtype:
        return False
    for node in rec.tape:
        prim = node.prim
        if prim in EFFECTS:  # (no result: no cotangent reaches it)
            continue
        if type(node) is not ReverseTracer or prim is SELECT:
            return False
        if prim.multiple_results or prim.jvp is None or prim.vjp is None:
            return False
        if getattr(node.value, "dtype", np.dtype(type(node.value))).kind != "f":
            return False
    return True


def _tangent_rule(prim):
    """The tangent half of a primitive's declared JVP: ``jvp_tangent`` where declared,
    else the second result of ``jvp``."""
    if prim.jvp_tangent is not None:
        return prim.jvp_tangent

    def from_jvp(primals, tangents, out, **params):
        return prim.jvp(primals, tangents, **params)[1]
    return from_jvp


def _sweep(rec, seed):
    """The backward walk carrying (cotangent, tangent of the cotangent) pairs; returns the
    input's tangent of its cotangent (None: zero).  ``seed``: the input's tangent.  Runs
    under the current interpreter."""
    base = _state.interpreter
    x = rec.x
    tangents = {id(x): seed}

    def tangent(node):
        return forward_tangent(node, tangents, lambda top, ts: run_under(
            base, _tangent_rule(top.prim), list(top.args), ts, top.value, **rule_params(top)))

    dual_interp = JVPInterpreter(base)
    out = rec.out
    pairs = {id(out): (seed_cotangent(out.value), None)}
    with dual_interp:
        for node in reversed(rec.tape):
            pair = pairs.pop(id(node), None)
            if pair is None:
                continue
            ct, dct = pair
            prim, params = node.prim, rule_params(node)
            reads_inputs, reads_output = reads(prim, node.needs, params)
            g = ct if dct is None else JVPTracer(dual_interp, ct, dct)
            args = list(node.args)
            for i, parent in edges(node):
                if reads_inputs is None or reads_inputs[i]:
                    t = tangent(parent)
                    if t is not None:
                        args[i] = JVPTracer(dual_interp, args[i], t)
            value = node.value
            if reads_output:
                t = tangent(node)
                if t is not None:
                    value = JVPTracer(dual_interp, value, t)
            contributions = prim.vjp(node.needs, g, value, *args, **params)
            for parent, c in zip(node.parents, contributions):
                if c is None or parent is None:
                    continue
                if type(c) is JVPTracer and c._trace is dual_interp:
                    c, d = c.primal, c.tangent
                else:
                    d = None
                key = id(parent)
                prev = pairs.get(key)
                if prev is not None:
                    c = prev[0] + c
                    d = prev[1] if d is None else d if prev[1] is None else \
                        run_under(base, _add, prev[1], d)
                pairs[key] = (c, d)
    pair = pairs.get(id(x))
    return None if pair is None else pair[1]


def _add(a, b):
    return a + b


_PROGRAMS = Programs(run=lean_sweep, refusals=(NotLean,))


def _check_sweepable(rec, x):
    interp = rec.interp
    # (facts of the recording no shape of tape shows: checked on every call)
    return not (interp.grad_off or interp.watched) and _sweepable(rec, x.dtype)


def hvp_of_array(fun, x, v, kwargs, general):
    """``(fun(x), H(x) @ v)`` for a plain float array ``x`` and a tangent ``v`` of its
    shape and dtype, from one run of ``fun``; ``general(g, x, v)`` is the general route,
    applied to the replay of the recording where no sweep covers it.

    >>> import numpy as np
    >>> hvp_of_array(lambda y: np.sum(y ** 3), np.array([1.0, 2.0]),
    ...              np.array([1.0, 0.0]), {}, None)
    (np.float64(9.0), array([6., 0.]))
    """
    rec = record(fun, x, kwargs)
    try:
        try:
            if rec.interp.grad_off or rec.interp.watched:
                raise NotSweepable
            d = _PROGRAMS.sweep(rec.tape, rec.x, rec.out, v, lambda: _sweepable(rec, x.dtype))
        except NotLean:
            d = _sweep(rec, v)
        except NotSweepable:
            return general(replay(rec), x, v)
        value = rec.out.value
    finally:
        rec.release()
    if d is None:
        product = np.zeros(x.shape, x.dtype)
    else:
        product = d if type(d) is ndarray and d.flags.writeable else np.array(d)
    if x.ndim == 0:
        product = product[()]
    return (value[()] if type(value) is ndarray else value), product


def hessian_of_array(fun, x, kwargs, general):
    """The Hessian of ``fun`` at a plain float array ``x`` (shape ``x.shape * 2``, laid
    out as ``jacfwd(jacrev(fun))``'s, in its bits) from one run of ``fun``: the sweep with
    the basis as a band (a vector ``x``, while the band holds), else ``general(g)(x)``
    (the composition) on the replay ``g`` of the recording.

    >>> import numpy as np
    >>> hessian_of_array(lambda y: np.sum(y ** 3), np.array([1.0, 2.0]), {}, None)
    array([[ 6.,  0.],
           [ 0., 12.]])
    """
    rec = record(fun, x, kwargs)
    try:
        if x.ndim == 1 and not (rec.interp.grad_off or rec.interp.watched):
            try:
                return band_hessian(rec.tape, rec.x, rec.out,
                                    lambda: _sweepable(rec, x.dtype))
            except (NotBanded, NotSweepable):
                pass
        return general(replay(rec))(x)
    finally:
        rec.release()
