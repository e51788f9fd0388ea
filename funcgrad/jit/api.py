"""``fg.jit``: trace a function once per input signature, compile it with Numba, reuse it.

Calling a jitted function with concrete arrays looks its signature up (pytree structure,
shapes, dtypes, static arguments), traces and compiles on a miss, and runs the compiled
code.  Called with tracers of another transform (``grad(jit(f))``, ``vmap(jit(f))``, a
``jit`` inside a ``jit``) or eager Tensors, it binds the ``jit_call`` primitive instead
(:mod:`funcgrad.jit.call`, which also holds the compiled :class:`Executable`).
"""
import functools
import inspect
import numbers
import os
from typing import TYPE_CHECKING, Any, Callable, Sequence, overload

import numpy as np
from numpy import ndarray

from .. import tree
from ..core import (ROOT, Tracer, TrigRangeError, _special_classes, _state, stands_for_tensor,
                    is_special)
from ..interpreters.batching import named_axes
from .derive import out_aval
from .entry import Entry, compile_graph
from .passes import closure_convert, lift_tensors
from .signature import ShapeDtypeStruct, fast_key, hashable_static, leaf_aval
from .switches import track
from .trace import trace_flat
from .watch import changed, reachable_arrays

if TYPE_CHECKING:
    from .call import jit_call_p
    from .stages import Compiled, Lowering, Traced

__all__ = ["jit", "JitFunction", "jit_call_p", "compile_graph", "eval_shape", "Traced",
           "Lowering", "Compiled", "ShapeDtypeStruct"]

# The compiler (.call, .lower, .cache) and the stages (which import funcgrad.lax) load
# when first needed, most often on the background compiler's thread: importing them
# with the first fg.jit(f) was 5-8 ms of W3's 12 ms first call (eager: 4.5 ms).
_LAZY = {"jit_call_p": "call", "Traced": "stages", "Lowering": "stages",
         "Compiled": "stages"}


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    return getattr(importlib.import_module(f".{_LAZY[name]}", __package__), name)


# --- fg.jit -----------------------------------------------------------------------------------

# FUNCGRAD_JIT_WAIT=1: every jitted function compiles on its first call (wait=True)
_WAIT = os.environ.get("FUNCGRAD_JIT_WAIT", "0") not in ("", "0")


