"""Dense output and events of ``solve_ivp``: SciPy's continuous extension of each explicit
Runge-Kutta pair (RK23's cubic Hermite, RK45's quartic, DOP853's 7th-order interpolant
with its three extra stages), the ``OdeSolution`` that chooses a step's interpolant as
SciPy's does, and event location.

Values: the steps are SciPy's (found on concrete values by ``_rk.step_times``); ``replay``
takes them again, one step per interval, on the possibly differentiated values, and its
interpolants are differentiated as they stand -- the derivative of the Runge-Kutta map and
its interpolant at the fixed step times, accurate to the tolerances (reverse and forward
mode alike; the step sizes are a choice, not differentiated).  An event time is a root of
``g(t, sol(t))`` on the replayed interpolant, differentiated by the implicit function
theorem (``lax.custom_root``): ``dt_e = -(dg/dp) / (d/dt g(t, sol(t)))``.
"""
import functools

import numpy as np

from .. import numpy as fnp
from ..api import vjp
from ..core import Tracer
from ..custom import custom_vjp
from ..forward_mode import jvp
from ..lax import custom_root, stop_gradient
from ..numpy._convert import asarray
from ._rk import _combine, stages

# Q = K^T P: y(t_old + x h) = y_old + h Q [x, x^2, ...]  (SciPy's RK23 and RK45 ``P``)
_P = {
    "RK23": ((1.0, -4 / 3, 5 / 9), (0.0, 1.0, -2 / 3), (0.0, 4 / 3, -8 / 9),
             (0.0, -1.0, 1.0)),
    "RK45": ((1.0, -8048581381 / 2820520608, 8663915743 / 2820520608,
              -12715105075 / 11282082432),
             (0.0, 0.0, 0.0, 0.0),
             (0.0, 131558114200 / 32700410799, -68118460800 / 10900136933,
              87487479700 / 32700410799),
             (0.0, -1754552775 / 470086768, 14199869525 / 1410260304,
              -10690763975 / 1880347072),
             (0.0, 127303824393 / 49829197408, -318862633887 / 49829197408,
              701980252875 / 199316789632),
             (0.0, -282668133 / 205662961, 2019193451 / 616988883,
              -1453857185 / 822651844),
             (0.0, 40617522 / 29380423, -110615467 / 29380423, 69997945 / 29380423)),
}

# DOP853's dense output (Hairer's dop853.f, the values SciPy's dop853_coefficients holds):
# three more stages at these nodes, then four more coefficients D K of the interpolant
_C_EXTRA = (0.1, 0.2, 0.7777777777777778)
_A_EXTRA = (
    {0: 0.056167502283047954, 6: 0.25350021021662483, 7: -0.2462390374708025,
     8: -0.12419142326381637, 9: 0.15329179827876568, 10: 0.00820105229563469,
     11: 0.007567897660545699, 12: -0.008298},
    {0: 0.03183464816350214, 5: 0.028300909672366776, 6: 0.053541988307438566,
     7: -0.05492374857139099, 10: -0.00010834732869724932, 11: 0.0003825710908356584,
     12: -0.00034046500868740456, 13: 0.1413124436746325},
    {0: -0.42889630158379194, 5: -4.697621415361164, 6: 7.683421196062599,
     7: 4.06898981839711, 8: 0.3567271874552811, 12: -0.0013990241651590145,
     13: 2.9475147891527724, 14: -9.15095847217987})
_D = (
    {0: -8.428938276109013, 5: 0.5667149535193777, 6: -3.0689499459498917,
     7: 2.38466765651207, 8: 2.117034582445028, 9: -0.871391583777973,
     10: 2.2404374302607883, 11: 0.6315787787694688, 12: -0.08899033645133331,
     13: 18.148505520854727, 14: -9.194632392478356, 15: -4.436036387594894},
    {0: 10.427508642579134, 5: 242.28349177525817, 6: 165.20045171727028,
     7: -374.5467547226902, 8: -22.113666853125306, 9: 7.733432668472264,
     10: -30.674084731089398, 11: -9.332130526430229, 12: 15.697238121770845,
     13: -31.139403219565178, 14: -9.35292435884448, 15: 35.81684148639408},
    {0: 19.985053242002433, 5: -387.0373087493518, 6: -189.17813819516758,
     7: 527.8081592054236, 8: -11.57390253995963, 9: 6.8812326946963,
     10: -1.0006050966910838, 11: 0.7777137798053443, 12: -2.778205752353508,
     13: -60.19669523126412, 14: 84.32040550667716, 15: 11.99229113618279},
    {0: -25.69393346270375, 5: -154.18974869023643, 6: -231.5293791760455,
     7: 357.6391179106141, 8: 93.40532418362432, 9: -37.45832313645163,
     10: 104.0996495089623, 11: 29.8402934266605, 12: -43.53345659001114,
     13: 96.32455395918828, 14: -39.17726167561544, 15: -149.72683625798564})


