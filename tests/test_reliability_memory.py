"""Memory: repeated calls stay flat; nothing outlives a call; escaped tracers are caught.

* **Flat memory.**  Many calls of ``grad`` (and ``hessian``, ``vjp``, ``vmap``, the eager
  ``Tensor.backward`` and ``jit(grad)`` when they exist) on a small function: the memory
  tracemalloc sees and the process's RSS (``/proc/self/statm``) are measured after a
  warm-up and after the calls, and must differ by less than a small bound.
  ``FUNCGRAD_LONG=1`` (``make soak``) runs 100,000 calls; the default a few thousand.
* **Nothing outlives a call** (with the cyclic garbage collector *disabled*, so that only
  reference counting frees anything): after a transform returns, no interpreter, tracer,
  tape node or residual array is alive, and no reference cycle was left for the
  collector.  Residuals are tracked with an ``ndarray`` subclass that supports weak
  references and records every array derived from it (``__array_finalize__``).
* **A vjp_fn holds only its residuals**: its memory is its tape's values, calling it does
  not add to them, and deleting it frees them at once.
* **Escaped tracers**: a traced value kept in a global, a closure or an attribute and used
  after its transform returned raises ``EscapedTracerError`` naming the transform.

Workloads are entries of :data:`WORKLOADS`; ``Tensor`` and ``jit`` entries join when
``fg.Tensor`` / ``fg.jit`` exist.
"""
import gc
import os
import tracemalloc
import weakref

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import core

from long_runs import LONG, figure  # noqa: E402

pytestmark = pytest.mark.timeout(7200 if LONG else 300)


# --- the functions ---------------------------------------------------------------------------

W = np.random.default_rng(0).standard_normal((5, 4))
X = np.linspace(-1.0, 1.0, 5)


def f(x):
    """Elementwise, matmul and reductions (including one whose VJP reads its output)."""
    y = np.sin(0.3 * x)
    return np.sum(np.tanh(y @ W) ** 2) + 0.5 * np.sum(x * x) + np.max(y) + np.sum(np.exp(-x))


def _tensor_backward(x=X):
    t = fg.Tensor(x, requires_grad=True)
    f(t).backward()
    return t.grad


def _vjp(x=X):
    out, vjp_fn = fg.vjp(f, x)
    return vjp_fn(1.0)


@fg.custom_vjp
def _clipped_square(x):
    return x * x


_clipped_square.defvjp(lambda x: (x * x, x), lambda x, g: (np.clip(2.0 * x, -1.0, 1.0) * g,))


_JIT = {}


def _jitted(name, make):
    if name not in _JIT:
        _JIT[name] = make()
    return _JIT[name]


class Workload:
    """A call to repeat, with its call counts: ``ci`` (make test) and ``long`` (make soak)."""

    def __init__(self, name, call, ci, long=100_000, flat=True):
        self.name, self.call, self.ci, self.long, self.flat = name, call, ci, long, flat

    @property
    def calls(self):
        return self.long if LONG else self.ci

    def __repr__(self):
        return self.name


WORKLOADS = [
    Workload("grad", lambda x=X: fg.grad(f)(x), ci=2000),
    Workload("value_and_grad", lambda x=X: fg.value_and_grad(f)(x), ci=500, long=20_000),
    Workload("vjp", _vjp, ci=1000, long=20_000),
    Workload("jvp", lambda x=X: fg.jvp(f, (x,), (np.ones_like(x),)), ci=1000, long=20_000),
    Workload("vmap_grad", lambda x=X: fg.vmap(fg.grad(f))(np.stack([x, -x])), ci=500,
             long=20_000),
    Workload("hessian", lambda x=X: fg.hessian(f)(x), ci=300),
    Workload("jacrev", lambda x=X: fg.jacrev(lambda v: np.sin(v) * v)(x), ci=300, long=20_000,
             flat=False),
    Workload("linearize", lambda x=X: fg.linearize(f, x)[1](np.ones_like(x)), ci=300,
             long=20_000, flat=False),
    Workload("make_graph", lambda x=X: fg.make_graph(f)(x)(x), ci=300, long=20_000, flat=False),
    Workload("checkpoint", lambda x=X: fg.grad(fg.checkpoint(f))(x), ci=300, long=20_000,
             flat=False),
    Workload("custom_vjp", lambda x=X: fg.grad(lambda v: np.sum(_clipped_square(v)))(x),
             ci=300, long=20_000, flat=False),
    Workload("grad_under_hooks", lambda x=X: _with(fg.graph.saved_tensors_hooks(
        lambda v: v, lambda v: v), lambda: fg.grad(f)(x)), ci=300, long=20_000, flat=False),
    Workload("grad_under_anomaly", lambda x=X: _with(fg.detect_anomaly(),
                                                     lambda: fg.grad(f)(x)),
             ci=200, long=20_000, flat=False),
]
if hasattr(fg, "Tensor"):
    WORKLOADS.append(Workload("tensor_backward", _tensor_backward, ci=2000))