class JitFunction:
    """A jitted function (what :func:`jit` returns)."""

    _watch_through = True  # (watch.reachable_arrays looks into its function)

    def __init__(self, fun, static_argnums=(), static_argnames=(), wait=None):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.wait = _WAIT if wait is None else bool(wait)
        if isinstance(static_argnums, (int, np.integer)):
            static_argnums = (static_argnums,)
        if isinstance(static_argnames, str):
            static_argnames = (static_argnames,)
        self.static_argnums = tuple(int(i) for i in static_argnums)
        self.static_argnames = tuple(static_argnames)
        self._resolve_static_names()
        self._cache = {}
        self._fast = {}
        self._simple = not self.static_argnums and not self.static_argnames
        self._watched = []  # (the user's array, its value when traced): see _outdated
        self._links = []  # (container, key, value) on the way to them: see _outdated
        track(self)  # (for fg.clear_caches)

    def _resolve_static_names(self):
        """Static arguments may be named either way: link names and positions."""
        try:
            params = list(inspect.signature(self.fun).parameters.values())
        except (TypeError, ValueError):
            return
        positional = [p.name for p in params
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        names = set(self.static_argnames)
        nums = set(self.static_argnums)
        if not any(p.kind == p.VAR_POSITIONAL for p in params):
            outside = sorted(i for i in nums if not -len(positional) <= i < len(positional))
            if outside:  # (JAX's check, when jit is applied: no call could pass them)
                raise ValueError(
                    f"jit: static_argnums={tuple(sorted(self.static_argnums))} names "
                    f"position{'s' * (len(outside) > 1)} {', '.join(map(str, outside))}, but "
                    f"{getattr(self.fun, '__name__', 'the function')} takes "
                    f"{len(positional)} positional argument{'s' * (len(positional) != 1)} "
                    f"({', '.join(positional)}): name positions below {len(positional)}, or "
                    f"static_argnames for keyword-only arguments")
            # A negative position counts from the end of the signature's positional
            # parameters, however the call passes them (by keyword, or leaving a default)
            nums = {i + len(positional) if -len(positional) <= i < 0 else i for i in nums}
        for i in nums:
            if 0 <= i < len(positional):
                names.add(positional[i])
        for name in names:
            if name in positional:
                nums.add(positional.index(name))
        self.static_argnums = tuple(sorted(nums))
        self.static_argnames = tuple(sorted(names))

    def __get__(self, obj, objtype=None):
        return self if obj is None else functools.partial(self, obj)

    def __repr__(self):
        return f"<jit {getattr(self.fun, '__qualname__', self.fun)!r}>"

    def __reduce__(self):
        # Pickled as its recipe, never its traces or kernels: the receiving process
        # compiles for itself, once for all the copies it receives (see .shipping).
        from .shipping import arrays_digest, recipe_key
        recipe = (self.fun, self.static_argnums, self.static_argnames)
        key = None
        shipped = self.__dict__.get("_shipped")
        if shipped is not None and shipped[1] == arrays_digest(reachable_arrays(self.fun)):
            # Passed on (worker to worker): the key it came with, as this process's
            # pickle of a rebuilt function differs in bytes from the original's.
            key = shipped[0]
        return (_unpickle_jit, (key or recipe_key(recipe),) + recipe)

    # calling -----------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if _state.jit_disabled:  # the Python function, as it is
            return self.fun(*args, **kwargs)
        if (self._watched or self._links) and self._outdated():
            self.clear_cache()
        # The fast path: arrays, numbers and dicts, lists and tuples of them, a signature
        # seen before, no transform.
        if not kwargs and _state.interpreter is ROOT:
            if len(args) == 1 and type(args[0]) is ndarray:
                a = args[0]
                entry, leaves = self._fast.get((a.shape, a.dtype)), args
            else:
                key, leaves = fast_key(args)
                entry = None if key is None else self._fast.get(key)
            if entry is not None:
                try:
                    return entry(*leaves)
                except TrigRangeError:  # the executable switches (and a new entry is made)
                    self._fast.clear()
        return self._call(args, kwargs)

    def _split(self, args, kwargs):
        nargs = len(args)
        static_pos = sorted({i % nargs for i in self.static_argnums if -nargs <= i < nargs})
        statics = []
        for i in static_pos:
            statics.append(("arg", i, hashable_static(args[i], f"argument {i}")))
        for name in self.static_argnames:
            if name in kwargs:
                statics.append(("kw", name, hashable_static(kwargs[name], f"argument "
                                                                          f"{name!r}")))
        dyn_args = tuple(a for i, a in enumerate(args) if i not in static_pos)
        dyn_kwargs = {k: v for k, v in kwargs.items() if k not in self.static_argnames}
        return static_pos, tuple(statics), dyn_args, dyn_kwargs

    def _signature(self, args, kwargs, abstract=False):
        """``(key, leaves, static_pos)``; ``abstract``: ShapeDtypeStructs may stand for
        arrays (the ahead-of-time stages)."""
        static_pos, statics, dyn_args, dyn_kwargs = self._split(args, kwargs)
        # (a Tensor stays a leaf, so the call is recorded on its tape: see _call)
        leaves, treedef = tree.flatten((dyn_args, dyn_kwargs), is_special)
        avals = tuple(leaf_aval(x, f"leaf {i} of the arguments", abstract)
                      for i, x in enumerate(leaves))
        # A Tensor argument is traced with the Tensor's methods and promotion, an array
        # with NumPy's: the two trace different graphs
        tensors = tuple(i for i, x in enumerate(leaves) if stands_for_tensor(x))
        if tensors:
            statics += (("tensors", None, tensors),)
        if _state.interpreter is not ROOT:
            # A collective traced in refers to the named vmaps around the call by name and
            # size (as JAX's trace cache keys on its axis environment)
            axes = named_axes(_state.interpreter)
            if axes:
                statics += (("axes", None, axes),)
        return (treedef, avals, statics, len(args)), leaves, static_pos

    def _trace(self, args, kwargs, key, static_pos):
        treedef, avals, _, nargs = key
        out_trees = []

        def flat_fun(*tracers):
            dyn_args, dyn_kwargs = tree.unflatten(treedef, list(tracers))
            it = iter(dyn_args)
            full = [args[i] if i in static_pos else next(it) for i in range(nargs)]
            kw = dict(dyn_kwargs)
            kw.update({k: kwargs[k] for k in self.static_argnames if k in kwargs})
            out = self.fun(*full, **kw)
            # (a closed-over Tensor returned stays one leaf, lifted to an input: the
            # result is that Tensor's value on its graph, not a copy without a gradient)
            out_leaves, out_tree = tree.flatten(out, is_special)
            out_trees.append(out_tree)
            for i, o in enumerate(out_leaves):
                if not (isinstance(o, (Tracer, ndarray, np.generic, bool, numbers.Number))
                        or is_special(o)):
                    raise TypeError(f"jit: the function returned a {type(o).__name__} (output "
                                    f"leaf {i}); a jitted function returns arrays, numbers "
                                    f"and pytrees of them.")
            return out_leaves

        if not (self._watched or self._links):
            links = []
            self._watched = [(a, a.copy()) for a in reachable_arrays(self.fun, links=links)]
            self._links = links
        tensors = next((s[2] for s in key[2] if s[0] == "tensors"), ())
        graph = trace_flat(flat_fun, avals, "jit", tensors)
        graph, tracers = closure_convert(graph)
        # (tensors lifted after tracers, so their inputs lead: see _call)
        graph, tensors = lift_tensors(graph)
        name = getattr(self.fun, "__name__", "f")
        return Entry(graph, out_trees[0], name, tensors), tracers

    def _entry(self, args, kwargs, abstract=False):
        """``(entry, tracers, leaves)``: the traced signature of these arguments (traced
        on a miss, and cached unless it closed over ``tracers`` of a transform) and the
        arguments' array leaves."""
        return self._lookup(args, kwargs, abstract)[:3]

    def _lookup(self, args, kwargs, abstract=False):
        """:meth:`_entry`'s, with the signature's key and static positions."""
        key, leaves, static_pos = self._signature(args, kwargs, abstract)
        entry = self._cache.get(key)
        tracers = ()
        if entry is None:
            entry, tracers = self._trace(args, kwargs, key, static_pos)
            if not tracers:
                self._cache[key] = entry
        return entry, tracers, leaves, key, static_pos

    def _call(self, args, kwargs):
        entry, tracers, leaves = self._entry(args, kwargs)
        if _state.interpreter is ROOT and not tracers and not entry.tensors and not any(
                type(x) in _special_classes for x in leaves):  # plain values: run the kernels
            if not (self.wait or entry.ready()):
                return tree.unflatten(entry.out_tree, entry.meanwhile(leaves))
            exe = entry.executable  # (raises the error of a failed compilation)
            if self._simple and not kwargs:
                fkey = (fast_key(args)[0] if len(args) != 1 or type(args[0]) is not ndarray
                        else (args[0].shape, args[0].dtype))
                if fkey is not None:
                    self._fast[fkey] = exe.fast_entry(entry.out_tree)
            return tree.unflatten(entry.out_tree, exe(*leaves))
        from .call import jit_call_p
        # On Tensors (arguments or closed over) the call is one node of their graph,
        # whose backward is the compiled VJP, as torch.compile records it
        outs = jit_call_p.bind(*entry.tensors, *tracers, *leaves, graph=entry.graph,
                               name=entry.name)
        return tree.unflatten(entry.out_tree, outs)

    # ahead of time (see .stages) and inspection ----------------------------------------
    def trace(self, *args: Any, **kwargs: Any) -> "Traced":
        """The :class:`~funcgrad.jit.stages.Traced` stage for these arguments (arrays,
        numbers, pytrees, or :class:`ShapeDtypeStruct` in place of arrays): the traced
        ``graph``, ``out_info``, and ``lower()``.

        >>> import numpy as np, funcgrad as fg
        >>> traced = fg.jit(lambda x: x.T @ x).trace(fg.ShapeDtypeStruct((3, 2), np.float32))
        >>> traced.out_info
        ShapeDtypeStruct(shape=(2, 2), dtype=float32)
        """
        if (self._watched or self._links) and self._outdated():  # (as a call would: see _outdated)
            self.clear_cache()
        entry, tracers, leaves, key, static_pos = self._lookup(args, kwargs, abstract=True)
        if tracers:
            raise TypeError(f"jit({entry.name}): the function closes over values traced by "
                            f"an enclosing transform, which a stage made ahead of time "
                            f"cannot hold; lower it outside the transform, or pass them "
                            f"as arguments.")
        if entry.tensors:
            raise TypeError(f"jit({entry.name}): the function closes over "
                            f"{len(entry.tensors)} eager Tensor(s), which a compiled stage "
                            f"(it runs on arrays only) cannot read when called; call the "
                            f"jitted function itself, which records the call on their graph, "
                            f"or close over their arrays (t.detach().numpy()).")
        statics = {("arg", i): args[i] for i in static_pos}
        statics.update({("kw", k): kwargs[k] for k in self.static_argnames if k in kwargs})
        # compile() runs the kernels once on plain values; on zeros for the others
        # (structs, a transform's tracers, Tensors)
        concrete = all(type(x) is ndarray or isinstance(x, (np.generic, bool, numbers.Number))
                       for x in leaves)
        from .stages import LoweredCall, Traced
        return Traced(LoweredCall(self, entry, key, leaves if concrete else None, static_pos,
                                  statics))

    def lower(self, *args: Any, **kwargs: Any) -> "Lowering":
        """The :class:`~funcgrad.jit.stages.Lowering` for these arguments (arrays,
        numbers, pytrees, or :class:`ShapeDtypeStruct` in place of arrays):
        ``.as_text()`` is the generated code, ``.compile()`` compiles it now into a
        :class:`~funcgrad.jit.stages.Compiled`, as ``jax.jit(f).lower(x).compile()``.

        >>> import numpy as np, funcgrad as fg
        >>> f = fg.jit(lambda x: np.sum(x ** 2))
        >>> compiled = f.lower(fg.ShapeDtypeStruct((3,), np.float64)).compile()
        >>> float(compiled(np.ones(3)))
        3.0
        """
        return self.trace(*args, **kwargs).lower()

    def eval_shape(self, *args, **kwargs):
        """The result's structure, shapes and dtypes for these arguments (arrays, numbers,
        pytrees, or :class:`ShapeDtypeStruct`), a :class:`ShapeDtypeStruct` per leaf: the
        function is traced (once per signature, as a call would), never run.

        >>> import numpy as np, funcgrad as fg
        >>> f = fg.jit(lambda x, y: {"sum": x + y, "mean": np.mean(x, axis=0)})
        >>> f.eval_shape(fg.ShapeDtypeStruct((4, 2), np.float32), 1.0)
        {'mean': ShapeDtypeStruct(shape=(2,), dtype=float32), 'sum': ShapeDtypeStruct(shape=(4, 2), dtype=float32)}
        """
        if (self._watched or self._links) and self._outdated():
            self.clear_cache()
        entry = self._entry(args, kwargs, abstract=True)[0]
        return tree.unflatten(entry.out_tree, [ShapeDtypeStruct.of(out_aval(v))
                                               for v in entry.graph.outvars])

    def graph(self, *args, **kwargs):
        """The traced graph (before optimisation) for these arguments."""
        return self._entry(args, kwargs)[0].graph

    def block_until_compiled(self, timeout=None):
        """Wait until the background compilations this function's calls started have
        ended (the calls after it run compiled code); ``False`` if ``timeout`` seconds
        passed first.

        >>> import numpy as np, funcgrad as fg
        >>> f = fg.jit(lambda x: np.sum(np.cos(x)))
        >>> float(f(np.zeros(2)))          # evaluated eagerly while it compiles
        2.0
        >>> f.block_until_compiled()
        True
        """
        import time
        deadline = None if timeout is None else time.monotonic() + timeout
        for entry in list(self._cache.values()):
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not entry.wait(left):
                return False
        return True

    def clear_cache(self):
        """Forget every traced signature: the next call traces the function again."""
        self._cache.clear()
        self._fast.clear()
        self._watched = []
        self._links = []

    def _outdated(self):
        """Has an array the function reaches (a global, a closure's, an attribute of an
        object it holds) changed since it was traced?  A trace reads such arrays as
        constants, so after ``w[:] = ...`` the compiled code would compute with the old
        values: silently wrong.  So is one rebound (``W = new_array`` for a global ``W``,
        ``model.w = ...``, a closure's ``nonlocal``), or an eager Tensor it closes over
        (whose contents are read at each call).  Then the function is traced again
        (as eager code would see the new values)."""
        return changed(self._watched, self._links)


def _unpickle_jit(key, fun, static_argnums, static_argnames):
    from .shipping import arrays_digest, shared

    def make():
        made = JitFunction(fun, static_argnums, static_argnames)
        made._shipped = (key, arrays_digest(reachable_arrays(fun)))
        return made
    return shared(key, make)


@overload
def jit(fun: Callable[..., Any], *, static_argnums: int | Sequence[int] = (),
        static_argnames: str | Sequence[str] = (), wait: bool | None = None,
        donate_argnums: int | Sequence[int] = (), donate_argnames: str | Sequence[str] = (),
        keep_unused: bool = False, inline: bool = False) -> "JitFunction": ...
@overload
def jit(fun: None = None, *, static_argnums: int | Sequence[int] = (),
        static_argnames: str | Sequence[str] = (), wait: bool | None = None,
        donate_argnums: int | Sequence[int] = (), donate_argnames: str | Sequence[str] = (),
        keep_unused: bool = False, inline: bool = False
        ) -> Callable[[Callable[..., Any]], "JitFunction"]: ...
def jit(fun: Callable[..., Any] | None = None, *, static_argnums: int | Sequence[int] = (),
        static_argnames: str | Sequence[str] = (), wait: bool | None = None,
        donate_argnums: int | Sequence[int] = (), donate_argnames: str | Sequence[str] = (),
        keep_unused: bool = False, inline: bool = False
        ) -> "JitFunction | Callable[[Callable[..., Any]], JitFunction]":
    """Compile ``fun`` with Numba: traced once per input signature (structure, shapes,
    dtypes, static arguments), optimised, and lowered to fused loops.

    Never stalls: a new signature is traced, then evaluated eagerly (primitive by
    primitive, as eager code runs) while a background thread compiles it; calls switch
    to the compiled code when it is ready (or loaded from the disk cache).  ``wait=True``
    compiles on the first call instead; the environment variable ``FUNCGRAD_JIT_WAIT=1``
    makes ``wait=True`` the default.  Ahead of time, as JAX's stages
    (:mod:`funcgrad.jit.stages`): ``f.trace(*args)``, ``f.lower(*args)`` and
    ``f.lower(*args).compile()``, a function compiled for those arguments' signature only;
    ``f.eval_shape(*args)`` gives the result's shapes.  Each takes
    :class:`ShapeDtypeStruct` in place of arrays.

    Composes with every transform: ``jit(grad(f))`` compiles the forward and backward
    passes together; ``grad(jit(f))``, ``vmap(jit(f))``, ``jvp`` and ``hessian`` of a
    jitted function run compiled derivative code.  Python control flow on traced values
    raises a :class:`~funcgrad.ConcretizationError` naming the line: mark such arguments
    static (``static_argnums``/``static_argnames``) or use ``fg.lax.cond``,
    ``fg.lax.fori_loop`` and ``fg.lax.while_loop``.  ``jit(f).lower(*args).as_text()``
    shows the generated code.  Usable as a decorator, with or without arguments.
    Eager :class:`~funcgrad.Tensor` arguments, and Tensors the function closes over, are
    read at each call, and the call is one node of their graph whose backward runs the
    compiled VJP (as ``torch.compile``): ``jit(loss)(x).backward()`` fills ``w.grad`` of
    a closed-over ``w``.
    JAX's hints ``donate_argnums``/``donate_argnames`` (results never reuse an input's
    memory here, so nothing is donated and no input is invalidated), ``keep_unused`` and
    ``inline`` are accepted and change no result.

    >>> import numpy as np, funcgrad as fg
    >>> @fg.jit
    ... def f(x):
    ...     return np.sum(x ** 3)
    >>> fg.jit(fg.grad(f), wait=True)(np.array([1.0, 2.0]))  # one kernel: f and f'
    array([ 3., 12.])
    """
    _check_hints(donate_argnums, donate_argnames)
    if fun is None:
        return lambda f: JitFunction(f, static_argnums, static_argnames, wait)
    if not callable(fun):
        raise TypeError(f"jit expects a function, got {type(fun).__name__}")
    return JitFunction(fun, static_argnums, static_argnames, wait)


def _check_hints(donate_argnums, donate_argnames):
    """JAX's donation hints are only checked for their type: a typo still says so."""
    nums = (donate_argnums,) if isinstance(donate_argnums, int) else donate_argnums
    names = (donate_argnames,) if isinstance(donate_argnames, str) else donate_argnames
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in nums):
        raise TypeError(f"jit: donate_argnums must be an int or a sequence of ints, got "
                        f"{donate_argnums!r}")
    if not all(isinstance(n, str) for n in names):
        raise TypeError(f"jit: donate_argnames must be a str or a sequence of str, got "
                        f"{donate_argnames!r}")


def eval_shape(fun: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The structure, shapes and dtypes of ``fun(*args, **kwargs)``, a
    :class:`ShapeDtypeStruct` per result leaf, as ``jax.eval_shape``: ``fun`` is traced
    on abstract values, never run, so nothing is computed or compiled.  Arguments are
    arrays, numbers, pytrees of them, or ShapeDtypeStructs in place of arrays; pass other
    arguments through ``functools.partial``.

    >>> import numpy as np, funcgrad as fg
    >>> fg.eval_shape(lambda a, b: (a @ b, a.sum()),
    ...               fg.ShapeDtypeStruct((8, 3), np.float32), np.ones((3, 5), np.float32))
    (ShapeDtypeStruct(shape=(8, 5), dtype=float32), ShapeDtypeStruct(shape=(), dtype=float32))
    """
    return jit(fun).eval_shape(*args, **kwargs)
