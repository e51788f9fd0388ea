"""Transformed functions travel between processes, and funcgrad.dask's gradients over
dask arrays equal the single-process ones, on a real LocalCluster of worker processes.

The cluster (2 worker processes, 1 thread each) starts once for the module; every test
that uses it is bounded by pytest-timeout.  Functions of this module reach the workers
by value (cloudpickle), as a script's or a notebook's would: the workers cannot import
the test module.
"""
import pickle
import sys

import cloudpickle
import dask
import dask.array as da
import dask.callbacks
import distributed
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.dask as fgd

cloudpickle.register_pickle_by_value(sys.modules[__name__])

RTOL = 1e-12


# --- functions the tests ship -------------------------------------------------------------

def cubic_sum(x):
    return np.sum(x ** 3)


def mlp_loss(params, x, y):
    """A sum over rows: squared error of a one-hidden-layer network."""
    hidden = np.tanh(x @ params["W"] + params["b"])
    return np.sum((hidden @ params["v"] - y) ** 2)


def mlp_example_loss(params, x, y):
    """The loss of one example (x a row, y a number)."""
    hidden = np.tanh(x @ params["W"] + params["b"])
    return (hidden @ params["v"] - y) ** 2


def _note_trace():
    """Count, on the worker running it, one more trace of a function."""
    try:
        worker = distributed.get_worker()
    except ValueError:  # (not on a worker)
        return
    worker.funcgrad_test_traces = getattr(worker, "funcgrad_test_traces", 0) + 1


def counted_loss(w, x):
    _note_trace()  # Python runs this only while jit traces the function
    return np.sum(np.tanh(x @ w))


def _data(rows=3000, features=4, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((rows, features))
    y = np.sin(x @ np.linspace(-1.0, 1.0, features))
    params = {"W": rng.standard_normal((features, 3)) / 2, "b": rng.standard_normal(3),
              "v": rng.standard_normal(3)}
    return params, x, y


def _assert_tree_close(got, want):
    got_leaves, got_tree = fg.tree.flatten(got)
    want_leaves, want_tree = fg.tree.flatten(want)
    assert got_tree == want_tree
    for g, w in zip(got_leaves, want_leaves):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=0)


# --- pickling -------------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda: fg.grad(cubic_sum), lambda: fg.value_and_grad(cubic_sum),
    lambda: fg.vmap(cubic_sum), lambda: fg.jit(cubic_sum),
    lambda: fg.jit(fg.grad(cubic_sum)), lambda: fg.vmap(fg.grad(cubic_sum)),
    lambda: fg.jacrev(fg.grad(cubic_sum)), lambda: fg.hessian(cubic_sum),
    lambda: fg.elementwise_grad(np.tanh), lambda: fg.grad(fg.jit(cubic_sum)),
], ids=["grad", "value_and_grad", "vmap", "jit", "jit_grad", "vmap_grad", "jacrev_grad",
        "hessian", "elementwise_grad", "grad_jit"])
def test_transformed_importable_functions_pickle_with_plain_pickle(make):
    x = np.array([[1.0, -2.0], [0.5, 3.0]])
    fun = make()
    copy = pickle.loads(pickle.dumps(fun))
    assert type(copy) is type(fun)
    got, want = copy(x), fun(x)
    for g, w in zip(fg.tree.leaves(got), fg.tree.leaves(want)):
        np.testing.assert_array_equal(g, w)


def test_transformed_lambdas_and_closures_pickle_with_cloudpickle():
    scale = np.array([2.0, 3.0])
    funs = [fg.grad(lambda x: np.sum(scale * x ** 2)),
            fg.jit(fg.grad(lambda x: np.sum(scale * x ** 3))),
            fg.vmap(fg.grad(lambda w, x: np.sum(np.tanh(x * w))), in_axes=(None, 0))]
    x = np.array([0.3, -0.7])
    for fun in funs[:2]:
        np.testing.assert_array_equal(cloudpickle.loads(cloudpickle.dumps(fun))(x), fun(x))
    xs = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(cloudpickle.loads(cloudpickle.dumps(funs[2]))(x, xs),
                                  funs[2](x, xs))