if hasattr(fg, "jit"):
    WORKLOADS += [
        Workload("jit", lambda x=X: _jitted("f", lambda: fg.jit(f))(x), ci=2000, long=100_000),
        Workload("jit_grad", lambda x=X: _jitted("grad", lambda: fg.jit(fg.grad(f)))(x),
                 ci=2000),
    ]


@pytest.fixture(scope="module", autouse=True)
def earlier_objects_frozen():
    """Objects made before this module move to the collector's permanent generation while
    it runs: ``gc.collect`` and ``gc.get_objects``, which its checks call often, then walk
    only what these tests make (in a full run the heap holds every earlier module's
    objects, and each check took seconds).  Counts are taken before and after a call, so
    objects that were already there never counted."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


def _with(ctx, fn):
    with ctx:
        return fn()


def _rss():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


# --- flat memory -------------------------------------------------------------------------------

@pytest.mark.parametrize("workload", [w for w in WORKLOADS if w.flat], ids=repr)
def test_memory_stays_flat(workload):
    call, n = workload.call, workload.calls
    for _ in range(100):  # compile kernels, fill caches
        call()
    # Traced from here on.  Interpreter-level caches and free lists settle into traced
    # blocks over the first calls, a bounded, front-loaded drift of some tens of KB; a leak
    # grows with every call.  So the calls run in two halves: the second half must not
    # grow (beyond a small bound), and the whole run must stay under a larger one.
    tracemalloc.start()
    try:
        for _ in range(min(1000, n)):
            call()
        gc.collect()
        traced_before, rss_before = tracemalloc.get_traced_memory()[0], _rss()
        for _ in range(n // 2):
            call()
        gc.collect()
        traced_mid = tracemalloc.get_traced_memory()[0]
        for _ in range(n - n // 2):
            call()
        gc.collect()
        traced_after, rss_after = tracemalloc.get_traced_memory()[0], _rss()
    finally:
        tracemalloc.stop()
    second_half = traced_after - traced_mid
    traced, rss = traced_after - traced_before, rss_after - rss_before
    figure("memory", workload=workload.name, calls=n, traced_before=traced_before,
            traced_after=traced_after, rss_before=rss_before, rss_after=rss_after)
    # a leak of one small object (a tracer, a tape entry: >= 48 bytes) per call exceeds these
    assert second_half < 24 * 1024 + n // 2, (
        f"{workload.name}: tracemalloc grew by {second_half} bytes over the last {n - n // 2} "
        f"calls ({second_half / (n - n // 2):.1f} bytes per call)")
    assert traced < 128 * 1024 + 2 * n, (
        f"{workload.name}: tracemalloc grew by {traced} bytes over {n} calls")
    assert rss < (16 if LONG else 8) * 2**20, (
        f"{workload.name}: RSS grew by {rss / 2**20:.1f} MiB over {n} calls")


# --- nothing outlives a call ---------------------------------------------------------------------

class Tracked(np.ndarray):
    """An ndarray that supports weak references and registers every array made from it
    (NumPy calls ``__array_finalize__`` for results of ufuncs, views and copies)."""

    registry = []

    def __array_finalize__(self, obj):
        Tracked.registry.append(weakref.ref(self))


def tracked(a):
    return np.asarray(a, dtype=float).view(Tracked)


def _tracer_types():
    return tuple(c for c in core._special_classes if isinstance(c, type)
                 and issubclass(c, core.Tracer))


def _count_live(types):
    n = 0
    for o in gc.get_objects():
        try:
            n += isinstance(o, types)
        except ReferenceError:  # a weakref.proxy left by an earlier test, its referent gone
            pass
    return n


@pytest.fixture
def no_gc(monkeypatch):
    """Cyclic GC off (only reference counting frees); record every interpreter made."""
    made = []
    original = core.Interpreter.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        made.append(weakref.ref(self))

    monkeypatch.setattr(core.Interpreter, "__init__", init)
    gc.collect()
    gc.disable()
    Tracked.registry.clear()
    try:
        yield made
    finally:
        gc.enable()
        Tracked.registry.clear()
        gc.collect()


def _is_ours(o):
    """Objects funcgrad makes (interpreters, tracers, nodes, Tensors) and arrays."""
    return isinstance(o, np.ndarray) or type(o).__module__.startswith("funcgrad")


def _garbage_report():
    """Collect; returns (number of funcgrad objects and arrays that were only freed by the
    cyclic collector, their types).  Cycles of the test machinery (frames, tracebacks)
    are not counted."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        kinds = {}
        for o in gc.garbage:
            if _is_ours(o):
                kinds[type(o).__name__] = kinds.get(type(o).__name__, 0) + 1
    finally:
        gc.garbage.clear()
        gc.set_debug(0)
    gc.collect()  # DEBUG_SAVEALL kept the cycles alive in gc.garbage: free them for real
    return sum(kinds.values()), kinds