def _sparse(row, ks):
    return _combine([row.get(i, 0.0) for i in range(len(ks))], ks)


class Segment:
    """One step's interpolant, ``y(t)`` for ``t`` in ``[t_old, t_old + h]``."""

    def __init__(self, name, t_old, h, y_old, coeffs):
        self.name, self.t_old, self.h, self.y_old, self.coeffs = name, t_old, h, y_old, coeffs

    def __call__(self, t):
        """``y`` at the 1-d times ``t``: shape ``(n, len(t))``."""
        x = (t - self.t_old) / self.h
        if self.name != "DOP853":
            powers = fnp.stack([x ** (k + 1) for k in range(len(self.coeffs))])
            return self.y_old[:, None] + self.h * fnp.matmul(fnp.stack(self.coeffs, 1),
                                                             powers)
        # (SciPy's nesting: alternately times x and times 1 - x, from the last coefficient)
        y = fnp.zeros((self.y_old.shape[0], x.shape[0]), self.y_old.dtype)
        for i, coeff in enumerate(reversed(self.coeffs)):
            y = (y + coeff[:, None]) * (x if i % 2 == 0 else 1.0 - x)[None, :]
        return y + self.y_old[:, None]


def step_segment(f, tab, t, y, fy, h):
    """``(y1, f(y1), segment)``: one step of ``h`` from ``(t, y)`` and its interpolant
    (DOP853's takes three more evaluations of ``f``)."""
    y1, ks = stages(f, tab, t, y, fy, h)
    if tab.name != "DOP853":
        coeffs = [_combine(col, ks) for col in zip(*_P[tab.name])]
        return y1, ks[-1], Segment(tab.name, t, h, y, coeffs)
    for c, row in zip(_C_EXTRA, _A_EXTRA):
        ks.append(f(y + h * _sparse(row, ks), t + c * h))
    dy = y1 - y
    coeffs = [dy, h * fy - dy, 2.0 * dy - h * (ks[12] + fy)]
    coeffs += [h * _sparse(row, ks) for row in _D]
    return y1, ks[12], Segment(tab.name, t, h, y, coeffs)


def replay(f, tab, y0, times):
    """The interpolants of the steps between consecutive ``times`` (the first and last
    may be traced, the others are constants), taken from ``y0``."""
    y, fy, out = y0, f(y0, times[0]), []
    for t_old, t_new in zip(times[:-1], times[1:]):
        y, fy, seg = step_segment(f, tab, t_old, y, fy, t_new - t_old)
        out.append(seg)
    return out


class OdeSolution:
    """``sol(t)``: the solution at any time(s) ``t`` -- shape ``(n,)`` for a scalar,
    ``(n, len(t))`` for a 1-d ``t`` -- from the interpolant of the step that holds ``t``
    (outside the steps, the first or last step's: it extrapolates), as SciPy's
    ``OdeSolution``.  Differentiable in ``t`` and in what the solve is (see
    :func:`solve_ivp`); ``t_min``, ``t_max``, ``ts`` and ``n_segments`` as SciPy's."""

    def __init__(self, ts, segments, sign):
        self._segments, self._sign = segments, sign
        self._breaks = sign * np.asarray(stop_gradient(asarray(ts)), float)  # (increasing)
        self.ts = ts
        self.n_segments = len(segments)
        self.t_min, self.t_max = sorted((ts[0], ts[-1]), key=lambda v: float(
            np.asarray(stop_gradient(asarray(v)))))

    def __call__(self, t):
        ts = asarray(t)
        if ts.ndim > 1:
            raise ValueError("`t` must be a float or a 1-D array.")
        dtype = self._segments[0].y_old.dtype
        s = self._sign * fnp.reshape(fnp.astype(ts, dtype), (-1,))
        s_c = np.asarray(stop_gradient(s), float)
        which = np.clip(np.searchsorted(self._breaks, s_c, side="left") - 1, 0,
                        self.n_segments - 1)
        parts, order = [], []
        for k in np.unique(which):
            idx = np.nonzero(which == k)[0]
            parts.append(self._segments[k](s[idx]))
            order.append(idx)
        out = fnp.concatenate(parts, axis=1)[:, np.argsort(np.concatenate(order))]
        return out[:, 0] if ts.ndim == 0 else out


