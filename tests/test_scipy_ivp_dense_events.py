"""solve_ivp's dense output (SciPy's interpolant of each explicit method) and events
(SciPy's semantics; event times differentiated by the implicit function theorem), against
SciPy and central differences of SciPy's own answers."""
import numpy as np
import pytest

si = pytest.importorskip("scipy.integrate")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.integrate as fsi  # noqa: E402

TIGHT = dict(rtol=1e-10, atol=1e-12)


def _forced(t, y):
    return fnp.stack([y[1], -y[0] + 0.1 * t])


def _forced_np(t, y):
    return [y[1], -y[0] + 0.1 * t]


def _osc(t, y, k, c):
    return fnp.stack([y[1], -k * y[0] - c * y[1]])


def _osc_np(t, y, k, c):
    return [y[1], -k * y[0] - c * y[1]]


@pytest.mark.parametrize("method", ["RK45", "RK23", "DOP853"])
@pytest.mark.parametrize("span", [(0.0, 10.0), (10.0, 0.0)])
def test_dense_output_is_scipys_interpolant(method, span):
    tol = dict(rtol=1e-6, atol=1e-8) if method == "RK23" else TIGHT  # (RK23: many steps)
    got = fsi.solve_ivp(_forced, span, np.array([1.0, 0.0]), method=method,
                        dense_output=True, **tol)
    want = si.solve_ivp(_forced_np, span, [1.0, 0.0], method=method, dense_output=True,
                        **tol)
    # inside steps, on step boundaries (the earlier step's piece, as SciPy), unsorted
    tq = np.concatenate([np.linspace(0.0, 10.0, 41), want.t[3:6], [7.1, 0.2]])
    # (SciPy's steps, its rounding included: a re-integration to the same tolerances would
    # be off by ~1e-10.  A transcendental in fun would differ from NumPy's in the last bit
    # now and then, and where an error estimate is at rounding level, as in the first
    # steps here, that moves the next step size by up to 1e-5.)
    np.testing.assert_allclose(got.sol(tq), want.sol(tq), rtol=0, atol=1e-13)
    np.testing.assert_allclose(got.sol(4.4), want.sol(4.4), rtol=0, atol=1e-13)
    assert got.sol.n_segments == len(want.t) - 1
    np.testing.assert_allclose(got.sol.ts, want.sol.ts, rtol=1e-15)
    assert (got.sol.t_min, got.sol.t_max) == (0.0, 10.0)
    # outside t_span it extrapolates with the end step's piece, as SciPy's
    np.testing.assert_allclose(got.sol(10.0005), want.sol(10.0005), rtol=1e-12, atol=1e-15)
    assert got.nfev == want.nfev  # (DOP853's dense output costs 3 evaluations a step)


@pytest.mark.parametrize("method", ["RK45", "DOP853"])
def test_dense_output_gradient_matches_central_differences(method):
    def value(sol):
        return sol(np.array([1.3, 4.2]))[0] @ np.array([1.0, 2.0]) + sol(2.5)[1]

    def ours(p):
        return value(fsi.solve_ivp(_osc, (0.0, 5.0), fnp.stack([p[0], 0.0]), method=method,
                                   args=(p[1], p[2]), dense_output=True, **TIGHT).sol)

    def scipys(p):
        return value(si.solve_ivp(_osc_np, (0.0, 5.0), [p[0], 0.0], method=method,
                                  args=(p[1], p[2]), dense_output=True, **TIGHT).sol)

    p, h = np.array([1.0, 2.0, 0.3]), 1e-5
    fd = [(scipys(p + h * e) - scipys(p - h * e)) / (2 * h) for e in np.eye(3)]
    np.testing.assert_allclose(fg.grad(ours)(p), fd, rtol=1e-7)
    # and in the query time: the interpolant's slope, the ODE's right-hand side
    res = fsi.solve_ivp(_osc, (0.0, 5.0), np.array([1.0, 0.0]), method=method,
                        args=(2.0, 0.3), dense_output=True, **TIGHT)
    slope = fg.jacrev(lambda t: res.sol(t))(2.5)
    np.testing.assert_allclose(slope, _osc_np(2.5, res.sol(2.5), 2.0, 0.3), rtol=1e-7)