def _assert_nothing_alive(what, made, tracers_before):
    alive = [r() for r in made if r() is not None]
    assert not alive, f"{what}: interpreters still alive after the call: {alive}"
    arrays = [r() for r in Tracked.registry if r() is not None]
    assert not arrays, (f"{what}: {len(arrays)} residual arrays still alive after the call: "
                        f"{[a.shape for a in arrays][:5]}")
    tracers = _count_live(_tracer_types())
    assert tracers == tracers_before, f"{what}: {tracers - tracers_before} tracers still alive"


@pytest.mark.parametrize("workload", WORKLOADS, ids=repr)
def test_no_reference_cycles_after_a_call(workload, no_gc):
    """With the collector off, a call leaves no cyclic garbage behind, and no tracer,
    interpreter or residual array survives once its result is dropped."""
    workload.call(tracked(X))  # warm: kernels, jit compilation, caches
    _garbage_report()
    Tracked.registry.clear()
    del no_gc[:]
    tracers_before = _count_live(_tracer_types())
    result = workload.call(tracked(X))
    del result
    _assert_nothing_alive(workload.name, no_gc, tracers_before)
    n, kinds = _garbage_report()
    assert n == 0, (f"{workload.name}: one call left {n} objects in reference cycles, freed "
                    f"only by the cyclic garbage collector: {kinds}")


def _raising(x):
    y = np.sin(x) * x
    fnp.sum(y)
    raise ValueError("raised inside the transformed function")


@pytest.mark.parametrize("transform", [
    "grad", "vjp", "jvp", "vmap", "make_graph", "hessian",
])
def test_no_cycles_after_the_function_raises(transform, no_gc):
    """A function that raises half-way: once the exception is handled, the tape, its
    tracers and residuals are freed by reference counting (no interpreter/tape cycle)."""
    x = tracked(X)
    run = {
        "grad": lambda: fg.grad(_raising)(x),
        "vjp": lambda: fg.vjp(_raising, x),
        "jvp": lambda: fg.jvp(_raising, (x,), (np.ones(5),)),
        "vmap": lambda: fg.vmap(_raising)(np.stack([x, x]).view(Tracked)),
        "make_graph": lambda: fg.make_graph(_raising)(x),
        "hessian": lambda: fg.hessian(_raising)(x),
    }[transform]
    _garbage_report()
    tracers_before = _count_live(_tracer_types())
    try:
        run()
    except ValueError as e:  # not pytest.raises: its ExceptionInfo would keep the frames
        assert "raised inside" in str(e)
    else:
        raise AssertionError("the function's exception did not propagate")
    del x
    _assert_nothing_alive(f"{transform} raising", no_gc, tracers_before)
    n, kinds = _garbage_report()
    assert n == 0, f"{transform}: the failed call left {n} objects in cycles: {kinds}"