class _RadauPiece:
    """One Radau step's collocation polynomial, on concrete times."""

    def __init__(self, step):
        self.step, self.y_old = step, step.y_old

    def __call__(self, s):
        return np.stack([self.step.at(v) for v in np.asarray(stop_gradient(s), float)], 1)


class RadauSolution(OdeSolution):
    """Radau's ``sol``: the values are SciPy's collocation polynomials of the (concrete)
    steps; where the solve is differentiated, the derivative is that of the ODE's solution
    at ``t`` by the adjoint (``adjoint(s)``, a solve from the start to the sorted ``s``),
    inside ``t_span``."""

    def __init__(self, ts, taken, sign, adjoint, differentiated):
        super().__init__(ts, [_RadauPiece(step) for step in taken], sign)
        self._adjoint, self._differentiated = adjoint, differentiated

    def __call__(self, t):
        value = super().__call__(t)
        ts = asarray(t)
        if not (self._differentiated or isinstance(ts, Tracer)):
            return value
        s = self._sign * fnp.reshape(fnp.astype(ts, value.dtype), (-1,))
        s_c = np.asarray(stop_gradient(s), float)
        if np.any(s_c < self._breaks[0]) or np.any(s_c > self._breaks[-1]):
            raise ValueError("sol(t) with method='Radau' is differentiated inside t_span "
                             "only; keep t within it")
        order = np.argsort(s_c, kind="stable")
        ys = fnp.transpose(self._adjoint(s[order]))[:, np.argsort(order)]
        ys = ys[:, 0] if ts.ndim == 0 else ys
        return value + (ys - stop_gradient(ys))


# --- events --------------------------------------------------------------------------------

def prepare_events(events):
    """``(events, max_events, direction)`` as SciPy reads them from the functions'
    ``terminal`` and ``direction`` attributes."""
    events = (events,) if callable(events) else tuple(events)
    max_events, direction = np.empty(len(events)), np.empty(len(events))
    for i, event in enumerate(events):
        if not callable(event):
            raise TypeError(f"solve_ivp: events must be callables event(t, y, *args) "
                            f"(or a list of them), got {type(event).__name__}")
        terminal = getattr(event, "terminal", None)
        direction[i] = getattr(event, "direction", 0)
        if terminal is None or terminal == 0:
            max_events[i] = np.inf
        elif int(terminal) == terminal and terminal > 0:
            max_events[i] = terminal
        else:
            raise ValueError("The `terminal` attribute of each event must be a boolean or "
                             "positive integer.")
    return events, max_events, direction


def _root(fun, lo, hi):
    """A zero of ``fun`` bracketed by ``[lo, hi]`` (a sign change) to a few ulps, as
    SciPy's brentq with ``xtol = rtol = 4 eps``: the Illinois variant of regula falsi,
    bisecting after three moves of the same end."""
    f_lo, f_hi = fun(lo), fun(hi)
    if f_lo == 0 or f_hi == 0:
        return lo if f_lo == 0 else hi
    last, same = 0, 0
    eps = 4 * np.finfo(float).eps
    while abs(hi - lo) > eps * (1.0 + min(abs(lo), abs(hi))):
        mid = (lo * f_hi - hi * f_lo) / (f_hi - f_lo)
        if same >= 3 or not min(lo, hi) < mid < max(lo, hi):
            mid, same = 0.5 * (lo + hi), 0
        f_mid = fun(mid)
        if f_mid == 0:
            return mid
        moved = 1 if (f_mid > 0) == (f_hi > 0) else -1  # (1: hi moves)
        same = same + 1 if moved == last else 1
        if moved == 1:
            hi, f_hi = mid, f_mid
            f_lo = f_lo / 2 if last == 1 else f_lo  # (Illinois: weaken the end that stays)
        else:
            lo, f_lo = mid, f_mid
            f_hi = f_hi / 2 if last == -1 else f_hi
        last = moved
    return 0.5 * (lo + hi)


