"""Linear time-invariant systems of ``funcgrad.scipy.signal``: the state-space conversions
(``tf2ss``, ``ss2tf``, ``zpk2ss``, ``ss2zpk``, ``abcd_normalize``, ``cont2discrete``), the
system classes (``lti``, ``dlti``, ``TransferFunction``, ``ZerosPolesGain``,
``StateSpace``), the time responses (``lsim``, ``step``, ``impulse``, ``dlsim``,
``dstep``, ``dimpulse``) and the frequency responses (``freqresp``, ``dfreqresp``,
``bode``, ``dbode``, ``freqs``, ``freqs_zpk``, ``findfreqs``).

Values against SciPy's; derivatives (``fg.jvp`` along a random direction) against central
differences of SciPy's values; one ``jit``/``vmap`` check per family, float32, and the
errors."""
import numpy as np
import pytest
import scipy.signal as ss

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.signal as fss
from funcgrad.errors import DerivativeDroppedError
from helpers import assert_close

RNG = np.random.default_rng(20261205)
EPS = 1e-6

A3 = np.array([[-1.0, 2.0, 0.0], [0.5, -3.0, 1.0], [0.0, 1.0, -2.0]])
B3 = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
C3 = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
D3 = np.array([[0.0, 0.5], [0.1, 0.0]])
A2 = np.array([[-1.0, 2.0], [0.5, -3.0]])
B2, C2, D2 = np.array([[1.0], [0.5]]), np.array([[1.0, -1.0]]), np.array([[0.2]])
AD = np.array([[0.5, 0.1], [-0.2, 0.3]])  # (a stable discrete-time state matrix)


def _flat(out):
    """A result (arrays, tuples of them, complex or not) as one real vector."""
    if isinstance(out, (tuple, list)):
        return np.concatenate([_flat(o) for o in out]) if len(out) else np.zeros(0)
    f = np.ravel(np.asarray(out))
    if f.dtype.kind == "V":  # (the float0 tangent of an integer output: zero)
        return np.zeros(f.shape)
    return np.concatenate([f.real, f.imag]) if np.iscomplexobj(f) else f.astype(float)


def _check(ours, theirs, params, what, rtol=1e-6, atol=1e-7):
    """``ours`` equals ``theirs`` (SciPy's) at ``params``, and ``fg.jvp`` of ``ours`` along
    a random direction equals the central difference of ``theirs``."""
    params = tuple(np.asarray(p, dtype=np.float64) for p in params)
    dirs = tuple(RNG.normal(size=p.shape) for p in params)
    out, tangent = fg.jvp(ours, params, dirs)
    assert_close(_flat(out), _flat(theirs(*params)), 1e-9, 1e-11, what=f"{what}: value")
    plus = _flat(theirs(*[p + EPS * d for p, d in zip(params, dirs)]))
    minus = _flat(theirs(*[p - EPS * d for p, d in zip(params, dirs)]))
    assert_close(_flat(tangent), (plus - minus) / (2 * EPS), rtol, atol,
                 what=f"{what}: derivative")


# --- conversions -------------------------------------------------------------------------

CONVERSIONS = [
    ("tf2ss", lambda m, b, a: m.tf2ss(b, a), ([1.0, 3.0, 3.5], [1.0, 2.0, 1.0, 0.5])),
    ("tf2ss 2-d num", lambda m, b, a: m.tf2ss(b, a), ([[1.0, 2.0], [3.0, 4.0]], [2.0, 5.0, 6.0])),
    ("tf2ss constant", lambda m, b, a: m.tf2ss(b, a), ([2.0], [4.0])),
    ("ss2tf", lambda m, a, b, c, d: m.ss2tf(a, b, c, d, input=1), (A3, B3, C3, D3)),
    ("ss2tf siso", lambda m, a, b, c, d: m.ss2tf(a, b, c, d), (A2, B2, C2, D2)),
    ("zpk2ss", lambda m, z, p, k: m.zpk2ss(z, p, k), ([-1.0], [-2.0, -3.0, -0.5], 2.0)),
    ("ss2zpk", lambda m, a, b, c, d: m.ss2zpk(a, b, c, d), (A3, B3[:, :1], C3[:1], [[0.3]])),
    ("cont2discrete zoh", lambda m, a, b, c, d, dt: m.cont2discrete((a, b, c, d), dt),
     (A3, B3, C3, D3, 0.3)),
    ("cont2discrete foh", lambda m, a, b, c, d, dt: m.cont2discrete((a, b, c, d), dt, "foh"),
     (A3, B3, C3, D3, 0.3)),
    ("cont2discrete bilinear", lambda m, a, b, c, d: m.cont2discrete((a, b, c, d), 0.2,
                                                                     "bilinear"),
     (A3, B3, C3, D3)),
    ("cont2discrete gbt", lambda m, a, b, c, d: m.cont2discrete((a, b, c, d), 0.2, "gbt",
                                                                alpha=0.3),
     (A3, B3, C3, D3)),
    ("cont2discrete backward_diff", lambda m, a, b, c, d: m.cont2discrete(
        (a, b, c, d), 0.2, "backward_diff"), (A2, B2, C2, D2)),
    ("cont2discrete impulse", lambda m, a, b, c: m.cont2discrete((a, b, c, np.zeros((2, 2))),
                                                                 0.2, "impulse"),
     (A3, B3, C3)),
    ("cont2discrete tf", lambda m, b, a: m.cont2discrete((b, a), 0.1)[:2], ([1.0, 2.0],
                                                                           [1.0, 3.0, 2.0])),
    ("cont2discrete zpk", lambda m, p, k: m.cont2discrete(([-1.0], p, k), 0.1, "foh")[:3],
     ([-2.0, -3.0], 2.0)),
]


