"""Gradient modes: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode``
(context managers, decorators, plain call), their effect on reverse mode (a ``no_grad``
block inside ``grad`` acts as ``stop_gradient``), forward mode being unaffected, and
thread-locality (two threads, forced to overlap with barriers).
"""
import threading

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.forward_ad as fwAD
import funcgrad.numpy as fnp

X = np.array([0.3, 1.2, -0.5])


def close(actual, expected, rtol=1e-12, atol=1e-14):
    np.testing.assert_allclose(np.asarray(actual, dtype=np.float64),
                               np.asarray(expected, dtype=np.float64), rtol=rtol, atol=atol)


@pytest.fixture(autouse=True)
def _modes_restored():
    assert fg.is_grad_enabled() and not fg.is_inference_mode_enabled()
    yield
    state = (fg.is_grad_enabled(), fg.is_inference_mode_enabled())
    fg.set_grad_enabled(True)
    assert state == (True, False), "a test left a gradient mode behind"


# --- the flags -------------------------------------------------------------------------------

def test_context_managers_and_nesting():
    with fg.no_grad():
        assert not fg.is_grad_enabled()
        with fg.enable_grad():
            assert fg.is_grad_enabled()
            with fg.no_grad():
                assert not fg.is_grad_enabled()
            assert fg.is_grad_enabled()
        assert not fg.is_grad_enabled()
    assert fg.is_grad_enabled()
    with fg.set_grad_enabled(False):
        assert not fg.is_grad_enabled()
        with fg.set_grad_enabled(True):
            assert fg.is_grad_enabled()
        assert not fg.is_grad_enabled()
    assert fg.is_grad_enabled()


def test_restored_after_an_exception():
    with pytest.raises(KeyError):
        with fg.no_grad():
            raise KeyError("x")
    assert fg.is_grad_enabled()
    with pytest.raises(KeyError):
        with fg.no_grad(), fg.enable_grad(), fg.inference_mode():
            raise KeyError("x")
    assert fg.is_grad_enabled() and not fg.is_inference_mode_enabled()


def test_one_instance_reused_and_nested():
    ng = fg.no_grad()
    with ng:
        with fg.enable_grad():
            with ng:
                assert not fg.is_grad_enabled()
            assert fg.is_grad_enabled()
        assert not fg.is_grad_enabled()
    assert fg.is_grad_enabled()


def test_decorators():
    @fg.no_grad()
    def called():
        return fg.is_grad_enabled()

    @fg.no_grad
    def bare():
        return fg.is_grad_enabled()

    @fg.enable_grad()
    def enabled():
        return fg.is_grad_enabled()

    @fg.set_grad_enabled(False)
    def disabled():
        return fg.is_grad_enabled()

    assert fg.is_grad_enabled()  # decorating changes nothing by itself
    assert called() is False and bare() is False and disabled() is False
    assert fg.is_grad_enabled()
    with fg.no_grad():
        assert enabled() is True
        assert not fg.is_grad_enabled()
    assert called.__name__ == "called" and bare.__name__ == "bare"


def test_decorated_generator_runs_each_step_in_the_mode():
    @fg.no_grad()
    def steps():
        for _ in range(3):
            received = yield fg.is_grad_enabled()
            assert received in (None, "ping")

    gen = steps()
    assert next(gen) is False
    assert fg.is_grad_enabled()  # between steps, the caller's mode
    assert gen.send("ping") is False
    assert list(gen) == [False]
    assert fg.is_grad_enabled()


def test_set_grad_enabled_as_a_plain_call():
    fg.set_grad_enabled(False)
    try:
        assert not fg.is_grad_enabled()
    finally:
        fg.set_grad_enabled(True)
    assert fg.is_grad_enabled()
    with pytest.raises(TypeError, match="set_grad_enabled\\(mode\\) takes a bool"):
        fg.set_grad_enabled(lambda: None)