def test_tensor_graph_freed_without_gc(no_gc):
    """Eager tape: once the loss and leaves are dropped, every Node and Tensor is freed by
    reference counting -- including before any backward pass (forward only)."""
    if not hasattr(fg, "Tensor"):
        pytest.skip("fg.Tensor is not in the tree")  # pragma: no cover
    from funcgrad.eager import Node, Tensor
    _tensor_backward()
    _garbage_report()
    alive_before = _count_live((Node, Tensor))
    x = fg.Tensor(tracked(X), requires_grad=True)
    nodes = []
    loss = f(x)
    fn = loss.grad_fn
    nodes.append(weakref.ref(fn))
    del fn, loss  # forward only: no backward
    leaf = weakref.ref(x)
    del x
    assert leaf() is None, "the leaf Tensor outlived its last reference (a reference cycle)"
    assert all(r() is None for r in nodes), "a graph node outlived the loss"
    assert _count_live((Node, Tensor)) == alive_before
    n, kinds = _garbage_report()
    assert n == 0, f"a forward pass on Tensors left {n} objects in cycles: {kinds}"


def _chain_loss(x, weights):
    h = x
    for w in weights:
        h = fg.tanh(h @ w)
    return h.sum()


def test_tensor_backward_frees_saved_values_as_it_goes():
    """A chain of layers with a weight each (the values each layer saves as big as its
    weight's gradient): the walk frees each node's saved values at its turn, as
    PyTorch's does, so the gradients it adds take the place of values it freed and the
    traced peak hardly rises above its start (freed only after the walk, it rose by
    every weight's gradient).  When backward returns nothing saved is left, though the
    loss, hence the graph, is still referenced."""
    if not hasattr(fg, "Tensor"):
        pytest.skip("fg.Tensor is not in the tree")  # pragma: no cover
    layers, n, d = 40, 100, 100
    rng = np.random.default_rng(0)
    x = fg.Tensor(rng.standard_normal((n, d)))
    weights = [fg.Tensor(rng.standard_normal((d, d)) / d, requires_grad=True)
               for _ in range(layers)]
    _chain_loss(x, weights).backward()  # warm-up: kernels, caches
    for w in weights:
        w.grad = None
    gradient_bytes = layers * d * d * 8
    saved_bytes = layers * 2 * n * d * 8  # each layer's product and tanh: 6.4 MB
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        loss = _chain_loss(x, weights)
        start = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        loss.backward()
        after, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert start - before >= saved_bytes, "the forward pass saved less than expected"
    assert peak - start < gradient_bytes / 2, (
        f"the backward pass rose {peak - start} bytes above its start: its saved values "
        f"were not freed as it went ({gradient_bytes} bytes of gradients arrived)")
    assert after - before < gradient_bytes + saved_bytes / 4, (
        f"{after - before - gradient_bytes} bytes beyond the gradients outlived the "
        f"backward pass while the graph is referenced: saved values were kept")
    assert loss.grad_fn is not None


# --- a vjp_fn holds only its residuals -----------------------------------------------------------

N_BIG = 200_000


def _big_f(x):
    return np.sum(np.sin(x) * 2.0)


def test_vjp_fn_holds_only_its_residuals(no_gc):
    x = np.linspace(0.0, 1.0, N_BIG)
    nbytes = x.nbytes
    vjp_fn = None
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        out, vjp_fn = fg.vjp(_big_f, tracked(x))
        held = tracemalloc.get_traced_memory()[0] - base
        g1 = vjp_fn(1.0)[0]
        del g1
        g2 = vjp_fn(1.0)[0]
        del g2
        after_calls = tracemalloc.get_traced_memory()[0] - base
        interp = [r() for r in no_gc if r() is not None]
        del vjp_fn, out, interp
        freed = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    # sin(x) and sin(x) * 2 are kept (the tape's values) -- at most a few arrays
    assert held <= 4 * nbytes + 64 * 1024, f"vjp_fn holds {held / nbytes:.1f}x the input size"
    assert after_calls <= held + 16 * 1024, (
        f"calling vjp_fn twice kept {after_calls - held} more bytes")
    assert freed <= 16 * 1024, f"deleting vjp_fn left {freed} bytes (gc disabled)"
    assert not [r for r in Tracked.registry if r() is not None]
    assert all(r() is None for r in no_gc)