@pytest.mark.parametrize("what,call,params", CONVERSIONS, ids=[c[0] for c in CONVERSIONS])
def test_conversions_equal_scipys_and_differentiate(what, call, params):
    ours = lambda *p: tuple(call(fss, *p))  # noqa: E731
    theirs = lambda *p: tuple(call(ss, *p))  # noqa: E731
    for x, y in zip(ours(*params), theirs(*params)):
        assert np.shape(x) == np.shape(y), (what, np.shape(x), np.shape(y))
    _check(ours, theirs, params, what)


def test_abcd_normalize_fills_missing_matrices_and_checks_shapes():
    A, B, C, D = fss.abcd_normalize(A=[[1.0, 2.0], [3.0, 4.0]], B=[[1.0], [0.0]],
                                    C=[[1.0, 0.0]])
    for x, y in zip((A, B, C, D), ss.abcd_normalize(A=[[1.0, 2.0], [3.0, 4.0]],
                                                    B=[[1.0], [0.0]], C=[[1.0, 0.0]])):
        assert np.array_equal(x, y)
    with pytest.raises(ValueError, match="Dimension n is undefined"):
        fss.abcd_normalize(D=[[1.0]])
    with pytest.raises(ValueError, match=r"Parameter B has shape \(3, 1\)"):
        fss.abcd_normalize(A=np.eye(2), B=np.ones((3, 1)), C=np.ones((1, 2)))


def test_conversions_trace_under_jit_and_keep_float32():
    den = fg.jit(lambda a: fss.ss2tf(a, B3, C3, D3)[1])(A3)
    assert_close(den, ss.ss2tf(A3, B3, C3, D3)[1], 1e-12)
    batch = fg.vmap(lambda dt: fss.cont2discrete((A2, B2, C2, D2), dt)[0])(np.array([0.1, 0.2]))
    assert_close(batch[1], ss.cont2discrete((A2, B2, C2, D2), 0.2)[0], 1e-12)
    f32 = [np.float32(m) for m in (A2, B2, C2, D2)]
    for out in (fss.tf2ss(np.float32([1, 2]), np.float32([1, 3, 2])),
                fss.cont2discrete(tuple(f32), 0.1, "foh")[:4], fss.ss2tf(*f32)):
        assert all(np.asarray(o).dtype == np.float32 for o in out)


