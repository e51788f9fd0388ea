"""``fg.jit`` ahead of time, in JAX's stages (``jax.stages``).

``jit(f).trace(*args)`` is a :class:`Traced` (the traced graph), its ``.lower()`` (or
``jit(f).lower(*args)``) a :class:`Lowering` (the optimised graph and the generated
code), and that one's ``.compile()`` a :class:`Compiled`: ``f`` compiled for the
lowered signature (pytree structure, shapes and dtypes, static arguments) and only for
it.  Arguments may be arrays, numbers and pytrees of them, or
:class:`~funcgrad.jit.signature.ShapeDtypeStruct` in place of arrays.  Every stage has
``in_tree`` (the structure of ``(args, kwargs)``, static arguments left out),
``out_tree``, ``args_info`` (that pytree with a ShapeDtypeStruct per leaf) and
``out_info`` (the results', likewise).

How a :class:`Compiled` behaves, JAX's way unless said:

* It never traces or compiles again: a call with another structure, shape or dtype
  raises a ``TypeError`` listing each mismatch.  A Python number and a NumPy scalar differ
  here as they do in jit's cache (the number is weakly typed: ``float32 array * 2.5`` is
  float32, ``* np.float64(2.5)`` float64), where JAX lets them pass.
* Static arguments are fixed at lowering: leave them out of the call (JAX's way), or pass
  the same value again (funcgrad accepts that too); another value raises.
* It cannot be transformed (``grad`` of it raises): transform the jitted function.
* It computes with the arrays ``f`` reads without being passed them (globals, closures)
  as they were traced; after one changes (``w[:] = ...``) a call raises rather than use
  the old values silently (the jitted function itself traces again).
* Lowered from ShapeDtypeStructs, ``compile()`` has no values to run: it runs the kernels
  once on zeros (Numba types its kernels from a first call), except for a graph with a
  ``while_loop``, which zeros might never end; there, and after a step that fails on zeros
  (a Cholesky factor of a zero matrix), the kernels left compile on the first call.
* It pickles as its recipe (the jitted function, the arguments' shapes and dtypes, the
  static values): the receiving process lowers and compiles it as it is unpickled.  So
  do a Traced and a Lowering (traced or lowered again there).
* ``cost_analysis()`` is an estimate (:mod:`funcgrad.jit.cost`); there is no
  ``memory_analysis``, sharding or layout: the kernels run on one CPU.
"""
import copy
import inspect

import numpy as np
from numpy import ndarray

from .. import tree
from ..core import Tracer, TrigRangeError, _special_classes, is_special
from ..interpreters.graph import Graph
from ..lax import while_loop_p
from .cost import cost_analysis
from .derive import out_aval
from .passes import subgraphs
from .signature import ShapeDtypeStruct, fast_key, hashable_static, leaf_aval
from .watch import changed

__all__ = ["Traced", "Lowering", "Compiled"]


