"""solve_ivp (and odeint) under more transforms: forward mode (``jvp``, ``jacfwd``,
``hessian``) for every method by the sensitivity equations; method='Radau' under ``jit``
and ``vmap`` (its stepping a host callback: the same values as eagerly); a per-component
``atol`` in reverse mode; and the clear errors of what stays out of reach."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.integrate as fsi

TIGHT = dict(rtol=1e-10, atol=1e-12)
METHODS = ["RK45", "RK23", "DOP853", "Radau"]


def _decay(t, y, k):
    return -k * y


def _end(method, **kw):
    def end(k):
        return fsi.solve_ivp(_decay, (0.0, 1.0), np.array([1.0]), method=method, args=(k,),
                             **{**TIGHT, **kw}).y[0, -1]
    return end


@pytest.mark.parametrize("method", METHODS)
def test_forward_mode_through_solve_ivp_is_the_derivative_of_the_solution(method):
    # y = e^(-k t): dy(1)/dk = -e^-k, with t_eval and on the solver's own times
    for end in (_end(method, t_eval=[1.0]), _end(method)):
        out, tangent = fg.jvp(end, (2.0,), (1.0,))
        assert float(out) == pytest.approx(np.exp(-2.0), rel=1e-8)
        assert float(tangent) == pytest.approx(-np.exp(-2.0), rel=1e-7)
        assert float(fg.jacfwd(end)(2.0)) == pytest.approx(-np.exp(-2.0), rel=1e-7)

    # in y0 (two components, two output times), in both ends of t_span and in t_eval
    def from_y0(y0):
        return fsi.solve_ivp(lambda t, y: -2.0 * y, (0.0, 1.0), fnp.stack([y0, 2.0 * y0]),
                             method=method, t_eval=[0.5, 1.0], **TIGHT).y

    np.testing.assert_allclose(fg.jvp(from_y0, (1.0,), (1.0,))[1],
                               [[np.exp(-1.0), np.exp(-2.0)],
                                [2 * np.exp(-1.0), 2 * np.exp(-2.0)]], rtol=1e-7)

    def between(t0, t1, te):
        return fsi.solve_ivp(lambda t, y: -2.0 * y, (t0, t1), np.array([1.0]), method=method,
                             t_eval=fnp.stack([te]), **TIGHT).y[0, 0]

    # y(te) = e^(-2 (te - t0)): d/dt0 = 2 y, d/dt1 = 0, d/dte = -2 y
    y_half = np.exp(-1.0)
    for tangents, want in (((1.0, 0.0, 0.0), 2 * y_half), ((0.0, 1.0, 0.0), 0.0),
                           ((0.0, 0.0, 1.0), -2 * y_half)):
        got = fg.jvp(between, (0.0, 1.0, 0.5), tangents)[1]
        assert float(got) == pytest.approx(want, rel=1e-7, abs=1e-12)


def test_forward_mode_matches_central_differences_on_a_stiff_problem():
    def vdp(t, y, mu):
        return fnp.stack([y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]])

    def ends(mu):
        return fsi.solve_ivp(vdp, (0.0, 2.0), np.array([2.0, 0.0]), method="Radau",
                             args=(mu,), t_eval=[1.0, 2.0], rtol=1e-9, atol=1e-11).y

    h = 1e-3
    central = (np.asarray(ends(100.0 + h)) - np.asarray(ends(100.0 - h))) / (2 * h)
    np.testing.assert_allclose(fg.jvp(ends, (100.0,), (1.0,))[1], central, rtol=1e-5)
    np.testing.assert_allclose(fg.jacfwd(lambda m: ends(m)[0, -1])(100.0),
                               fg.grad(lambda m: ends(m)[0, -1])(100.0), rtol=1e-6)


@pytest.mark.parametrize("method", ["RK45", "DOP853"])
def test_second_derivatives_in_every_mode_combination_for_the_explicit_methods(method):
    end = _end(method, t_eval=[1.0])
    want = np.exp(-2.0)  # d2/dk2 e^-k
    assert float(fg.hessian(end)(2.0)) == pytest.approx(want, rel=1e-6)
    assert float(fg.jacfwd(fg.jacfwd(end))(2.0)) == pytest.approx(want, rel=1e-6)
    assert float(fg.grad(lambda k: fg.jvp(end, (k,), (1.0,))[1])(2.0)) == \
        pytest.approx(want, rel=1e-6)


def test_odeint_has_forward_mode_too():
    def end(k):
        return fsi.odeint(lambda y, t, k: -k * y, np.array([1.0]), np.array([0.0, 1.0]),
                          k, rtol=1e-10, atol=1e-12)[-1, 0]

    assert float(fg.jvp(end, (2.0,), (1.0,))[1]) == pytest.approx(-np.exp(-2.0), rel=1e-7)
    assert float(fg.hessian(end)(2.0)) == pytest.approx(np.exp(-2.0), rel=1e-6)


def test_event_times_and_dense_output_in_forward_mode():
    def half(t, y):
        return y[0] - 0.5

    for method in ("RK45", "Radau"):
        def first(k, method=method):  # e^(-k t) = 1/2 at t = log 2 / k
            return fsi.solve_ivp(lambda t, y: -k * y, (0.0, 5.0), np.array([1.0]),
                                 method=method, events=half, **TIGHT).t_events[0][0]

        def dense(k, method=method):
            return fsi.solve_ivp(lambda t, y: -k * y, (0.0, 1.0), np.array([1.0]),
                                 method=method, dense_output=True, **TIGHT).sol(0.5)[0]

        assert float(fg.jvp(first, (2.0,), (1.0,))[1]) == \
            pytest.approx(-np.log(2.0) / 4.0, rel=1e-7)
        assert float(fg.jvp(dense, (2.0,), (1.0,))[1]) == \
            pytest.approx(-0.5 * np.exp(-1.0), rel=1e-7)


def _vdp(t, y, mu):
    return fnp.stack([y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]])


def _vdp_ends(mu):
    return fsi.solve_ivp(_vdp, (0.0, 2.0), np.array([2.0, 0.0]), method="Radau", args=(mu,),
                         t_eval=[1.0, 2.0], rtol=1e-6, atol=1e-8).y


def test_radau_under_jit_and_vmap_gives_the_eager_values_and_gradients():
    mus = np.array([10.0, 100.0, 1000.0])
    eager = np.stack([np.asarray(_vdp_ends(m)) for m in mus])
    # (the same host computation: equal, not close)
    np.testing.assert_array_equal(fg.vmap(_vdp_ends)(mus), eager)
    np.testing.assert_array_equal(fg.jit(_vdp_ends)(100.0), eager[1])

    def last(m):
        return _vdp_ends(m)[0, -1]

    grads = np.array([float(fg.grad(last)(m)) for m in mus])
    np.testing.assert_array_equal(fg.vmap(fg.grad(last))(mus), grads)
    np.testing.assert_array_equal(fg.jit(fg.grad(last))(100.0), grads[1])
    tangents = np.array([float(fg.jvp(last, (m,), (1.0,))[1]) for m in mus])
    np.testing.assert_array_equal(fg.vmap(lambda m: fg.jvp(last, (m,), (1.0,))[1])(mus),
                                  tangents)

    y0s = np.array([[1.0, 0.0], [2.0, 0.5]])  # batched y0, float32 kept under jit
    np.testing.assert_allclose(fg.vmap(lambda y0: fsi.solve_ivp(
        lambda t, y: -3.0 * y, (0.0, 1.0), y0, method="Radau", t_eval=[1.0],
        **TIGHT).y[:, 0])(y0s), y0s * np.exp(-3.0), rtol=1e-9)
    out = fg.jit(lambda k: fsi.solve_ivp(lambda t, y: -k * y, (0.0, 1.0),
                                         np.array([1.0], np.float32), method="Radau",
                                         t_eval=[1.0]).y)(np.float32(2.0))
    assert out.dtype == np.float32


def test_radau_says_what_stays_out_of_reach_under_jit_and_in_second_order():
    with pytest.raises(TypeError, match="pass t_eval under jit and vmap"):
        fg.jit(_end("Radau"))(2.0)
    with pytest.raises(TypeError, match="events=None"):
        fg.vmap(lambda k: fsi.solve_ivp(_decay, (0.0, 1.0), np.array([1.0]), method="Radau",
                                        args=(k,), t_eval=[1.0],
                                        events=lambda t, y, k: y[0] - 0.5).y[0, 0])(
            np.array([1.0, 2.0]))
    end = _end("Radau", t_eval=[1.0])
    for second in (fg.hessian, lambda f: fg.grad(fg.grad(f)),
                   lambda f: fg.jit(fg.grad(fg.grad(f)))):
        with pytest.raises(NotImplementedError, match="derivative of a derivative"):
            second(end)(2.0)
    # (through a jitted or vmapped first derivative: its host callback says the same)
    for second in (lambda f: fg.grad(fg.jit(fg.grad(f))),
                   lambda f: fg.grad(lambda k: fg.vmap(fg.grad(f))(k * np.ones(2)).sum())):
        with pytest.raises(TypeError, match="derivative of a derivative through Radau"):
            second(end)(2.0)


@pytest.mark.parametrize("method", ["RK45", "Radau"])
def test_a_per_component_atol_in_reverse_and_forward_mode(method):
    # (the adjoint's state is longer than y: a tuple atol failed to broadcast there)
    def first(k):
        return fsi.solve_ivp(lambda t, y, k: fnp.stack([y[1], -k * y[0]]), (0.0, 1.0),
                             np.array([1.0, 0.0]), method=method, args=(k,), t_eval=[1.0],
                             rtol=1e-10, atol=[1e-12, 1e-11]).y[0, 0]

    want = -np.sin(2.0) / 4.0  # d/dk cos(sqrt(k)) at k = 4
    assert float(fg.grad(first)(4.0)) == pytest.approx(want, rel=1e-7)
    assert float(fg.jvp(first, (4.0,), (1.0,))[1]) == pytest.approx(want, rel=1e-7)
