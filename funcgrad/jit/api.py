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
import threading
import warnings
from typing import Any, Callable, Sequence, overload

import numpy as np
from numpy import ndarray

from .. import tree
from ..core import (ROOT, ShapedArray, Tracer, TrigRangeError, _special_classes, _state,
                    is_special, is_weak)
from ..interpreters.graph import eval_graph
from .call import compile_graph, jit_call_p
from .derive import as_root
from .passes import closure_convert
from .switches import track
from .trace import trace_flat
from .watch import reachable_arrays, relinked, same_bits

__all__ = ["jit", "JitFunction", "jit_call_p", "compile_graph"]

# --- fg.jit -----------------------------------------------------------------------------------

def _leaf_aval(x, where):
    if isinstance(x, Tracer):
        return ShapedArray(x.shape, x.dtype, x.weak)
    if type(x) is ndarray or isinstance(x, np.generic):
        if x.dtype.kind in "OSUVMm":
            raise TypeError(f"jit: {where} is an array of dtype {x.dtype}; jit takes numeric "
                            f"arrays. Convert it, or mark the argument static.")
        return ShapedArray(x.shape, x.dtype)
    if isinstance(x, (bool, numbers.Number)) and not isinstance(x, np.ndarray):
        # A Python int, float or complex stays weakly typed, as NumPy 2 and JAX type it:
        # jit(lambda x, s: x * s)(float32 x, 2.5) is float32, compiled or not.
        return ShapedArray((), np.result_type(x), is_weak(x))
    from ..numpy._convert import asarray
    try:
        arr = asarray(x)
    except (TypeError, ValueError) as e:
        raise TypeError(f"jit: {where} of type {type(x).__name__} is not an array ({e}). "
                        f"Pass arrays, numbers or pytrees of them, or mark the argument "
                        f"static (static_argnums / static_argnames).") from None
    return ShapedArray(arr.shape, arr.dtype)


class _Entry:
    """A traced signature: its closed graph, output structure and compiled code, which
    may be built on a background thread while calls evaluate the graph eagerly."""

    __slots__ = ("graph", "out_tree", "name", "_exe", "n_tracers", "_builder", "_lock")

    def __init__(self, graph, out_tree, name, n_tracers):
        self.graph = graph
        self.out_tree = out_tree
        self.name = name
        self._exe = None
        self.n_tracers = n_tracers
        self._builder = None
        self._lock = threading.Lock()

    @property
    def executable(self):
        if self._exe is None:
            self._exe = compile_graph(self.graph)
        return self._exe

    def compile(self, leaves, copy=True):
        """Build the executable and compile its kernels, by running them once on (copies
        of) ``leaves``: Numba types the kernels from their arguments."""
        exe = self.executable
        if not exe._compiled:
            exe(*(_copies(leaves) if copy else leaves))
        return exe

    def ready(self):
        """Is the compiled code built (and its kernels compiled)?"""
        exe = self._exe
        return exe is not None and exe._compiled

    def meanwhile(self, leaves):
        """The outputs of the graph evaluated eagerly, the primitives one by one as
        eager code runs them, while the background compiler builds it (queued by the
        first such call)."""
        queue_compile = None
        with self._lock:
            if self._builder is None:
                self._builder = threading.Event()
                # copies: the caller may change its arrays before the compiler runs
                queue_compile = _copies(leaves)
        try:
            return as_root(eval_graph, self.graph, *leaves)
        finally:
            # Queued once this first call is done: compiling holds the GIL for long
            # stretches, and started at once it made this call (W3's value_and_grad)
            # about twice as slow.
            if queue_compile is not None:
                _compile_in_background(self, queue_compile)

    def build(self, leaves):
        """Compile (on the background compiler's thread); a failure is said, not raised:
        the eager evaluation stays right, only slow."""
        try:
            self.compile(leaves, copy=False)
        except Exception as e:
            self._exe = _Failed(e)
            warnings.warn(f"jit({self.name}): compiling failed ({type(e).__name__}: {e}); "
                          f"calls keep evaluating it eagerly (correct, not compiled). "
                          f"Please report this; fg.jit(f, wait=True) raises the error.",
                          RuntimeWarning, stacklevel=1)
        finally:
            self._builder.set()

    def wait(self, timeout=None):
        """Block until a background compilation queued by :meth:`meanwhile` ends."""
        builder = self._builder
        return True if builder is None else builder.wait(timeout)