class LoweredCall:
    """The call a stage was made for: the jitted function, its traced entry, the
    signature (``key``: structure, avals, static keys, number of positional arguments),
    the static values, and the array leaves when values were given (None for
    ShapeDtypeStructs)."""

    def __init__(self, jitted, entry, key, leaves, static_pos, static_values):
        self.jitted = jitted
        self.entry = entry
        self.in_tree, self.in_avals, statics, self.nargs = key
        self.leaves = leaves
        self.static_pos = tuple(static_pos)
        # ("arg", position) or ("kw", name) -> (the value, its cache key)
        self.statics = {(kind, where): (static_values[kind, where], k)
                        for kind, where, k in statics if kind != "axes"}
        # The arrays the function reads without being passed them, as it was traced
        # (a later trace rebinds the jitted function's lists).
        self.watched, self.links = jitted._watched, jitted._links
        self.name = entry.name
        try:
            params = inspect.signature(jitted.fun).parameters.values()
            self.positional = [p.name for p in params
                               if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        except (TypeError, ValueError):
            self.positional = []

    def without_values(self):
        """This call, holding no argument values (a Compiled object keeps no caller's
        arrays alive)."""
        call = copy.copy(self)
        call.leaves = None
        return call

    # names --------------------------------------------------------------------------
    def _arg_name(self, position):
        return self.positional[position] if position < len(self.positional) else \
            f"args[{position}]"

    def dynamic_names(self):
        """The names of the dynamic positional arguments, in order."""
        return [self._arg_name(p) for p in range(self.nargs) if p not in self.static_pos]

    def leaf_paths(self):
        """Where each leaf sits in the arguments: ``x``, ``params['w']``, ``pair.a``."""
        args_tree, kwargs_tree = self.in_tree.children()
        paths = []
        for name, child in zip(self.dynamic_names(), args_tree.children()):
            _paths(child, name, paths)
        for name, child in zip(kwargs_tree.aux, kwargs_tree.children()):
            _paths(child, str(name), paths)
        return paths

    # values ----------------------------------------------------------------------------
    def abstract_leaves(self):
        return [ShapeDtypeStruct.of(a) for a in self.in_avals]

    def dummies(self):
        """Zeros of the lowered avals (a weak one as the Python number it stands for)."""
        return [_WEAK_ZEROS.get(a.dtype.kind, int)() if a.weak else np.zeros(a.shape, a.dtype)
                for a in self.in_avals]

    def arguments(self, leaves):
        """``(args, kwargs)`` of a call with these leaves and the static values."""
        dyn_args, kwargs = tree.unflatten(self.in_tree, leaves)
        dyn = iter(dyn_args)
        args = tuple(self.statics["arg", p][0] if p in self.static_pos else next(dyn)
                     for p in range(self.nargs))
        kwargs = dict(kwargs)
        kwargs.update({where: value for (kind, where), (value, _) in self.statics.items()
                       if kind == "kw"})
        return args, kwargs

    def out_avals(self):
        return [out_aval(v) for v in self.entry.graph.outvars]

    # checking a call -------------------------------------------------------------------
    def dynamic(self, args, kwargs):
        """The dynamic ``(args, kwargs)`` of a call: static arguments checked against the
        lowered values and left out."""
        if self.static_pos and len(args) == self.nargs:
            for p in self.static_pos:
                self._check_static(args[p], self._arg_name(p), ("arg", p))
            args = tuple(a for p, a in enumerate(args) if p not in self.static_pos)
        static_names = [k for k in kwargs if k in self.jitted.static_argnames]
        if static_names:
            for name in static_names:
                where = ("kw", name)
                if where not in self.statics and name in self.positional:
                    where = ("arg", self.positional.index(name))
                self._check_static(kwargs[name], name, where)
            kwargs = {k: v for k, v in kwargs.items() if k not in static_names}
        return args, kwargs

    def _check_static(self, value, name, where):
        lowered = self.statics.get(where)
        if lowered is None:
            raise TypeError(f"jit({self.name}): static argument {name!r} was not given when "
                            f"the function was lowered (its default was used); leave it out "
                            f"of the call, or lower again with it.")
        if hashable_static(value, f"argument {name!r}") != lowered[1]:
            raise TypeError(f"jit({self.name}): static argument {name!r} was fixed at "
                            f"{lowered[0]!r} when lowered, and called with {value!r}. A "
                            f"compiled function never traces again: leave static arguments "
                            f"out of the call (or pass the same value), and lower again "
                            f"for another value.")

    def structure_error(self, got):
        """How the structure ``got`` of a call's dynamic arguments differs: the number of
        positional arguments, the keywords, or else where each argument first differs."""
        want_args, want_kwargs = self.in_tree.children()
        got_args, got_kwargs = got.children()
        problems = []
        if len(want_args.children()) != len(got_args.children()):
            names = ", ".join(self.dynamic_names())
            text = (f"lowered with {len(want_args.children())} positional argument(s) "
                    f"({names}), called with {len(got_args.children())}")
            if self.static_pos:
                statics = ", ".join(self._arg_name(p) for p in self.static_pos)
                text += (f" (static arguments ({statics}) are fixed: leave them out, or "
                         f"pass all {self.nargs} with the same static values)")
            problems.append(text)
        if want_kwargs.aux != got_kwargs.aux:
            problems.append(f"lowered with keyword arguments {list(want_kwargs.aux)}, called "
                            f"with {list(got_kwargs.aux)}")
        if not problems:
            pairs = list(zip(self.dynamic_names(), want_args.children(), got_args.children()))
            pairs += list(zip(map(str, want_kwargs.aux), want_kwargs.children(),
                              got_kwargs.children()))
            problems = [d for d in (_difference(w, g, name) for name, w, g in pairs) if d]
        return "; ".join(problems)


_WEAK_ZEROS = {"i": int, "u": int, "f": float, "c": complex, "b": bool}


def _step(treedef, i):
    node = treedef.node
    if node is dict:
        return f"[{treedef.aux[i]!r}]"
    if node == "namedtuple":
        return f".{treedef.aux._fields[i]}"
    return f"[{i}]"


def _paths(treedef, path, out):
    if treedef.node is None:
        out.append(path)
        return
    for i, child in enumerate(treedef.children()):
        _paths(child, path + _step(treedef, i), out)


def _kind(treedef):
    node, n = treedef.node, len(treedef.children())
    if node is None:
        return "an array"
    if node is tuple or node is list:
        return f"a {node.__name__} of {n}"
    if node is dict:
        return f"a dict with keys {list(treedef.aux)}"
    if node is type(None):
        return "None"
    if node == "namedtuple":
        return f"a {treedef.aux.__name__}"
    return f"a {node.__name__} ({treedef.aux!r})"


def _difference(want, got, path):
    """The first place where two structures differ, said, or None."""
    if want == got:
        return None
    if want.node != got.node or want.aux != got.aux or len(want.children()) != len(
            got.children()):
        return f"{path}: lowered with {_kind(want)}, called with {_kind(got)}"
    for i, (w, g) in enumerate(zip(want.children(), got.children())):
        difference = _difference(w, g, path + _step(want, i))
        if difference:
            return difference
    return None  # pragma: no cover - equal children make equal trees


def _show(aval):
    if aval.weak:
        kind = {"i": "int", "u": "int", "f": "float", "c": "complex"}.get(aval.dtype.kind, "")
        return f"a Python {kind} (weakly typed {aval.str_short()[1:]})"
    return aval.str_short()


def _has_while_loop(graph):
    return any(eqn.prim is while_loop_p or any(_has_while_loop(g) for g in subgraphs(eqn))
               for eqn in graph.eqns)


# --- the stages ------------------------------------------------------------------------------

class _Stage:
    """What every stage shows of the call it was made for."""

    _stage: str | None = None  # the name of the step that remakes it from a Traced (pickling)

    def __init__(self, call):
        self._call = call

    @property
    def in_tree(self):
        """The pytree structure of ``(args, kwargs)``, static arguments left out."""
        return self._call.in_tree

    @property
    def out_tree(self):
        """The pytree structure of the result."""
        return self._call.entry.out_tree

    @property
    def args_info(self):
        """``(args, kwargs)`` as lowered, a :class:`ShapeDtypeStruct` per array leaf
        (static arguments left out)."""
        return tree.unflatten(self.in_tree, self._call.abstract_leaves())

    @property
    def out_info(self):
        """The result's structure with a :class:`ShapeDtypeStruct` per leaf."""
        return tree.unflatten(self.out_tree,
                              [ShapeDtypeStruct.of(a) for a in self._call.out_avals()])

    def __reduce__(self):
        call = self._call
        args, kwargs = call.arguments(call.abstract_leaves())
        return (_restage, (call.jitted, args, kwargs, self._stage))

    def __repr__(self):
        ins = ", ".join(a.str_short() for a in self._call.in_avals)
        return f"<{type(self).__name__} jit({self._call.name}) for ({ins})>"


def _restage(jitted, args, kwargs, stage):
    traced = jitted.trace(*args, **kwargs)
    if stage is None:
        return traced
    lowering = traced.lower()
    return lowering if stage == "lower" else lowering.compile()


class Traced(_Stage):
    """What ``jit(f).trace(*args)`` returns: ``f`` traced for these arguments, before
    optimisation (JAX's ``jax.stages.Traced``).  ``graph`` (also ``jaxpr``, JAX's name)
    is the traced :class:`~funcgrad.Graph`; ``lower()`` the :class:`Lowering`.

    >>> import numpy as np, funcgrad as fg
    >>> traced = fg.jit(lambda x: np.sin(x) * 2.0).trace(fg.ShapeDtypeStruct((3,), np.float32))
    >>> print(traced.graph)
    { lambda  ; a:f32[3]. let
        b:f32[3] = sin a
        c:f32[3] = multiply b 2.0
      in (c) }
    >>> traced.out_info
    ShapeDtypeStruct(shape=(3,), dtype=float32)
    """

    @property
    def graph(self) -> Graph:
        """The traced graph (before optimisation)."""
        return self._call.entry.graph

    jaxpr = graph

    def lower(self):
        """The :class:`Lowering`: the graph optimised and its code generated."""
        return Lowering(self._call)


class Lowering(_Stage):
    """What ``jit(f).lower(*args)`` returns (JAX's ``jax.stages.Lowered``): the optimised
    ``graph`` and the generated code (``as_text()``); ``compile()`` compiles it into a
    :class:`Compiled`, specialised to these arguments' signature.

    >>> import numpy as np, funcgrad as fg
    >>> lowered = fg.jit(lambda x: np.sum(np.sin(x) ** 2)).lower(np.zeros(3))
    >>> "def kernel0(" in lowered.as_text()
    True
    >>> lowered.cost_analysis()["flops"]
    9.0
    """

    _stage = "lower"

    def __init__(self, call):
        super().__init__(call)
        self.jitted = call.jitted
        self.executable = call.entry.executable
        self.graph = self.executable.graph

    def compile(self):
        """Compile now: a :class:`Compiled` that runs compiled code from its first call,
        for arguments of this signature only.

        >>> import numpy as np, funcgrad as fg
        >>> f = fg.jit(lambda x: np.sum(np.sin(x) ** 2))
        >>> compiled = f.lower(np.zeros(3)).compile()
        >>> float(compiled(np.zeros(3)))
        0.0
        """
        call = self._call
        if call.leaves is not None:
            exe = call.entry.compile(call.leaves)
        else:
            exe = self.executable
            if not exe._compiled and not _has_while_loop(exe.graph):
                with np.errstate(all="ignore"):
                    try:
                        exe(*call.dummies())
                    except Exception:  # pragma: no cover - depends on the function
                        # A step failed on zeros (a Cholesky factor of a zero matrix); the
                        # kernels after it compile on the first call, whose error is real.
                        pass
        return Compiled(call, exe)

    def as_text(self):
        """The generated Python/Numba source."""
        return self.executable.lowered.as_text()

    def cost_analysis(self):
        """An estimate ``{"flops": ..., "bytes accessed": ...}``: see
        :mod:`funcgrad.jit.cost`."""
        return cost_analysis(self.graph, self._call.in_avals, self._call.out_avals())

    def __str__(self):
        return self.as_text()


class Compiled(_Stage):
    """What ``jit(f).lower(*args).compile()`` returns (JAX's ``jax.stages.Compiled``):
    ``f`` compiled for that signature.  Calls run the compiled code, never tracing or
    compiling again; arguments of another structure, shape or dtype raise ``TypeError``,
    and static arguments are left out (or passed with their lowered values).

    >>> import numpy as np, funcgrad as fg
    >>> scale = fg.jit(lambda x, n: x * n, static_argnums=1)
    >>> compiled = scale.lower(fg.ShapeDtypeStruct((2,), np.float64), 3).compile()
    >>> compiled(np.ones(2))
    array([3., 3.])
    >>> compiled(np.ones(3))
    Traceback (most recent call last):
    ...
    TypeError: jit(<lambda>): called with arguments other than those it was lowered for ...
    """

    _stage = "compile"

    def __init__(self, call, executable):
        call = call.without_values()
        super().__init__(call)
        self._exe = executable
        self._out = call.entry.out_tree
        self._run = executable.fast_entry(self._out)
        self._watched, self._links = call.watched, call.links
        # The fast path's keys of the lowered signature (see signature.fast_key)
        dyn_args, dyn_kwargs = tree.unflatten(call.in_tree, call.dummies())
        self._key = None if dyn_kwargs else fast_key(dyn_args)[0]
        self._one = (dyn_args[0].shape, dyn_args[0].dtype) if (
            not dyn_kwargs and len(dyn_args) == 1 and type(dyn_args[0]) is ndarray) else None

    def __call__(self, *args, **kwargs):
        if self._watched and changed(self._watched, self._links):
            raise RuntimeError(
                f"jit({self._call.name}): an array the function reads without being passed "
                f"it (a global, a closure's, an attribute) changed or was rebound since it "
                f"was traced, and a compiled function computes with the values it was "
                f"traced with. Lower it again (jit(f).lower(...).compile()), call the "
                f"jitted function (which traces again by itself), or pass the array as an "
                f"argument.")
        if not kwargs:  # the fast path: the jitted function's, for one signature
            if len(args) == 1 and type(args[0]) is ndarray:
                a = args[0]
                leaves = args if (a.shape, a.dtype) == self._one else None
            else:
                key, leaves = fast_key(args)
                if key is None or key != self._key:
                    leaves = None
            if leaves is not None:
                try:
                    return self._run(*leaves)
                except TrigRangeError:
                    return self._with_exact_trig(leaves)
        return self._checked_call(args, kwargs)

    def _with_exact_trig(self, leaves):
        # The executable switches, for good, to loops that redo sin/cos arguments beyond
        # the vector maths' range (see call.Executable), and the fast path follows it.
        outs = self._exe(*leaves)
        self._run = self._exe.fast_entry(self._out)
        return tree.unflatten(self._out, outs)

    def _checked_call(self, args, kwargs):
        call = self._call
        args, kwargs = call.dynamic(args, kwargs)
        leaves, treedef = tree.flatten((args, kwargs), is_special)
        if treedef != call.in_tree:
            raise TypeError(f"jit({call.name}): called with arguments of another structure "
                            f"than it was lowered for: {call.structure_error(treedef)}. A "
                            f"compiled function never traces again: call the jitted function, "
                            f"or lower it for these arguments.")
        paths = call.leaf_paths()
        for path, x in zip(paths, leaves):
            if isinstance(x, Tracer) or type(x) in _special_classes:
                what = ("an eager Tensor: call the jitted function, which records the call "
                        "on the Tensor's graph, or pass its array (t.detach().numpy())"
                        if not isinstance(x, Tracer) else
                        "a value traced by a transform (grad, vmap, jit...): transform the "
                        "jitted function instead, as in fg.grad(fg.jit(f))")
                raise TypeError(f"jit({call.name}): a compiled function runs on arrays and "
                                f"cannot be transformed; {path} is {what}.")
        avals = [leaf_aval(x, path) for path, x in zip(paths, leaves)]
        wrong = [f"  {path}: lowered as {_show(want)}, called with {_show(got)}"
                 for path, want, got in zip(paths, call.in_avals, avals) if want != got]
        if wrong:
            raise TypeError(f"jit({call.name}): called with arguments other than those it was "
                            "lowered for (a compiled function never traces again):\n"
                            + "\n".join(wrong) + "\nCall the jitted function (it traces each "
                            "new signature), or lower it for these arguments: "
                            "jit(f).lower(...).compile().")
        return tree.unflatten(self._out, self._exe(*leaves))

    @property
    def graph(self) -> Graph:
        """The optimised graph that was compiled."""
        return self._exe.graph

    def as_text(self):
        """The generated Python/Numba source.

        >>> import numpy as np, funcgrad as fg
        >>> compiled = fg.jit(lambda x: np.exp(x)).lower(np.zeros(2)).compile()
        >>> "@njit" in compiled.as_text()
        True
        """
        return self._exe.lowered.as_text()

    def cost_analysis(self):
        """An estimate ``{"flops": ..., "bytes accessed": ...}`` (what JAX users read from
        ``jax.stages.Compiled.cost_analysis()``): see :mod:`funcgrad.jit.cost`.

        >>> import numpy as np, funcgrad as fg
        >>> compiled = fg.jit(lambda a, b: a @ b).lower(np.ones((2, 3)), np.ones((3, 4))).compile()
        >>> compiled.cost_analysis()
        {'flops': 48.0, 'bytes accessed': 208.0}
        """
        return cost_analysis(self.graph, self._call.in_avals, self._call.out_avals())