def test_conversion_errors():
    with pytest.raises(ValueError, match="Improper transfer function"):
        fss.tf2ss([1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="does not have the input"):
        fss.ss2tf(A2, B2, C2, D2, input=1)
    with pytest.raises(ValueError, match="Unknown transformation method"):
        fss.cont2discrete((A2, B2, C2, D2), 0.1, "nearest")
    with pytest.raises(ValueError, match="Alpha parameter must be specified"):
        fss.cont2discrete((A2, B2, C2, D2), 0.1, "gbt")
    with pytest.raises(ValueError, match="strictly proper"):
        fss.cont2discrete((A2, B2, C2, D2), 0.1, "impulse")


# --- time responses ------------------------------------------------------------------------

T = np.linspace(0.5, 3.0, 9)
U2 = np.stack([np.sin(T), np.cos(2 * T)], axis=1)

RESPONSES = [
    ("lsim interp", lambda m, a, u, x0: m.lsim((a, B3, C3, D3), u, T, x0)[1:],
     (A3, U2, [1.0, -1.0, 0.5])),
    ("lsim hold", lambda m, a, u, x0: m.lsim((a, B3, C3, D3), u, T, x0, interp=False)[1:],
     (A3, U2, [1.0, -1.0, 0.5])),
    ("lsim no input", lambda m, a, x0: m.lsim((a, B3, C3, D3), None, T, x0)[1:],
     (A3, [1.0, -1.0, 0.5])),
    ("lsim tf", lambda m, b, a: m.lsim((b, a), np.sin(T), T)[1], ([1.0, 2.0], [1.0, 3.0, 2.5])),
    ("lsim times", lambda m, t: m.lsim(([1.0], [1.0, 1.0]), np.cos(t), t)[1], (T,)),
    ("step", lambda m, b, a: m.step((b, a)), ([1.0, 2.0], [1.0, 3.0, 2.5])),
    ("impulse", lambda m, b, a: m.impulse((b, a), N=20), ([1.0, 2.0], [1.0, 3.0, 2.5])),
    ("step X0", lambda m, a, x0: m.step((a, B2, C2, D2), X0=x0, T=T), (A2, [1.0, 0.5])),
    ("dlsim", lambda m, a, u, x0: m.dlsim((a, B2, C2, D2, 0.1), u, x0=x0),
     (AD, np.arange(6.0), [1.0, 2.0])),
    ("dlsim t", lambda m, a, u: m.dlsim((a, B2, C2, D2, 0.1), u, t=np.linspace(0.05, 0.52, 6)),
     (AD, np.arange(6.0))),
    ("dlsim tf", lambda m, b, a: m.dlsim((b, a, 0.1), np.arange(6.0)), ([1.0, 0.5],
                                                                         [1.0, -0.3, 0.1])),
    ("dstep", lambda m, a: m.dstep((a, np.eye(2), C2, [[0.0, 0.1]], 0.1), n=5), (AD,)),
    ("dimpulse", lambda m, b, a: m.dimpulse((b, a, 0.1), n=5), ([1.0, 0.5], [1.0, -0.3, 0.1])),
]


@pytest.mark.parametrize("what,call,params", RESPONSES, ids=[c[0] for c in RESPONSES])
def test_time_responses_equal_scipys_and_differentiate(what, call, params):
    _check(lambda *p: call(fss, *p), lambda *p: call(ss, *p), params, what)


def test_time_responses_trace_under_jit_vmap_and_keep_float32():
    ys = fg.jit(lambda a: fss.lsim((a, B3, C3, D3), U2, T)[1])(A3)
    assert_close(ys, ss.lsim((A3, B3, C3, D3), U2, T)[1], 1e-10)
    x0s = np.array([[1.0, 0.0, 0.0], [0.0, 2.0, 1.0]])
    batch = fg.vmap(lambda x0: fss.lsim((A3, B3, C3, D3), U2, T, x0)[1])(x0s)
    assert_close(batch[1], ss.lsim((A3, B3, C3, D3), U2, T, x0s[1])[1], 1e-10)
    f32 = [np.float32(m) for m in (A3, B3, C3, D3)]
    assert fss.lsim(tuple(f32), np.float32(U2), T)[1].dtype == np.float32
    assert fss.dlsim((np.float32(AD), *[np.float32(m) for m in (B2, C2, D2)], 0.1),
                     np.float32([1, 2]))[1].dtype == np.float32


def test_time_response_errors():
    with pytest.raises(ValueError, match="not equally spaced"):
        fss.lsim(([1.0], [1.0, 1.0]), None, [0.0, 1.0, 3.0])
    with pytest.raises(ValueError, match="Initial time must be nonnegative"):
        fss.lsim(([1.0], [1.0, 1.0]), [1.0, 1.0], [-1.0, 0.0])
    with pytest.raises(ValueError, match="same number of rows"):
        fss.lsim(([1.0], [1.0, 1.0]), [1.0, 1.0], [0.0, 1.0, 2.0])
    with pytest.raises(AttributeError, match="continuous-time"):
        fss.step(fss.dlti([1.0], [1.0, 1.0], dt=0.1))
    with pytest.raises(AttributeError, match="discrete-time"):
        fss.dlsim(fss.lti([1.0], [1.0, 1.0]), [1.0])
    with pytest.raises(TypeError, match="dlsim: t carries a derivative"):
        fg.grad(lambda t: fnp.sum(fss.dlsim(([1.0], [1.0, -0.5], 0.1), [1.0, 2.0], t=t)[1]))(
            np.array([0.0, 0.3]))
    with pytest.raises(TypeError, match="dstep: dt carries a derivative"):
        fg.grad(lambda dt: fnp.sum(fss.dstep(([1.0], [1.0, -0.5], dt), n=3)[1][0]))(0.1)


# --- frequency responses ---------------------------------------------------------------------

W = np.array([0.2, 1.0, 4.0])

FREQUENCY = [
    ("freqs", lambda m, b, a: m.freqs(b, a, worN=W), ([1.0, 0.5], [1.0, 2.0, 5.0, 3.0])),
    ("freqs count", lambda m, b, a: m.freqs(b, a, worN=6), ([1.0, 0.5], [1.0, 2.0, 5.0, 3.0])),
    ("freqs_zpk", lambda m, z, p, k: m.freqs_zpk(z, p, k, worN=W), ([-0.5], [-1.0, -2.0, -0.3],
                                                                    2.0)),
    ("freqresp ss", lambda m, a, d: m.freqresp((a, B2, C2, d), w=W), (A2, D2)),
    ("freqresp tf", lambda m, b, a: m.freqresp((b, a), n=5), ([1.0, 0.5], [1.0, 2.0, 5.0])),
    ("bode", lambda m, a, d: m.bode((a, B2, C2, d), w=W), (A2, D2)),
    ("bode zpk", lambda m, p: m.bode(([], p, 1.5), n=5), ([-1.0, -0.5],)),
    ("dfreqresp", lambda m, b, a: m.dfreqresp((b, a, 0.1), n=5, whole=True),
     ([1.0, 0.5, 0.2], [1.0, -0.3])),
    ("dfreqresp zpk", lambda m, p: m.dfreqresp(([0.5], p, 1.5, 0.1), w=W), ([0.2, -0.4],)),
    ("dbode ss", lambda m, a: m.dbode((a, B2, C2, D2, 0.1), w=W), (AD,)),
    # a negative response at w = 0: the phase is -180 degrees as SciPy's, not +180
    ("dbode negative dc", lambda m, b: m.dbode((b, [-1.0, 0.5], 0.1), n=4), ([1.0, 0.3],)),
]


@pytest.mark.parametrize("what,call,params", FREQUENCY, ids=[c[0] for c in FREQUENCY])
def test_frequency_responses_equal_scipys_and_differentiate(what, call, params):
    _check(lambda *p: call(fss, *p), lambda *p: call(ss, *p), params, what)


def test_findfreqs_equals_scipys():
    for args in ((([1.0, 0.0], [1.0, 8.0, 25.0], 5)), ([1.0], [1.0], 4),
                 ([1.0, 0.5], [1.0, 2.0, 5.0, 3.0], 7)):
        assert_close(fss.findfreqs(*args), ss.findfreqs(*args), 1e-14)
    z, p = [-0.5, 1e6], [-1 + 2j, -1 - 2j, -0.3]
    assert_close(fss.findfreqs(z, p, 6, kind="zp"), ss.findfreqs(z, p, 6, kind="zp"), 1e-14)
    with pytest.raises(ValueError, match="'ba', 'zp'"):
        fss.findfreqs([1.0], [1.0, 1.0], 4, kind="ss")


def test_frequency_responses_trace_under_jit():
    mag = fg.jit(lambda a: fss.bode((a, B2, C2, D2), w=W)[1])(A2)
    assert_close(mag, ss.bode((A2, B2, C2, D2), w=W)[1], 1e-10)
    with pytest.raises(ValueError, match="SISO"):
        fss.freqresp((A3, B3, C3, D3))


# --- systems -------------------------------------------------------------------------------

SYSTEMS = [lambda m: m.lti([1.0, 2.0], [1.0, 3.0, 2.0]),
           lambda m: m.lti([-2.0], [-1.0, -3.0], 2.0),
           lambda m: m.lti([[-1.0, 0.0], [1.0, -2.0]], [[1.0], [0.0]], [[0.0, 1.0]], 0.5),
           lambda m: m.dlti([1.0, 0.5], [1.0, -0.3, 0.1], dt=0.1),
           lambda m: m.StateSpace(AD, B2, C2, D2, dt=0.2)]
ATTRIBUTES = {"to_tf": ("num", "den"), "to_zpk": ("zeros", "poles", "gain"),
              "to_ss": ("A", "B", "C", "D")}


@pytest.mark.parametrize("make", SYSTEMS, ids=["tf", "zpk", "ss", "dtf", "dss"])
def test_systems_convert_and_respond_as_scipys(make):
    ours, theirs = make(fss), make(ss)
    assert type(ours).__name__ == type(theirs).__name__
    assert isinstance(ours, fss.dlti) == (theirs.dt is not None)
    assert (ours.inputs, ours.outputs, ours.dt) == (theirs.inputs, theirs.outputs, theirs.dt)
    for conversion, names in ATTRIBUTES.items():
        x, y = getattr(ours, conversion)(), getattr(theirs, conversion)()
        assert type(x).__name__ == type(y).__name__
        for name in names:
            assert_close(_flat(getattr(x, name)), _flat(getattr(y, name)), 1e-12, 1e-14,
                         what=name)
    assert_close(_flat(np.sort_complex(ours.poles)), _flat(np.sort_complex(theirs.poles)), 1e-12)
    for method, kwargs in (("step", {}), ("impulse", {}), ("bode", {"n": 5}),
                           ("freqresp", {"n": 5})):
        assert_close(_flat(getattr(ours, method)(**kwargs)),
                     _flat(getattr(theirs, method)(**kwargs)), 1e-9, 1e-12, what=method)
    if theirs.dt is None:
        x, y = ours.to_discrete(0.1, "foh"), theirs.to_discrete(0.1, "foh")
        assert type(x).__name__ == type(y).__name__ and x.dt == 0.1
        assert_close(_flat(x.step(n=4)), _flat(y.step(n=4)), 1e-10)


def test_systems_differentiate_through_their_arrays():
    settle = lambda a: fss.lti([1.0], [1.0, a]).step(T=[0.0, 1.0])[1][1]  # noqa: E731
    # d/da (1 - e^-a) / a = e^-a / a - (1 - e^-a) / a^2, at a = 1
    assert_close(fg.grad(settle)(1.0), 2.0 * np.exp(-1.0) - 1.0, 1e-9)
    gain = lambda k: fnp.sum(fss.ZerosPolesGain([-1.0], [-2.0, -3.0], k).to_ss().C)  # noqa
    _check(gain, lambda k: np.sum(ss.ZerosPolesGain([-1.0], [-2.0, -3.0], k).to_ss().C),
           (2.0,), "ZerosPolesGain.to_ss")


def test_state_space_arithmetic_equals_scipys():
    ours = fss.StateSpace(A2, B2, C2, D2)
    theirs = ss.StateSpace(A2, B2, C2, D2)
    for op in (lambda s: s * s, lambda s: s + s, lambda s: 2 * s, lambda s: s - 1.0,
               lambda s: 1.0 - s, lambda s: s / 2, lambda s: -s):
        x, y = op(ours), op(theirs)
        for name in "ABCD":
            assert_close(getattr(x, name), getattr(y, name), 1e-14, what=name)
    with pytest.raises(TypeError, match="different `dt`"):
        fss.StateSpace(AD, B2, C2, D2, dt=0.1) * fss.StateSpace(AD, B2, C2, D2, dt=0.2)


# --- partial fractions ---------------------------------------------------------------------

PARTIAL_FRACTIONS = [
    ("residue", lambda m, b, a: m.residue(b, a), ([1.0, 0.5, 3.0], [2.0, 3.0, 1.0, 0.5])),
    ("residue direct term", lambda m, b, a: m.residue(b, a), ([1.0, 2.0, 3.0, 4.0],
                                                              [1.0, 3.0, 2.0])),
    ("residue complex poles", lambda m, b, a: m.residue(b, a), ([2.0, 1.0], [1.0, 1.0, 1.0])),
    ("residuez", lambda m, b, a: m.residuez(b, a), ([1.0, 2.0, 3.0, 4.0], [1.0, -0.5, 0.06])),
    ("residuez longer den", lambda m, b, a: m.residuez(b, a), ([1.0, 0.5],
                                                               [1.0, 0.1, 0.2, 0.3])),
    ("invres", lambda m, r, p, k: m.invres(r, p, k), ([1.0, 2.0, 3.0], [-1.0, -1.0, -2.0],
                                                      [1.0, 2.0])),
    ("invresz", lambda m, r, p, k: m.invresz(r, p, k), ([0.5, 1.0, 2.0], [0.5, 0.5, -0.3],
                                                        [0.0, 1.0])),
    ("unique_roots avg", lambda m, p: m.unique_roots(p, rtype="avg"), ([1.0, 2.0, 1.0005,
                                                                         3.0],)),
    ("unique_roots max", lambda m, p: m.unique_roots(p, tol=1e-2, rtype="max"),
     ([3.0, 1.0, 2.0, 1.005, 0.999],)),
]


@pytest.mark.parametrize("what,call,params", PARTIAL_FRACTIONS,
                         ids=[c[0] for c in PARTIAL_FRACTIONS])
def test_partial_fractions_equal_scipys_and_differentiate(what, call, params):
    _check(lambda *p: call(fss, *p), lambda *p: call(ss, *p), params, what)


def test_residue_of_plain_coefficients_is_scipys_and_repeated_poles_refuse_derivatives():
    b, a = [1.0, 0.0], [1.0, 2.0, 1.0]  # a double pole at -1
    for x, y in zip(fss.residue(b, a), ss.residue(b, a)):
        assert_close(x, y, 1e-12)
    with pytest.raises(ValueError, match="repeated pole"):
        fg.grad(lambda a: fnp.sum(fss.residue(b, a)[0]))(np.array(a))
    with pytest.raises(ValueError, match="rtype"):
        fss.unique_roots([1.0, 2.0], rtype="median")
    # SciPy trims zero coefficients; traced ones would take their derivative with them
    with pytest.raises(DerivativeDroppedError, match="residue"):
        fg.grad(lambda b: fnp.sum(fss.residue(b, np.array([1.0, 2.0]))[0]))(
            np.array([0.0, 1.0]))
    with pytest.raises(DerivativeDroppedError, match="residuez"):
        fg.grad(lambda b: fnp.sum(fss.residuez(b, np.array([1.0, 0.5]))[0]))(
            np.array([1.0, 0.0]))


# --- analog prototypes and pole placement -----------------------------------------------------

PROTOTYPES = [("buttap", lambda m, N: m.buttap(N)), ("cheb1ap", lambda m, N: m.cheb1ap(N, 0.5)),
              ("cheb2ap", lambda m, N: m.cheb2ap(N, 30.0)),
              ("ellipap", lambda m, N: m.ellipap(N, 0.5, 30.0)),
              ("besselap", lambda m, N: m.besselap(N, norm="mag"))]


@pytest.mark.parametrize("name,call", PROTOTYPES, ids=[p[0] for p in PROTOTYPES])
def test_prototypes_equal_scipys(name, call):
    for N in (0, 1, 4, 5):
        for x, y in zip(call(fss, N), call(ss, N)):
            assert np.shape(x) == np.shape(y)
            assert_close(_flat(x), _flat(y), 1e-12, 1e-14, what=f"{name}({N})")
    with pytest.raises(ValueError, match="nonnegative integer"):
        call(fss, 2.5)


def test_chebyshev_prototypes_differentiate_in_the_ripple():
    for N in (3, 4):
        _check(lambda rp: fss.cheb1ap(N, rp)[1:], lambda rp: ss.cheb1ap(N, float(rp))[1:],
               (0.7,), f"cheb1ap({N})")
        _check(lambda rs: fss.cheb2ap(N, rs)[1:], lambda rs: ss.cheb2ap(N, float(rs))[1:],
               (35.0,), f"cheb2ap({N})")
    with pytest.raises(TypeError, match="ellipap: rp carries a derivative"):
        fg.grad(lambda rp: fss.ellipap(3, rp, 40.0)[2])(1.0)


def test_place_poles_is_scipys_and_refuses_derivatives():
    A = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [-1.0, -2.0, -3.0]])
    B = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    ours, theirs = fss.place_poles(A, B, [-1.0, -2.0, -3.0]), ss.place_poles(A, B, [-1.0, -2.0,
                                                                                     -3.0])
    assert_close(ours.gain_matrix, theirs.gain_matrix, 1e-12)
    assert_close(np.sort(ours.computed_poles), [-3.0, -2.0, -1.0], 1e-9)
    with pytest.raises(TypeError, match="place_poles: A carries a derivative"):
        fg.grad(lambda a: fss.place_poles(a, B, [-1.0, -2.0, -3.0]).gain_matrix[0, 0])(A)


def test_bad_coefficients_is_scipys_warning():
    assert fss.BadCoefficients is ss.BadCoefficients
    with pytest.warns(fss.BadCoefficients):
        fss.tf2ss([1e-20, 1.0], [1.0, 1.0])