def test_transformed_function_keeps_its_name_signature_and_method_binding():
    def loss(w, x=1.0):
        """The loss."""
        return np.sum(w * x)

    g = fg.grad(loss)
    assert g.__name__ == "loss" and g.__doc__ == "The loss." and g.__wrapped__ is loss
    import inspect
    assert list(inspect.signature(g).parameters) == ["w", "x"]

    class Model:
        def __init__(self, k):
            self.k = k
        slope = fg.grad(lambda self, x: self.k * x ** 2, argnums=1)

    assert Model(3.0).slope(2.0) == 12.0


def weighted_sum(weights):
    """A jitted function closing over an array (one compiled form for every test here:
    jit passes the array to its kernel, so changed values share the compiled code)."""
    return fg.jit(lambda x: np.sum(weights * x))


def test_pickled_jit_function_carries_no_compiled_state():
    fun = weighted_sum(np.array([1.0, 2.0, 3.0]))
    before = cloudpickle.dumps(fun)
    assert fun(np.ones(3)) == 6.0  # traces and compiles
    assert cloudpickle.dumps(fun) == before


def test_a_process_rebuilds_one_jit_function_per_recipe():
    fun = weighted_sum(np.array([1.0, 2.0, 3.0]))
    first = cloudpickle.loads(cloudpickle.dumps(fun))
    again = cloudpickle.loads(cloudpickle.dumps(fun))
    assert first is again and first is not fun  # one set of caches for every copy
    assert first(np.ones(3)) == 6.0


def test_a_jit_function_passed_on_keeps_its_identity():
    """Worker to worker: a rebuilt function travels on with the key it came with (a
    function shipped by value that calls another pickles, once rebuilt, to other bytes:
    its names are other string objects, so pickle's memo differs)."""
    first = cloudpickle.loads(cloudpickle.dumps(fg.jit(counted_loss)))
    assert cloudpickle.loads(cloudpickle.dumps(first)) is first


def test_a_changed_closure_array_gives_a_new_jit_function_not_stale_code():
    weights = np.array([1.0, 2.0, 3.0])
    fun = weighted_sum(weights)
    old = cloudpickle.loads(cloudpickle.dumps(fun))
    assert old(np.ones(3)) == 6.0
    weights[:] = [2.0, 3.0, 4.0]
    new = cloudpickle.loads(cloudpickle.dumps(fun))
    assert new is not old and new(np.ones(3)) == 9.0 and old(np.ones(3)) == 6.0


# --- bad input ------------------------------------------------------------------------------

def test_bad_inputs_raise_errors_naming_the_fix():
    x = da.ones((10, 2), chunks=(5, 2))
    loss = lambda w, x: np.sum(x @ w)  # noqa: E731
    with pytest.raises(TypeError, match="not a dask array.*from_array"):
        fgd.grad_sum(loss, np.ones(2), np.ones((10, 2)))
    with pytest.raises(TypeError, match="parameter leaf 0 has dtype int64"):
        fgd.grad_sum(loss, np.ones(2, dtype=np.int64), x)
    with pytest.raises(ValueError, match="has 9 rows but data argument 0 has 10"):
        fgd.grad_sum(lambda w, x, y: np.sum(x @ w), np.ones(2), x, da.ones(9, chunks=3))
    with pytest.raises(TypeError, match="no data given"):
        fgd.grad_sum(loss, np.ones(2))
    with pytest.raises(TypeError, match="only for scalar outputs"):
        with dask.config.set(scheduler="sync"):
            fgd.grad_sum(lambda w, x: x @ w, np.ones(2), x)


def test_threaded_scheduler_gives_the_single_process_gradient():
    params, x, y = _data(rows=500)
    want = fg.value_and_grad(mlp_loss)(params, x, y)
    with dask.config.set(scheduler="threads"):
        got = fgd.value_and_grad_sum(mlp_loss, params, da.from_array(x, chunks=(120, 4)),
                                     da.from_array(y, chunks=90))
    np.testing.assert_allclose(got[0], want[0], rtol=RTOL)
    _assert_tree_close(got[1], want[1])