# --- escaped tracers -----------------------------------------------------------------------------

LEAKED = []  # a global a careless function stores traced values in


class Holder:
    value = None


def _leak_global(x):
    LEAKED.append(x * 2.0)
    return np.sum(x * x)


def _leaky_closure():
    box = {}

    def fn(x):
        box["v"] = np.sin(x)
        return np.sum(x * x)
    return fn, box


TRANSFORMS = {
    "grad": (lambda fn: fg.grad(fn)(np.ones(3)), "grad"),
    "vjp": (lambda fn: fg.vjp(fn, np.ones(3)), "grad/vjp"),
    "value_and_grad": (lambda fn: fg.value_and_grad(fn)(np.ones(3)), "grad"),
    "jvp": (lambda fn: fg.jvp(fn, (np.ones(3),), (np.ones(3),)), "jvp"),
    "vmap": (lambda fn: fg.vmap(fn)(np.ones((2, 3))), "vmap"),
    "make_graph": (lambda fn: fg.make_graph(fn)(np.ones(3)), "make_graph"),
    "hessian": (lambda fn: fg.hessian(fn)(np.ones(3)), "grad"),
    "jacfwd": (lambda fn: fg.jacfwd(fn)(np.ones(3)), "jvp"),
    "linearize": (lambda fn: fg.linearize(fn, np.ones(3)), "jvp"),
    "checkpoint": (lambda fn: fg.grad(fg.checkpoint(fn))(np.ones(3)), "grad"),
}
if hasattr(fg, "jit"):
    TRANSFORMS["jit"] = (lambda fn: fg.jit(fn)(np.ones(3)), "jit")

USES = {
    "add": lambda t: t + 1.0,
    "radd": lambda t: 1.0 + t,
    "numpy_ufunc": lambda t: np.sin(t),
    "numpy_function": lambda t: np.sum(t),
    "fnp": lambda t: fnp.exp(t),
    "float": lambda t: float(np.sum(t)),
    "index": lambda t: t[0],
    "at_set": lambda t: t.at[0].set(1.0),
    "asarray": lambda t: np.asarray(t),
    "bool": lambda t: bool(t[0] > 0),
    "matmul": lambda t: t @ np.ones(3),
    "inside_grad": lambda t: fg.grad(lambda y: np.sum(y * t))(np.ones(3)),
    "inside_vmap": lambda t: fg.vmap(lambda y: y * t)(np.ones((2, 3))),
    "inside_jvp": lambda t: fg.jvp(lambda y: y * t, (np.ones(3),), (np.ones(3),)),
}


def _escaped(store, transform):
    run, _ = TRANSFORMS[transform]
    if store == "global":
        LEAKED.clear()
        run(_leak_global)
        return LEAKED.pop()
    if store == "closure":
        fn, box = _leaky_closure()
        run(fn)
        return box["v"]
    holder = Holder()

    def fn(x):
        holder.value = x[0] * x
        return np.sum(x * x)
    run(fn)
    return holder.value


# every transform with every use; the place the value was kept in rotates through
# a global, a closure and an object attribute
_CASES = [(["global", "closure", "attribute"][i % 3], t, u)
          for i, (t, u) in enumerate((t, u) for t in sorted(TRANSFORMS) for u in sorted(USES))]


@pytest.mark.parametrize("store,transform,use", _CASES)
def test_escaped_tracer_raises_naming_the_transform(store, transform, use):
    leaked = _escaped(store, transform)
    assert isinstance(leaked, core.Tracer)
    with pytest.raises(fg.EscapedTracerError) as info, np.errstate(all="ignore"):
        USES[use](leaked)
    message = str(info.value)
    assert TRANSFORMS[transform][1] in message, message
    assert "after the transform" in message and "Return it" in message, message