def test_inference_mode_flags():
    assert not fg.is_inference_mode_enabled()
    with fg.inference_mode():
        assert not fg.is_grad_enabled() and fg.is_inference_mode_enabled()
        with fg.inference_mode(False):  # as in PyTorch: off, and gradients back on
            assert fg.is_grad_enabled() and not fg.is_inference_mode_enabled()
        assert not fg.is_grad_enabled() and fg.is_inference_mode_enabled()
    assert fg.is_grad_enabled() and not fg.is_inference_mode_enabled()

    @fg.inference_mode
    def bare():
        return fg.is_grad_enabled(), fg.is_inference_mode_enabled()

    @fg.inference_mode()
    def called():
        return fg.is_grad_enabled(), fg.is_inference_mode_enabled()

    assert bare() == (False, True) and called() == (False, True)
    assert fg.is_grad_enabled() and not fg.is_inference_mode_enabled()


# --- effect on reverse mode: a no_grad block is a stop_gradient ------------------------------

def f_no_grad(x):
    with fg.no_grad():
        c = x * x
    return fnp.sum(x * c)


def f_stop_gradient(x):
    return fnp.sum(x * fg.stop_gradient(x * x))


def test_no_grad_block_inside_grad_acts_as_stop_gradient():
    close(fg.grad(f_no_grad)(X), X * X)
    close(fg.grad(f_no_grad)(X), fg.grad(f_stop_gradient)(X))
    _, vjp_fn = fg.vjp(lambda x: x * fg.no_grad()(lambda: x * x)(), X)
    close(vjp_fn(np.ones(3))[0], X * X)
    close(fg.vmap(fg.grad(lambda x: f_no_grad(x)))(X[:, None]), (X * X)[:, None])
    close(fg.jacrev(lambda x: x * fg.no_grad()(lambda: x * x)())(X), np.diag(X * X))


def test_output_computed_entirely_under_no_grad_has_zero_gradient():
    def f(x):
        with fg.no_grad():
            return fnp.sum(fnp.sin(x))

    close(fg.grad(f)(X), np.zeros(3))


def test_enable_grad_inside_no_grad_records_again():
    def f(x):
        with fg.no_grad():
            with fg.enable_grad():
                c = x * x       # recorded
            d = x * x           # not recorded
        return c + d

    assert fg.grad(f)(3.0) == 6.0


def test_set_grad_enabled_inside_grad():
    def f(x):
        fg.set_grad_enabled(False)
        try:
            c = x * x
        finally:
            fg.set_grad_enabled(True)
        return x * c

    assert fg.grad(f)(3.0) == 9.0


def test_inference_mode_inside_grad_acts_as_no_grad():
    def f(x):
        with fg.inference_mode():
            c = x * x
        return x * c

    assert fg.grad(f)(3.0) == 9.0


def test_custom_rules_inside_no_grad_are_constants():
    ck = fg.checkpoint(lambda x: x * x)

    def f(x):
        with fg.no_grad():
            c = ck(x)
        return x * c

    assert fg.grad(f)(3.0) == 9.0


def test_grad_inside_no_grad():
    with fg.no_grad():
        g = fg.grad(np.sin)(1.0)
    assert g == pytest.approx(np.cos(1.0))


# --- forward mode is unaffected -------------------------------------------------------------

def test_forward_mode_unaffected_by_no_grad():
    with fg.no_grad():
        out, tangent = fg.jvp(np.sin, (X,), (np.ones(3),))
        close(tangent, np.cos(X))
        close(fg.jacfwd(np.sin)(X), np.diag(np.cos(X)))
        with fwAD.dual_level():
            y = np.sin(fwAD.make_dual(X, np.ones(3)))
            close(fwAD.unpack_dual(y).tangent, np.cos(X))
    # a no_grad block inside jvp still propagates tangents (as torch's forward AD does)
    _, tangent = fg.jvp(lambda x: fg.no_grad()(np.sin)(x), (X,), (np.ones(3),))
    close(tangent, np.cos(X))