def test_data_split_along_other_axes_give_whole_rows_to_the_loss():
    # 3-D data chunked along every axis, beside 1-D labels: each block the loss sees
    # holds whole rows (the other axes in one piece), whatever the user's chunks.
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((30, 3, 2)), rng.standard_normal(30)
    w = np.array([[0.5, -1.0], [0.25, 2.0], [1.5, 0.0]])

    def loss(w, x, y):
        assert x.shape[1:] == (3, 2) and x.shape[0] == y.shape[0]
        return np.sum((np.sum(x * w, axis=(1, 2)) - y) ** 2)

    want_value, want_grad = fg.value_and_grad(loss)(w, x, y)
    xs, ys = da.from_array(x, chunks=(8, 2, 1)), da.from_array(y, chunks=11)
    with dask.config.set(scheduler="threads"):
        value, g = fgd.value_and_grad_sum(loss, w, xs, ys)
        per = fgd.per_example_grads(lambda w, x, y: loss(w, x[None], y[None]), w, xs, ys)
    np.testing.assert_allclose(value, want_value, rtol=RTOL)
    np.testing.assert_allclose(g, want_grad, rtol=RTOL)
    np.testing.assert_allclose(per.compute().sum(axis=0), want_grad, rtol=RTOL)


def test_float32_parameters_keep_their_dtype():
    x = da.from_array(np.linspace(-1.0, 1.0, 40).reshape(20, 2), chunks=(7, 2))
    w = np.array([0.5, -0.25], dtype=np.float32)
    with dask.config.set(scheduler="sync"):
        g = fgd.grad_sum(lambda w, x: np.sum(np.tanh(x @ w)), w, x)
        per = fgd.per_example_grads(lambda w, x: np.tanh(x @ w), w, x)
    assert g.dtype == np.float32 and per.dtype == np.float32 and per.shape == (20, 2)


def test_the_sum_adds_block_rows_with_a_task_per_split_every_rows():
    # One task per block's value and gradient, then one per split_every partial sums
    # (20 blocks, 4 at a time: 5 + 2 + 1), not Dask's reduction with a task per block more.
    x = da.from_array(np.linspace(-1.0, 1.0, 40).reshape(20, 2), chunks=(1, 2))
    w = np.array([0.5, -1.0])
    ran = []

    class Count(dask.callbacks.Callback):
        def _pretask(self, key, dsk, state):
            ran.append(key)

    with dask.config.set(scheduler="sync"), Count():
        g = fgd.grad_sum(lambda w, x: np.sum(np.tanh(x @ w)), w, x, split_every=np.int64(4))
    np.testing.assert_allclose(g, fg.grad(lambda w: np.sum(np.tanh(x.compute() @ w)))(w),
                               rtol=RTOL)
    assert len([k for k in ran if not (isinstance(k, tuple) and k[0] == x.name)]) == 28
    with pytest.raises(ValueError, match="split_every=1; give an integer >= 2"):
        fgd.grad_sum(lambda w, x: np.sum(x @ w), w, x, split_every=1)


# --- on a LocalCluster ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client():
    with dask.config.set(fgd.WORKER_CONFIG):
        cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                           dashboard_address=None, death_timeout=60)
    client = distributed.Client(cluster, timeout=60)
    try:
        client.wait_for_workers(2, timeout=60)
        yield client
    finally:
        client.close(timeout=30)
        cluster.close(timeout=30)


@pytest.mark.timeout(150)
def test_distributed_gradient_equals_the_single_process_one(client):
    params, x, y = _data()
    want_value, want_grad = fg.value_and_grad(mlp_loss)(params, x, y)
    xs, ys = da.from_array(x, chunks=(700, 4)), da.from_array(y, chunks=700)
    value, g = fgd.value_and_grad_sum(mlp_loss, params, xs, ys, split_every=2)
    np.testing.assert_allclose(value, want_value, rtol=RTOL)
    _assert_tree_close(g, want_grad)
    ran = client.run(lambda: "funcgrad" in sys.modules)  # the workers computed it
    assert len(ran) == 2 and all(ran.values())


def _worker_settings():
    import os
    import dask
    return (os.environ.get("MALLOC_ARENA_MAX"), "MALLOC_TRIM_THRESHOLD_" in os.environ,
            dask.config.get("distributed.worker.profile.enabled"))


def test_worker_config_reaches_the_worker_processes(client):
    # funcgrad's allocator setting and no stack-sampling profiler, in each worker
    assert set(client.run(_worker_settings).values()) == {("1", False, False)}


def _rows_loss(params, xy):
    """mlp_loss on data and labels kept in one array (persisted together)."""
    return mlp_loss(params, xy[:, :4], xy[:, 4])


