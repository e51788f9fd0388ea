"""The rest of scipy.special (session 23): SciPy's values, derivatives against central
differences of SciPy's values (or the closed forms at the points where differences
cannot reach), float32 kept, and one jit/vmap check per family.  The property suite in
test_primitives.py covers the rest of the correctness bar for the new primitives."""
import numpy as np
import pytest
import scipy.special as ss

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.special as fsp

H = 1e-6


def central(f, x, h=H):
    return (f(x + h) - f(x - h)) / (2 * h)


# --- Kelvin functions ---------------------------------------------------------------------------

# (ber, bei and their derivatives are even/odd, with values for x < 0; ker, kei are NaN there)
KELVIN = {"ber": "berp", "bei": "beip", "ker": "kerp", "kei": "keip",
          "berp": None, "beip": None, "kerp": None, "keip": None}
X_WHOLE = np.array([-3.0, -0.4, 0.7, 2.5, 6.0])
X_HALF = np.array([0.2, 0.7, 2.5, 6.0])


@pytest.mark.parametrize("name", sorted(KELVIN))
def test_kelvin_values_and_slopes_are_scipys(name):
    x = X_WHOLE if name.startswith("be") else X_HALF
    ours, scipys = getattr(fsp, name), getattr(ss, name)
    np.testing.assert_array_equal(ours(x), scipys(x))
    np.testing.assert_allclose(fg.vmap(fg.grad(ours))(x), central(scipys, x), rtol=1e-6,
                               atol=1e-8)
    # (float32 in, float32 out; its gradient too)
    x32 = x.astype(np.float32)
    assert ours(x32).dtype == np.float32 and fg.grad(ours)(x32[1]).dtype == np.float32


def test_kelvin_second_derivatives_at_zero_are_the_limits():
    # (berp/x -> 0, beip/x -> 1/2; ker'' and kei'' grow without bound)
    second = [float(fg.grad(fg.grad(getattr(fsp, n)))(0.0)) for n in ("ber", "bei", "ker", "kei")]
    assert second[:2] == [0.0, 0.5] and second[2:] == [np.inf, np.inf]
    np.testing.assert_allclose(second[:2], [central(ss.berp, 0.0, 1e-4),
                                            central(ss.beip, 0.0, 1e-4)], atol=1e-8)


def test_kelvin_combines_them_as_scipy_and_differentiates_under_jit():
    x = X_WHOLE
    for ours, scipys in zip(fsp.kelvin(x), ss.kelvin(x)):
        np.testing.assert_array_equal(ours, scipys)
    assert [v.dtype for v in fsp.kelvin(np.float32(1.0))] == [np.complex64] * 4
    slope = fg.jit(fg.vmap(fg.grad(lambda t: fnp.imag(fsp.kelvin(t)[3]))))(X_HALF)
    np.testing.assert_allclose(slope, central(lambda t: ss.kelvin(t)[3].imag, X_HALF),
                               rtol=1e-6, atol=1e-8)


def test_kelvin_refuses_complex_input():
    with pytest.raises(TypeError, match="ber: complex input"):
        fsp.ber(np.array([1.0 + 1.0j]))


# --- associated Legendre functions, all spherical harmonics ----------------------------------

Z_IN, Z_OUT = np.array([-0.9, -0.3, 0.2, 0.95]), np.array([-1.5, 1.2, 3.0])
LEGENDRE = [  # (name, args, keywords): SciPy's values, NaN where SciPy's are
    ("assoc_legendre_p_all", (4, 3, Z_IN), {"diff_n": 2}),
    ("assoc_legendre_p_all", (4, 2, Z_IN), {"norm": True, "diff_n": 1}),
    ("assoc_legendre_p_all", (3, 2, Z_OUT), {"branch_cut": 3, "diff_n": 2}),
    ("assoc_legendre_p_all", (3, 3, np.array([0.5 + 0.2j, -0.3 - 0.7j, 2 + 1j])),
     {"branch_cut": 3}),
    ("assoc_legendre_p", (np.array([[0], [2], [5]]), np.array([-3, -1, 0, 2, 6]), 0.3),
     {"diff_n": 1}),
    ("assoc_legendre_p", (3, -2, Z_OUT), {"branch_cut": 3, "norm": True}),
    ("assoc_legendre_p", (3, 2, np.float32(0.4)), {}),
]


@pytest.mark.parametrize("name, args, kw", LEGENDRE)
def test_assoc_legendre_values_are_scipys(name, args, kw):
    ours, scipys = getattr(fsp, name)(*args, **kw), getattr(ss, name)(*args, **kw)
    assert ours.shape == scipys.shape and ours.dtype == scipys.dtype
    np.testing.assert_allclose(ours, scipys, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("branch_cut, norm, z", [(2, False, Z_IN), (3, True, Z_OUT[1:])])
def test_assoc_legendre_slopes_are_differences_of_scipys(branch_cut, norm, z):
    def ours(t):
        return fsp.assoc_legendre_p(4, -3, t, branch_cut=branch_cut, norm=norm)[0]

    def scipys(t):
        return ss.assoc_legendre_p(4, -3, t, branch_cut=branch_cut, norm=norm)[0]
    slope = fg.jit(fg.vmap(fg.grad(ours)))(z)
    np.testing.assert_allclose(slope, central(scipys, z), rtol=1e-7, atol=1e-9)


def test_sph_harm_y_all_is_scipys_with_its_derivatives():
    theta, phi = np.array([0.3, 1.2, 2.9]), np.array([0.4, -2.0, 1.0])
    for diff_n in (0, 1, 2):
        ours, scipys = (fsp.sph_harm_y_all(3, 2, theta, phi, diff_n=diff_n),
                        ss.sph_harm_y_all(3, 2, theta, phi, diff_n=diff_n))
        for a, b in zip(*((ours, scipys) if diff_n else ((ours,), (scipys,)))):
            assert a.shape == b.shape
            np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-14)
    # (and fg.grad through it, in theta, against differences of SciPy's values)
    slope = fg.grad(lambda t: fnp.imag(fsp.sph_harm_y_all(3, 2, t, 0.4)[3, 4]))(0.7)
    want = central(lambda t: ss.sph_harm_y_all(3, 2, t, 0.4)[3, 4].imag, 0.7)
    np.testing.assert_allclose(slope, want, rtol=1e-7)


