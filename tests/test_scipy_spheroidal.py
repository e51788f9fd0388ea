"""The spheroidal wave functions of scipy.special (session 24): SciPy's values, the
x-derivatives against central differences of SciPy's values, float32 kept, one jit/vmap
check, clear errors for the derivatives there are none of, and NaN (no hang, no abort)
where SciPy's own routines would hang or crash the process."""
import numpy as np
import pytest
import scipy.special as ss

import funcgrad as fg
import funcgrad.scipy.special as fsp

H = 1e-5
M, N, C = 1, 2, 1.5
# (points where SciPy's second kinds are accurate: below c x ~ 2 its pro_rad2, obl_rad2
# lose digits, and their sp stops being the slope of their s)
POINTS = {"pro_ang1": [-0.5, 0.3, 0.9], "obl_ang1": [-0.5, 0.3], "pro_rad1": [1.3, 2.5],
          "pro_rad2": [2.5, 4.0], "obl_rad1": [0.3, 1.5, 2.5], "obl_rad2": [2.5, 4.0]}
CV = {"pro": ss.pro_cv, "obl": ss.obl_cv}


def central(f, x, h=H):
    return (f(x + h) - f(x - h)) / (2 * h)


@pytest.mark.parametrize("name", sorted(POINTS))
def test_spheroidal_values_and_x_derivatives_are_scipys(name):
    x = np.array(POINTS[name])
    ours, scipys = getattr(fsp, name), getattr(ss, name)
    s, sp = ours(M, N, C, x)
    want_s, want_sp = scipys(M, N, C, x)
    np.testing.assert_array_equal(s, want_s)
    np.testing.assert_array_equal(sp, want_sp)

    def value(x):
        return ours(M, N, C, x)[0]
    slope = fg.vmap(fg.grad(value))(x)
    np.testing.assert_array_equal(slope, want_sp)
    # (second and third orders: the spheroidal wave equation, against differences of
    # SciPy's sp)
    second = fg.vmap(fg.grad(fg.grad(value)))(x)
    np.testing.assert_allclose(second, central(lambda t: scipys(M, N, C, t)[1], x),
                               rtol=1e-6, atol=1e-8)
    third = fg.vmap(fg.grad(fg.grad(fg.grad(value))))(x)
    h = 1e-4
    sp_of = lambda t: scipys(M, N, C, t)[1]  # noqa: E731
    np.testing.assert_allclose(third, (sp_of(x + h) - 2 * sp_of(x) + sp_of(x - h)) / h**2,
                               rtol=1e-5, atol=1e-6)
    # the twin taking the characteristic value: the same values and derivatives
    cv = CV[name[:3]](M, N, C)
    ours_cv = getattr(fsp, f"{name}_cv")
    s_cv, sp_cv = ours_cv(M, N, C, cv, x)
    np.testing.assert_array_equal(s_cv, want_s)
    np.testing.assert_array_equal(sp_cv, want_sp)
    np.testing.assert_allclose(fg.vmap(fg.grad(fg.grad(lambda t: ours_cv(M, N, C, cv, t)[0])))(x),
                               second, rtol=1e-13)
    # float32 in, float32 out (SciPy's own float32 loops never return: its float64 one)
    args32 = [np.float32(a) for a in (M, N, C, x[0])]
    s32, sp32 = ours(*args32)
    assert s32.dtype == sp32.dtype == np.float32
    assert fg.grad(lambda t: ours(*args32[:3], t)[0])(args32[3]).dtype == np.float32
    np.testing.assert_allclose([s32, sp32], [want_s[0], want_sp[0]], rtol=1e-5)


def test_characteristic_values_and_sequences_are_scipys():
    c = np.array([0.0, 0.5, 1.5, 4.0])
    for name in ("pro_cv", "obl_cv"):
        np.testing.assert_array_equal(getattr(fsp, name)(M, N, c), getattr(ss, name)(M, N, c))
    for name in ("pro_cv_seq", "obl_cv_seq"):
        np.testing.assert_array_equal(getattr(fsp, name)(1, 4, 2.5), getattr(ss, name)(1, 4, 2.5))
    with pytest.raises(TypeError, match=r"pro_cv_seq\(m, n, c\).*plain numbers"):
        fg.grad(lambda c: fsp.pro_cv_seq(0, 3, c)[0])(1.5)
    with pytest.raises(ValueError, match=r"c must be a finite number >= 0"):
        fsp.obl_cv_seq(0, 3, float("nan"))
    with pytest.raises(ValueError, match=r"c \+ \(n - m\)/2 must be at most"):
        fsp.pro_cv_seq(0, 3, 400.0)


@pytest.mark.parametrize("call, argument", [
    (lambda v: fsp.pro_ang1(M, N, v, 0.3)[0], "c"),
    (lambda v: fsp.obl_rad2(v, N, C, 2.5)[1], "m"),
    (lambda v: fsp.pro_rad1(M, v, C, 1.5)[0], "n"),
    (lambda v: fsp.obl_ang1_cv(M, N, C, v, 0.3)[0], "cv"),
    (lambda v: fsp.pro_cv(M, N, v), "c"),
    (lambda v: ss.obl_cv(M, N, v), "c"),  # (SciPy's own ufunc reaches the twin)
], ids=["pro_ang1-c", "obl_rad2-m", "pro_rad1-n", "obl_ang1_cv-cv", "pro_cv-c", "ss.obl_cv-c"])
def test_no_derivative_in_the_parameters_is_a_clear_error(call, argument):
    with pytest.raises(NotImplementedError,
                       match=rf"with respect to {argument} is not implemented.*"
                             rf"stop_gradient\({argument}\)"):
        fg.grad(call)(2.0)


def test_spheroidal_under_jit_and_vmap():
    x = np.array([0.2, 0.7])
    f = fg.jit(fg.vmap(fg.grad(lambda t: fsp.obl_rad1(M, N, C, t)[0])))
    np.testing.assert_array_equal(f(x), ss.obl_rad1(M, N, C, x)[1])


def test_parameters_that_hang_or_abort_scipy_give_nan():
    # (SciPy 1.17: c = NaN or inf never returns; c + (n - m)/2 past ~104 overruns its work
    # arrays and aborts the process; a negative c gives c = 0's functions)
    c = np.array([np.nan, np.inf, -1.5, 400.0])
    assert np.isnan(fsp.pro_cv(M, N, c)).all()
    assert np.isnan(fsp.obl_rad2(M, N, c, 2.5)[0]).all()
    assert np.isnan(fsp.pro_ang1(0, 198, 21.0, 0.3)[1])
    # (inside the guard: SciPy's value)
    assert fsp.pro_rad1(0, 100, 20.0, 1.5)[0] == ss.pro_rad1(0, 100, 20.0, 1.5)[0]