class EventLog:
    """Watches the concrete steps (``_rk.step_times``'s ``on_step``): which events occur,
    where (roots on the step's interpolant, as SciPy's ``handle_events``), and whether a
    terminal one ends the solve.  ``found`` holds ``(event, s_root, step)`` in order."""

    def __init__(self, events, g, f, tab, y0, s0, sign, dense_output):
        self.events, self.max_events, self.direction = events
        self.g, self.f, self.tab, self.sign = g, f, tab, sign
        self.count = np.zeros(len(self.events))
        self.g_old = self._values(s0, y0)
        self.found, self.terminal, self.extra_nfev = [], None, 0
        self.dense_output, self.steps = dense_output, 0

    def _values(self, s, y):
        return np.array([self.g(i, self.sign * s, y) for i in range(len(self.events))])

    def __call__(self, s_old, y_old, f_old, s, y, piece=None):
        self.steps += 1
        g_new = self._values(s, y)
        up = (self.g_old <= 0) & (g_new >= 0)
        down = (self.g_old >= 0) & (g_new <= 0)
        d = self.direction
        active = np.nonzero(up & (d > 0) | down & (d < 0) | (up | down) & (d == 0))[0]
        self.g_old = g_new
        uses_dense = self.dense_output or active.size
        self.extra_nfev += 3 if uses_dense and self.tab.name == "DOP853" else 0
        if not active.size:
            return False
        seg = piece or step_segment(self.f, self.tab, s_old, y_old, f_old, s - s_old)[2]
        roots = np.array([_root(lambda r, i=i: self.g(i, self.sign * r, np.asarray(
            seg(np.array([r]))[:, 0])), s_old, s) for i in active])
        self.count[active] += 1
        stop = self.count[active] >= self.max_events[active]
        if np.any(stop):
            order = np.argsort(roots)  # (s increases along the integration)
            active, roots, stop = active[order], roots[order], stop[order]
            last = int(np.nonzero(stop)[0][0])
            active, roots = active[:last + 1], roots[:last + 1]
            self.terminal = float(roots[-1])
        self.found += [(int(e), float(r), self.steps - 1) for e, r in zip(active, roots)]
        return self.terminal is not None


def event_time(g, segment, s_root, dtype):
    """The root ``s_root`` of ``g(s, segment(s))``, differentiated implicitly in what
    ``g`` and the segment depend on."""
    def residual(s):
        return fnp.reshape(fnp.astype(asarray(g(s, segment(fnp.reshape(s, (1,)))[:, 0])),
                                      dtype), ())

    root = np.asarray(s_root, dtype)
    return custom_root(residual, root, lambda _, x: x * 0 + root,
                       lambda lin, rhs: rhs / lin(fnp.ones((), dtype)))



@functools.partial(custom_vjp, nondiff_argnums=(0, 1, 2))
def radau_event_time(residual, s_root, slope, *params):
    """An event time of a Radau solve, ``s_root``, differentiated by the implicit function
    theorem: ``-(d residual / d params) / slope`` (in both modes), ``residual(*params)``
    the event function at ``s_root`` on the (adjoint-differentiated) solution and
    ``slope`` its derivative in time.  First order only, as Radau's adjoint."""
    return fnp.asarray(s_root)


def _radau_event_jvp(residual, s_root, slope, primals, tangents):
    # (forward mode through the residual: the adjoint-backed solve has a JVP rule)
    _, d_residual = jvp(residual, tuple(primals), tuple(tangents))
    return fnp.asarray(s_root), -d_residual / slope


def _radau_event_fwd(residual, s_root, slope, *params):
    return fnp.asarray(s_root), params


def _radau_event_bwd(residual, s_root, slope, params, cotangent):
    if any(isinstance(v, Tracer) for v in (cotangent, *params)):
        raise NotImplementedError(
            "solve_ivp: a derivative of a derivative of an event time with method='Radau' "
            "is not available; use 'RK45', 'RK23' or 'DOP853' for higher derivatives")
    _, pullback = vjp(residual, *params)
    return tuple(-cotangent / slope * c for c in pullback(fnp.ones((), np.asarray(s_root).dtype)))


radau_event_time.defvjp(_radau_event_fwd, _radau_event_bwd)
radau_event_time.defjvp(_radau_event_jvp)