def _copies(leaves):
    return [x.copy() if type(x) is ndarray else x for x in leaves]


_queue = None
_queue_lock = threading.Lock()


def _compile_in_background(entry, leaves):
    """Queue ``entry`` for the background compiler: one daemon thread, compiling in the
    order of first calls (Numba compiles one function at a time anyway), which never
    keeps the interpreter from exiting."""
    global _queue
    with _queue_lock:
        if _queue is None:
            import queue
            _queue = queue.SimpleQueue()
            threading.Thread(target=_compiler, args=(_queue,), daemon=True,
                             name="funcgrad.jit compiler").start()
        _queue.put((entry, leaves))


def _compiler(jobs):
    while True:
        entry, leaves = jobs.get()
        entry.build(leaves)
        del entry, leaves


def _forget_the_compiler():
    """A forked child has no compiler thread: the next background compile starts one."""
    global _queue, _queue_lock
    _queue, _queue_lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_the_compiler)


class _Failed:
    """Stands for an executable that could not be compiled (never ready)."""

    _compiled = False

    def __init__(self, error):
        self.error = error


# FUNCGRAD_JIT_WAIT=1: every jitted function compiles on its first call (wait=True)
_WAIT = os.environ.get("FUNCGRAD_JIT_WAIT", "0") not in ("", "0")