def _persisted_rows(rows, seed):
    params, x, y = _data(rows=rows, seed=seed)
    want = fg.value_and_grad(mlp_loss)(params, x, y)
    xy = da.from_array(np.concatenate([x, y[:, None]], axis=1), chunks=(300, 5)).persist()
    distributed.wait(xy)
    return params, xy, want


@pytest.mark.timeout(150)
def test_persisted_data_are_summed_where_they_live_without_tasks(client):
    params, xy, (want_value, want_grad) = _persisted_rows(2400, seed=4)
    with distributed.get_task_stream() as stream:
        value, g = fgd.value_and_grad_sum(fg.jit(_rows_loss), params, xy)
    np.testing.assert_allclose(value, want_value, rtol=RTOL)
    _assert_tree_close(g, want_grad)
    assert stream.data == []  # (Client.run on each worker holding blocks: no task)


@pytest.mark.timeout(150)
def test_persisted_arrays_held_apart_are_summed_by_a_task_per_worker(client):
    params, x, y = _data(rows=2400, seed=4)
    want_value, want_grad = fg.value_and_grad(mlp_loss)(params, x, y)
    xs = da.from_array(x, chunks=(300, 4)).persist()
    ys = da.from_array(y, chunks=300).persist()
    distributed.wait([xs, ys])
    with distributed.get_task_stream() as stream:
        value, g = fgd.value_and_grad_sum(mlp_loss, params, xs, ys)
    np.testing.assert_allclose(value, want_value, rtol=RTOL)
    _assert_tree_close(g, want_grad)
    together = all(fgd._placements[client][k][1] for k in fgd._placements[client]
                   if k[0][0][0] == xs.name)
    assert len(stream.data) == (0 if together else 2), stream.data


@pytest.mark.timeout(150)
def test_blocks_moved_since_their_placement_was_asked_are_still_summed(client):
    params, xy, (want_value, want_grad) = _persisted_rows(1200, seed=5)
    fgd.value_and_grad_sum(_rows_loss, params, xy)  # remembers where the blocks live
    known = fgd._placements[client]
    name, = [k for k in known if k[0][0][0] == xy.name]
    placement, together = known[name]
    workers = sorted(set(placement))
    assert together and len(workers) == 2  # (swapping them misplaces every block)
    known[name] = ([workers[1] if w == workers[0] else workers[0] for w in placement], True)
    with distributed.get_task_stream() as stream:
        value, g = fgd.value_and_grad_sum(_rows_loss, params, xy)
    np.testing.assert_allclose(value, want_value, rtol=RTOL)
    _assert_tree_close(g, want_grad)
    assert len(stream.data) == 2  # the fallback: one task per worker, fetching blocks
    assert client not in fgd._placements  # and the stale placement is forgotten


@pytest.mark.timeout(150)
def test_distributed_per_example_gradients_equal_vmap_of_grad(client):
    params, x, y = _data(rows=600)
    want = fg.vmap(fg.grad(mlp_example_loss), in_axes=(None, 0, 0))(params, x, y)
    got = fgd.per_example_grads(mlp_example_loss, params, da.from_array(x, chunks=(250, 4)),
                                da.from_array(y, chunks=250))
    assert got["W"].chunks[0] == (250, 250, 100)
    computed = dask.compute(got)[0]
    _assert_tree_close(computed, want)


@pytest.mark.timeout(150)
def test_jitted_loss_traces_once_per_worker_across_calls(client):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4000, 3))
    w = np.array([0.1, -0.2, 0.3])
    xs = da.from_array(x, chunks=(500, 3))  # 8 equal blocks: one signature
    loss = fg.jit(counted_loss)
    # Compiled here first (as a user's first local call would), the block signature's
    # kernels reach the workers through the disk cache: they load, not compile.
    fg.grad(loss)(w, x[:500])
    client.run(lambda dask_worker: setattr(dask_worker, "funcgrad_test_traces", 0))
    for step in range(3):  # each call ships the function to the workers again
        g = fgd.grad_sum(loss, w, xs)
        np.testing.assert_allclose(g, fg.grad(counted_loss)(w, x), rtol=RTOL)
        w = w - 1e-4 * g
    traces = client.run(lambda dask_worker: dask_worker.funcgrad_test_traces)
    assert all(n <= 1 for n in traces.values()) and 1 in traces.values(), traces