# --- thread-locality -------------------------------------------------------------------------

def _run_threads(*targets):
    errors = []

    def wrap(fn):
        def run():
            try:
                fn()
            except BaseException as e:  # pragma: no cover - reported below
                errors.append(e)
        return run

    threads = [threading.Thread(target=wrap(fn)) for fn in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    if errors:
        raise errors[0]


def test_no_grad_in_one_thread_does_not_affect_grad_in_another():
    inside, computed = threading.Barrier(2, timeout=10), threading.Barrier(2, timeout=10)
    results = {}

    def quiet():
        with fg.no_grad():
            inside.wait()       # the other thread computes while we are in no_grad...
            computed.wait()     # ...and finishes before we leave it
            results["quiet_enabled"] = fg.is_grad_enabled()
        results["quiet_after"] = fg.is_grad_enabled()

    def busy():
        inside.wait()
        results["busy_enabled"] = fg.is_grad_enabled()
        results["busy_grad"] = fg.grad(lambda x: fnp.sum(fnp.sin(x) * x))(X)
        computed.wait()

    _run_threads(quiet, busy)
    assert results["busy_enabled"] is True
    close(results["busy_grad"], np.cos(X) * X + np.sin(X))
    assert results["quiet_enabled"] is False and results["quiet_after"] is True


def test_interleaved_grads_with_and_without_no_grad():
    """Two threads alternate, step by step, between a grad with a no_grad block and one
    without; every step of each is checked."""
    rounds = 30
    barrier = threading.Barrier(2, timeout=10)
    expected_sg = X * X                       # with the no_grad block
    expected_full = 3 * X * X                 # d/dx sum(x * x * x)
    bad = []

    def worker(parity):
        for i in range(rounds):
            barrier.wait()
            if (i + parity) % 2:
                g = fg.grad(f_no_grad)(X)
                ok = np.allclose(g, expected_sg)
            else:
                g = fg.grad(lambda x: fnp.sum(x * x * x))(X)
                ok = np.allclose(g, expected_full)
            if not ok or not fg.is_grad_enabled():
                bad.append((parity, i, g))

    _run_threads(lambda: worker(0), lambda: worker(1))
    assert not bad, bad[:3]


def test_modes_start_enabled_in_a_new_thread():
    seen = []
    with fg.no_grad(), fg.inference_mode():
        t = threading.Thread(target=lambda: seen.append(
            (fg.is_grad_enabled(), fg.is_inference_mode_enabled())))
        t.start()
        t.join()
    assert seen == [(True, False)]


def test_one_no_grad_object_shared_by_two_threads():
    ng = fg.no_grad()
    entered, leave = threading.Barrier(2, timeout=10), threading.Barrier(2, timeout=10)
    seen = []

    def worker():
        with fg.enable_grad():
            with ng:
                entered.wait()
                seen.append(fg.is_grad_enabled())
                leave.wait()
            seen.append(fg.is_grad_enabled())

    _run_threads(worker, worker)
    assert seen.count(False) == 2 and seen.count(True) == 2


def _enable_grad_in_inference(lib):
    x = lib.tensor([1.0], requires_grad=True)
    with lib.inference_mode():
        with lib.enable_grad():
            y = x * 2
            enabled = lib.is_grad_enabled()
        with lib.set_grad_enabled(True):
            z = x * 3
    after = (x * 2).requires_grad
    return enabled, y.requires_grad, y.is_inference(), z.requires_grad, after


def test_enable_grad_inside_inference_mode_records_nothing():
    # grad mode reads as on, but inference_mode still records nothing (it recorded y)
    assert _enable_grad_in_inference(fg) == (True, False, True, False, True)


def test_enable_grad_inside_inference_mode_matches_torch():
    torch = pytest.importorskip("torch")
    assert _enable_grad_in_inference(fg) == _enable_grad_in_inference(torch)