class Lowering:
    """What :meth:`JitFunction.lower` returns: the optimised graph and generated code;
    :meth:`compile` compiles it now (ahead of time, as ``jax.jit(f).lower(x).compile()``)."""

    def __init__(self, jitted, entry, leaves):
        self.jitted = jitted
        self._entry = entry
        self._leaves = leaves
        self.executable = entry.executable
        self.graph = self.executable.graph

    def compile(self):
        """Compile the kernels now, so that calls with arguments like these run compiled
        code from the first one; returns the jitted function.

        >>> import numpy as np, funcgrad as fg
        >>> f = fg.jit(lambda x: np.sum(np.sin(x) ** 2))
        >>> g = f.lower(np.zeros(3)).compile()
        >>> float(g(np.zeros(3)))
        0.0
        """
        self._entry.compile(self._leaves)
        return self.jitted

    def as_text(self):
        """The generated Python/Numba source."""
        return self.executable.lowered.as_text()

    def __str__(self):
        return self.as_text()


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
        if _state.jit_disabled:  # fg.disable_jit(): the Python function, as it is
            return self.fun(*args, **kwargs)
        if self._watched and self._outdated():
            self.clear_cache()
        # The fast path: arrays, numbers and dicts, lists and tuples of them, a signature
        # seen before, no transform.
        if not kwargs and _state.interpreter is ROOT:
            if len(args) == 1 and type(args[0]) is ndarray:
                a = args[0]
                entry, leaves = self._fast.get((a.shape, a.dtype)), args
            else:
                key, leaves = _fast_key(args)
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
            statics.append(("arg", i, _hashable_static(args[i], f"argument {i}")))
        for name in self.static_argnames:
            if name in kwargs:
                statics.append(("kw", name, _hashable_static(kwargs[name], f"argument "
                                                                          f"{name!r}")))
        dyn_args = tuple(a for i, a in enumerate(args) if i not in static_pos)
        dyn_kwargs = {k: v for k, v in kwargs.items() if k not in self.static_argnames}
        return static_pos, tuple(statics), dyn_args, dyn_kwargs

    def _signature(self, args, kwargs):
        static_pos, statics, dyn_args, dyn_kwargs = self._split(args, kwargs)
        # (a Tensor stays a leaf, so the call is recorded on its tape: see _call)
        leaves, treedef = tree.flatten((dyn_args, dyn_kwargs), is_special)
        avals = tuple(_leaf_aval(x, f"leaf {i} of the arguments") for i, x in enumerate(leaves))
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
            out_leaves, out_tree = tree.flatten(out)
            out_trees.append(out_tree)
            for i, o in enumerate(out_leaves):
                if not isinstance(o, (Tracer, ndarray, np.generic, bool, numbers.Number)):
                    raise TypeError(f"jit: the function returned a {type(o).__name__} (output "
                                    f"leaf {i}); a jitted function returns arrays, numbers "
                                    f"and pytrees of them.")
            return out_leaves

        if not self._watched:
            links = []
            self._watched = [(a, a.copy()) for a in reachable_arrays(self.fun, links=links)]
            self._links = links
        graph = trace_flat(flat_fun, avals, "jit")
        graph, tracers = closure_convert(graph)
        name = getattr(self.fun, "__name__", "f")
        return _Entry(graph, out_trees[0], name, len(tracers)), tracers

    def _entry(self, args, kwargs):
        """``(entry, tracers, leaves)``: the traced signature of these arguments (traced
        on a miss, and cached unless it closed over ``tracers`` of a transform) and the
        arguments' array leaves."""
        key, leaves, static_pos = self._signature(args, kwargs)
        entry = self._cache.get(key)
        tracers = ()
        if entry is None:
            entry, tracers = self._trace(args, kwargs, key, static_pos)
            if not tracers:
                self._cache[key] = entry
        return entry, tracers, leaves

    def _call(self, args, kwargs):
        entry, tracers, leaves = self._entry(args, kwargs)
        if _state.interpreter is ROOT and not tracers and not any(
                type(x) in _special_classes for x in leaves):  # plain values: run the kernels
            if not (self.wait or entry.ready()):
                return tree.unflatten(entry.out_tree, entry.meanwhile(leaves))
            if isinstance(entry._exe, _Failed):
                raise entry._exe.error
            exe = entry.executable
            if self._simple and not kwargs:
                fkey = (_fast_key(args)[0] if len(args) != 1 or type(args[0]) is not ndarray
                        else (args[0].shape, args[0].dtype))
                if fkey is not None:
                    self._fast[fkey] = exe.fast_entry(entry.out_tree)
            return tree.unflatten(entry.out_tree, exe(*leaves))
        outs = jit_call_p.bind(*tracers, *leaves, graph=entry.graph, name=entry.name)
        return tree.unflatten(entry.out_tree, outs)

    # inspection ---------------------------------------------------------------------------
    def lower(self, *args, **kwargs):
        """The :class:`Lowering` for these arguments: ``.as_text()`` is the generated code,
        ``.compile()`` compiles it now."""
        entry, _, leaves = self._entry(args, kwargs)
        return Lowering(self, entry, leaves)

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
        ``model.w = ...``, a closure's ``nonlocal``).  Then the function is traced again
        (as eager code would see the new values)."""
        if relinked(self._links):
            return True
        for array, value in self._watched:
            if not same_bits(array, value):
                return True
        return False


def _unpickle_jit(key, fun, static_argnums, static_argnames):
    from .shipping import arrays_digest, shared

    def make():
        made = JitFunction(fun, static_argnums, static_argnames)
        made._shipped = (key, arrays_digest(reachable_arrays(fun)))
        return made
    return shared(key, make)


def _fast_key(args):
    """``(key, leaves)``: a cheap key for calls whose arguments are arrays, Python numbers
    and dicts (of sortable keys), lists and tuples of them, and their leaves in
    :func:`funcgrad.tree.flatten`'s order; ``(None, None)`` for any other argument.  The
    key holds each array's shape and dtype, each number's type and each container's kind
    and size or keys, in an order that reads back one way only."""
    key = [tuple, len(args)]
    for a in args:  # (flat arguments, the commonest call, without _gather's recursion)
        t = type(a)
        if t is ndarray:
            key.append(a.shape)
            key.append(a.dtype)
        elif t is float or t is int or t is bool:
            key.append(t)
        else:
            break
    else:
        return tuple(key), args
    key, leaves = [], []
    if _gather(args, key, leaves):
        return tuple(key), leaves
    return None, None


def _gather(x, key, leaves):
    t = type(x)
    if t is ndarray:
        key.append(x.shape)
        key.append(x.dtype)
        leaves.append(x)
        return True
    if t is float or t is int or t is bool:
        key.append(t)
        leaves.append(x)
        return True
    if t is tuple or t is list:
        key.append(t)
        key.append(len(x))
        for c in x:
            if not _gather(c, key, leaves):
                return False
        return True
    if t is dict:
        try:
            names = tuple(sorted(x))
        except TypeError:  # (keys of mixed types: the slow path's order)
            return False
        key.append(dict)
        key.append(names)
        for k in names:
            if not _gather(x[k], key, leaves):
                return False
        return True
    return False


def _hashable_static(value, where):
    """The cache key of a static argument: its value and its type (``1``, ``1.0`` and
    ``True`` are equal in Python but trace differently: ``x * n`` of an int array is int
    for one, float for another), floats by their bits (``0.0 == -0.0``, yet ``1 / s``
    differs; and a ``nan`` finds its own trace again)."""
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"jit: static {where} of type {type(value).__name__} is not hashable; "
                        f"static arguments key the compilation cache. Pass a tuple instead "
                        f"of a list (or make the argument dynamic).") from None
    return _static_key(value)


def _static_key(value):
    t = type(value)
    if t is float:
        return t, value.hex()
    if t is complex:
        return t, value.real.hex(), value.imag.hex()
    if t is tuple:
        return t, tuple(_static_key(v) for v in value)
    return t, value


@overload
def jit(fun: Callable[..., Any], *, static_argnums: int | Sequence[int] = (),
        static_argnames: str | Sequence[str] = (), wait: bool | None = None
        ) -> "JitFunction": ...
@overload
def jit(fun: None = None, *, static_argnums: int | Sequence[int] = (),
        static_argnames: str | Sequence[str] = (), wait: bool | None = None
        ) -> Callable[[Callable[..., Any]], "JitFunction"]: ...
def jit(fun: Callable[..., Any] | None = None, *, static_argnums: int | Sequence[int] = (),
        static_argnames: str | Sequence[str] = (), wait: bool | None = None
        ) -> "JitFunction | Callable[[Callable[..., Any]], JitFunction]":
    """Compile ``fun`` with Numba: traced once per input signature (structure, shapes,
    dtypes, static arguments), optimised, and lowered to fused loops.

    Never stalls: a new signature is traced, then evaluated eagerly (primitive by
    primitive, as eager code runs) while a background thread compiles it; calls switch
    to the compiled code when it is ready (or loaded from the disk cache).  ``wait=True``
    compiles on the first call instead, and ``f.lower(*args).compile()`` ahead of time;
    the environment variable ``FUNCGRAD_JIT_WAIT=1`` makes ``wait=True`` the default.

    Composes with every transform: ``jit(grad(f))`` compiles the forward and backward
    passes together; ``grad(jit(f))``, ``vmap(jit(f))``, ``jvp`` and ``hessian`` of a
    jitted function run compiled derivative code.  Python control flow on traced values
    raises a :class:`~funcgrad.ConcretizationError` naming the line: mark such arguments
    static (``static_argnums``/``static_argnames``) or use ``fg.lax.cond``,
    ``fg.lax.fori_loop`` and ``fg.lax.while_loop``.  ``jit(f).lower(*args).as_text()``
    shows the generated code.  Usable as a decorator, with or without arguments.

    >>> import numpy as np, funcgrad as fg
    >>> @fg.jit
    ... def f(x):
    ...     return np.sum(x ** 3)
    >>> fg.jit(fg.grad(f), wait=True)(np.array([1.0, 2.0]))  # one kernel: f and f'
    array([ 3., 12.])
    """
    if fun is None:
        return lambda f: JitFunction(f, static_argnums, static_argnames, wait)
    if not callable(fun):
        raise TypeError(f"jit expects a function, got {type(fun).__name__}")
    return JitFunction(fun, static_argnums, static_argnames, wait)