@pytest.mark.parametrize("method", ["RK45", "RK23", "DOP853"])
def test_events_follow_scipys_semantics(method):
    def crossing(t, y):
        return y[0]

    def rising(t, y):
        return y[1] - 0.5

    rising.terminal, rising.direction = True, 1
    kw = dict(method=method, events=[crossing, rising], rtol=1e-8, atol=1e-10)
    got = fsi.solve_ivp(lambda t, y: fnp.stack([y[1], -y[0]]), (0.0, 20.0),
                        np.array([1.0, 0.0]), **kw)
    want = si.solve_ivp(lambda t, y: [y[1], -y[0]], (0.0, 20.0), [1.0, 0.0], **kw)
    assert (got.status, got.message, got.success) == (1, want.message, True)
    for ours, scipys in zip(got.t_events + got.y_events, want.t_events + want.y_events):
        assert ours.shape == scipys.shape
        np.testing.assert_allclose(ours, scipys, rtol=0, atol=1e-13)
    np.testing.assert_allclose(got.t_events[1], [np.pi + np.arcsin(0.5)], rtol=1e-7)
    # the solution ends at the terminal event (SciPy's y there: the step's interpolant)
    assert got.t[-1] == pytest.approx(want.t[-1], abs=1e-14) and got.y.shape == want.y.shape
    np.testing.assert_allclose(got.y[:, -1], want.y[:, -1], rtol=0, atol=1e-13)
    # terminal=2: ends at the second occurrence; an event that never happens: empty
    crossing.terminal = 2
    kw["events"] = [crossing, lambda t, y: y[0] - 5.0]
    got = fsi.solve_ivp(lambda t, y: fnp.stack([y[1], -y[0]]), (0.0, 20.0),
                        np.array([1.0, 0.0]), **kw)
    want = si.solve_ivp(lambda t, y: [y[1], -y[0]], (0.0, 20.0), [1.0, 0.0], **kw)
    np.testing.assert_allclose(got.t_events[0], want.t_events[0], rtol=1e-13)
    assert got.t_events[1].shape == want.t_events[1].shape == (0,)
    assert got.y_events[1].shape == want.y_events[1].shape
    np.testing.assert_allclose(got.t[-1], 1.5 * np.pi, rtol=1e-7)


def test_events_with_t_eval_args_and_backwards_in_time():
    def half(t, y, k):
        return y[0] - 0.5

    half.terminal = True
    te = np.linspace(3.0, 0.0, 13)
    kw = dict(t_eval=te, events=half, args=(0.7,), dense_output=True, **TIGHT)
    got = fsi.solve_ivp(lambda t, y, k: k * y, (3.0, 0.0), np.array([1.0]), **kw)
    want = si.solve_ivp(lambda t, y, k: k * y, (3.0, 0.0), [1.0], **kw)
    np.testing.assert_allclose(got.t, want.t, rtol=1e-14)  # (t_eval up to the event)
    np.testing.assert_allclose(got.y, want.y, rtol=1e-9)
    np.testing.assert_allclose(got.t_events[0], 3.0 - np.log(2.0) / 0.7, rtol=1e-9)
    np.testing.assert_allclose(got.t_events[0], want.t_events[0], rtol=1e-13)
    np.testing.assert_allclose(got.sol(2.5), want.sol(2.5), rtol=1e-13)


def test_event_time_gradient_by_the_implicit_function_theorem():
    def rising(t, y, k, c):
        return y[1]

    def falling(t, y, k, c):
        return y[0] - 0.2

    falling.terminal, falling.direction = True, -1

    def combine(res):
        return (res.t_events[1][0] + 2 * res.t_events[0][0] + 3 * res.y_events[0][0][0]
                + 5 * res.t[-1] + 7 * res.y[1, -1])

    def ours(p):
        return combine(fsi.solve_ivp(_osc, (0.0, 10.0), fnp.stack([p[0], 0.0]),
                                     args=(p[1], p[2]), events=[rising, falling], **TIGHT))

    def scipys(p):
        return combine(si.solve_ivp(_osc_np, (0.0, 10.0), [p[0], 0.0], args=(p[1], p[2]),
                                    events=[rising, falling], **TIGHT))

    p, h = np.array([1.0, 2.0, 0.3]), 1e-5
    fd = [(scipys(p + h * e) - scipys(p - h * e)) / (2 * h) for e in np.eye(3)]
    np.testing.assert_allclose(fg.grad(ours)(p), fd, rtol=1e-6)

    # y = cos(sqrt(k) t) reaches 0.2 at arccos(0.2) / sqrt(k): second derivative in k
    def first(k):
        return fsi.solve_ivp(_osc, (0.0, 10.0), np.array([1.0, 0.0]), args=(k, 0.0),
                             events=falling, **TIGHT).t_events[0][0]

    np.testing.assert_allclose(fg.grad(fg.grad(first))(2.0),
                               0.75 * np.arccos(0.2) * 2.0 ** -2.5, rtol=1e-6)


def test_events_and_dense_output_keep_float32():
    def half(t, y):
        return y[0] - 0.5

    res = fsi.solve_ivp(lambda t, y: -y, (0.0, 3.0), np.array([1.0], np.float32),
                        events=half, dense_output=True)
    assert res.t_events[0].dtype == res.y_events[0].dtype == res.sol(1.0).dtype \
        == np.float32
    np.testing.assert_allclose(res.t_events[0], [np.log(2.0)], rtol=1e-3)