def test_assoc_legendre_refuses_a_branch_cut_scipy_does_not_have():
    with pytest.raises(ValueError, match="branch_cut must be 2"):
        fsp.assoc_legendre_p(2, 1, 0.3, branch_cut=1)


# --- Riccati-Bessel functions -------------------------------------------------------------------

@pytest.mark.parametrize("name", ["riccati_jn", "riccati_yn"])
def test_riccati_values_and_slopes_are_scipys(name):
    ours, scipys = getattr(fsp, name), getattr(ss, name)
    for x in (0.0, 0.5, 3.0, 20.0):  # (riccati_yn at 0: SciPy's values there)
        for a, b in zip(ours(4, x), scipys(4, x)):
            assert a.shape == b.shape and a.dtype == b.dtype
            np.testing.assert_allclose(a, b, rtol=1e-14, atol=1e-15)
    for part in (0, 1):  # (both outputs, against differences of SciPy's values)
        slope = fg.jacfwd(lambda x: ours(4, x)[part])(1.3)
        np.testing.assert_allclose(slope, central(lambda x: scipys(4, x)[part], 1.3),
                                   rtol=1e-7)
    batched = fg.vmap(lambda x: ours(2, x)[0])(np.array([0.5, 2.0]))
    np.testing.assert_allclose(batched, [scipys(2, 0.5)[0], scipys(2, 2.0)[0]], rtol=1e-14)


def test_riccati_refuses_what_scipy_refuses():
    with pytest.raises(ValueError, match="non-negative integer"):
        fsp.riccati_jn(-1, 1.0)
    with pytest.raises(ValueError, match="must be scalars"):
        fsp.riccati_yn(2, np.array([1.0, 2.0]))


# --- parabolic cylinder functions ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["pbdv", "pbvv", "pbwa"])
def test_parabolic_cylinder_values_and_slopes_are_scipys(name):
    v, x = np.array([1.3, -0.6, 2.0, 0.5]), np.array([0.7, -1.2, 3.0, 0.0])
    ours, scipys = getattr(fsp, name), getattr(ss, name)
    for i in (0, 1):  # (the function, then its derivative: Weber's equation)
        np.testing.assert_array_equal(ours(v, x)[i], scipys(v, x)[i])
        slope = fg.vmap(fg.grad(lambda t, s: ours(s, t)[i]))(x, v)
        np.testing.assert_allclose(slope, central(lambda t: scipys(v, t)[i], x), rtol=1e-6,
                                   atol=1e-8)
    assert [a.dtype for a in ours(np.float32(1.0), np.float32(0.5))] == [np.float32] * 2
    with pytest.raises(NotImplementedError, match="with respect to"):
        fg.grad(lambda s: ours(s, 1.0)[0])(1.0)


def test_parabolic_cylinder_sequences_are_scipys_and_refuse_traced_arguments():
    for ours, scipys in zip((fsp.pbdv_seq(2.5, 0.7), fsp.pbvv_seq(2.5, 0.7),
                             fsp.pbdn_seq(-2, 1.0 + 0.5j)),
                            (ss.pbdv_seq(2.5, 0.7), ss.pbvv_seq(2.5, 0.7),
                             ss.pbdn_seq(-2, 1.0 + 0.5j))):
        for a, b in zip(ours, scipys):
            np.testing.assert_array_equal(a, b)
    with pytest.raises(TypeError, match="no derivative"):
        fg.grad(lambda x: fsp.pbdv_seq(1.0, x)[0][0])(0.5)


# --- Legendre functions of the second kind ------------------------------------------------------

LQ = [("lqn", (4,)), ("lqmn", (2, 4))]


@pytest.mark.parametrize("name, sizes", LQ)
def test_second_kind_values_and_slopes_are_scipys(name, sizes):
    z = np.array([-0.7, 0.2, 0.5, 1.5, 3.0])
    ours, scipys = getattr(fsp, name), getattr(ss, name)
    for a, b in zip(ours(*sizes, z), scipys(*sizes, z)):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    for i in (0, 1):  # (Q, then Q', whose slope is Legendre's equation)
        slope = fg.vmap(fg.jacfwd(lambda t: ours(*sizes, t)[i]))(z)
        want = central(lambda t: scipys(*sizes, t)[i], z)
        np.testing.assert_allclose(np.moveaxis(slope, 0, -1), want, rtol=1e-7, atol=1e-8)


def test_second_kind_is_holomorphic_and_runs_under_jit():
    got = fg.grad(lambda t: fsp.lqn(3, t)[0][2], holomorphic=True)(0.4 + 0.2j)
    assert got == ss.lqn(3, 0.4 + 0.2j)[1][2]
    curvature = fg.jit(fg.grad(lambda t: fsp.lqn(3, t)[1][3]))(0.4)
    np.testing.assert_allclose(curvature, central(lambda t: ss.lqn(3, t)[1][3], 0.4),
                               rtol=1e-7)
    with pytest.raises(ValueError, match="non-negative integer"):
        fsp.lqmn(-1, 2, 0.5)
