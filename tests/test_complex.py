"""Complex numbers and ``np.fft``, end to end, with JAX's convention in the functional API.

References come from outside the code under test: NumPy's values, central differences
that perturb the real and the imaginary part of each input, and the hand-derived rule
that for a real function ``L`` of ``z = x + iy`` JAX's gradient is ``dL/dx - i dL/dy``
(which gives the Cookbook's ``grad(abs(z)**2)(3+4j) == 6-8j``).  Reverse mode is checked
against forward mode by the dot-product test for the real pairing JAX transposes with:
``Re sum(vjp(u) * v) == Re sum(u * jvp(v))``.
"""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

EPS = 1e-6
RNG_SEED = 0


def crandn(rng, shape, dtype=np.complex128):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def rinner(a, b):
    """The real pairing: Re sum(a * b), no conjugation."""
    return float(np.sum(np.real(np.asarray(a) * np.asarray(b))))


def direction(rng, like):
    like = np.asarray(like)
    if like.dtype.kind == "c":
        return crandn(rng, like.shape)
    return rng.standard_normal(like.shape)


def fd_jvp(f, args, vs):
    plus = f(*[a + EPS * v for a, v in zip(args, vs)])
    minus = f(*[a - EPS * v for a, v in zip(args, vs)])
    return (np.asarray(plus) - np.asarray(minus)) / (2 * EPS)


def fd_grad(L, z):
    """JAX's gradient of a real function by central differences: dL/dx - i dL/dy (dL/dx
    alone for a real ``z``: functions of real signals, rfft, refuse complex ones)."""
    real = np.asarray(z).dtype.kind != "c"
    z = np.asarray(z, float if real else complex)
    g = np.zeros(z.shape, complex)
    for idx in np.ndindex(z.shape):
        e = np.zeros(z.shape)
        e[idx] = EPS
        dx = (L(z + e) - L(z - e)) / (2 * EPS)
        dy = 0.0 if real else (L(z + 1j * e) - L(z - 1j * e)) / (2 * EPS)
        g[idx] = dx - 1j * dy
    return g


# --- the operations: (name, f, inputs) with a NumPy reference where f is not NumPy itself ------

def _z(shape=(3,), scale=1.0, shift=0.0):
    return lambda rng: crandn(rng, shape) * scale + shift


def _x(shape=(3,)):
    return lambda rng: rng.standard_normal(shape)


UNARY = ["exp", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "arcsin",
         "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "square", "reciprocal",
         "negative", "expm1", "log1p", "log2", "log10", "exp2", "abs", "real", "imag", "conj",
         "angle", "sign"]

OPS = [(name, (lambda name: lambda m, z: getattr(m, name)(z))(name), [_z(scale=0.5, shift=0.3)])
       for name in UNARY] + [
    ("add", lambda m, a, b: m.add(a, b), [_z(), _z()]),
    ("subtract", lambda m, a, b: a - b, [_z(), _z()]),
    ("multiply", lambda m, a, b: m.multiply(a, b), [_z(), _z()]),
    ("multiply_real_by_complex", lambda m, a, b: a * b, [_x(), _z()]),
    ("divide", lambda m, a, b: a / b, [_z(), _z(shift=2.0)]),
    ("power", lambda m, a, b: m.power(a, b), [_z(scale=0.5, shift=1.0), _z(scale=0.5)]),
    ("float_power", lambda m, a, b: m.float_power(a, b), [_z(scale=0.5, shift=1.0), _z()]),
    ("power_int", lambda m, a: a ** 3, [_z()]),
    ("real_base_power", lambda m, a: 2.0 ** a, [_z()]),
    ("abs_squared", lambda m, z: m.abs(z) ** 2, [_z()]),
    ("dot_real_part", lambda m, z: z.real * z.imag, [_z()]),
    ("conj_method", lambda m, z: z.conj() * z, [_z()]),
    ("vdot", lambda m, a, b: m.vdot(a, b), [_z(), _z()]),
    ("sum", lambda m, z: m.sum(z, axis=0), [_z((2, 3))]),
    ("prod", lambda m, z: m.prod(z, axis=1), [_z((2, 3))]),
    ("mean", lambda m, z: m.mean(z), [_z((2, 3))]),
    ("cumsum", lambda m, z: m.cumsum(z, axis=1), [_z((2, 3))]),
    ("var", lambda m, z: m.var(z, axis=0), [_z((3, 2))]),
    ("nanvar", lambda m, z: m.nanvar(z, axis=0, ddof=1), [_z((3, 2))]),
    ("nanstd", lambda m, z: m.nanstd(z), [_z((3, 2))]),
    ("norm", lambda m, z: m.linalg.norm(z), [_z((2, 3))]),
    ("matmul", lambda m, a, b: a @ b, [_z((2, 3)), _z((3, 2))]),
    ("einsum", lambda m, a, b: m.einsum("ij,jk->ik", a, b), [_z((2, 3)), _z((3, 2))]),
    ("solve", lambda m, a, b: m.linalg.solve(a, b), [_z((3, 3), shift=2.0), _z((3,))]),
    ("inv", lambda m, a: m.linalg.inv(a), [_z((3, 3), shift=2.0)]),
    ("det", lambda m, a: m.linalg.det(a), [_z((3, 3))]),
    ("sort_complex", lambda m, z: m.sort_complex(z) * 1.0, [_z((4,))]),
    # the decompositions, through functions that do not depend on the phase of each
    # singular or eigen vector (the only ones with derivatives, as PyTorch documents)
    ("svd", lambda m, a: _phase_free_svd(m, a), [_z((4, 3))]),
    ("svd_wide_full", lambda m, a: _phase_free_svd(m, a, True), [_z((2, 4))]),
    ("svdvals", lambda m, a: m.linalg.svdvals(a) if m is fnp else m.linalg.svd(a)[1],
     [_z((2, 3, 3))]),
    ("eigh", lambda m, a: (lambda w, v: _flat(m, w, m.abs(v) ** 2, v[:, :1] @ m.conj(
        v[:, :1].T)))(*m.linalg.eigh(a)), [_z((3, 3))]),
    ("eigh_upper", lambda m, a: m.abs(m.linalg.eigh(a, "U")[1]), [_z((3, 3))]),
    ("eigvalsh", lambda m, a: m.linalg.eigvalsh(a), [_z((3, 3))]),
    ("qr", lambda m, a: _flat(m, *m.linalg.qr(a)), [_z((4, 3))]),
    ("qr_wide", lambda m, a: _flat(m, *m.linalg.qr(a)), [_z((2, 4))]),
    ("qr_complete_r", lambda m, a: m.linalg.qr(a, "complete")[1], [_z((4, 2))]),
    ("pinv", lambda m, a: m.linalg.pinv(a), [_z((3, 2))]),
    ("pinv_hermitian", lambda m, a: m.linalg.pinv(a, hermitian=True), [_z((3, 3))]),
    ("eig", lambda m, a: (lambda w, v: _flat(m, w, m.abs(v)))(*m.linalg.eig(a)),
     [_z((3, 3))]),
    ("eigvals", lambda m, a: m.linalg.eigvals(a), [_z((3, 3))]),
    # np.fft, with n/s, axes and norm
    ("fft", lambda m, z: m.fft.fft(z), [_z((3, 4))]),
    ("fft_n_axis_ortho", lambda m, z: m.fft.fft(z, 6, axis=0, norm="ortho"), [_z((3, 4))]),
    ("fft_crop", lambda m, z: m.fft.fft(z, 3), [_z((2, 5))]),
    ("ifft", lambda m, z: m.fft.ifft(z, 5, norm="forward"), [_z((2, 4))]),
    ("fft_of_real", lambda m, x: m.fft.fft(x), [_x((5,))]),
    ("rfft", lambda m, x: m.fft.rfft(x), [_x((2, 6))]),
    ("rfft_n_odd", lambda m, x: m.fft.rfft(x, 7, axis=0, norm="ortho"), [_x((4, 2))]),
    ("irfft", lambda m, z: m.fft.irfft(z), [_z((2, 4))]),
    ("irfft_n_odd", lambda m, z: m.fft.irfft(z, 7, norm="ortho"), [_z((2, 4))]),
    ("irfft_crop", lambda m, z: m.fft.irfft(z, 4, axis=0, norm="forward"), [_z((5, 2))]),
    ("hfft", lambda m, z: m.fft.hfft(z), [_z((4,))]),
    ("ihfft", lambda m, x: m.fft.ihfft(x, 5), [_x((6,))]),
    ("fft2", lambda m, z: m.fft.fft2(z), [_z((3, 4))]),
    ("ifft2", lambda m, z: m.fft.ifft2(z, s=(4, 2)), [_z((3, 4))]),
    ("fftn", lambda m, z: m.fft.fftn(z, axes=(0, 2)), [_z((2, 3, 2))]),
    ("ifftn", lambda m, z: m.fft.ifftn(z), [_z((2, 3))]),
    ("rfft2", lambda m, x: m.fft.rfft2(x), [_x((3, 4))]),
    ("irfft2", lambda m, z: m.fft.irfft2(z, s=(3, 5)), [_z((3, 3))]),
    ("rfftn", lambda m, x: m.fft.rfftn(x, s=(4, 3), axes=(0, 1)), [_x((3, 4))]),
    ("irfftn", lambda m, z: m.fft.irfftn(z, axes=(0,)), [_z((3, 2))]),
    ("fftshift", lambda m, z: m.fft.fftshift(z), [_z((3, 4))]),
    ("ifftshift", lambda m, z: m.fft.ifftshift(z, axes=1), [_z((3, 4))]),
]
IDS = [op[0] for op in OPS]


def _phase_free_svd(m, a, full=False):
    """svd's outputs through functions of them that do not depend on the phases (nor, with
    ``full``, on the basis picked for the columns past min(M, N))."""
    u, s, vh = m.linalg.svd(a, full_matrices=full)
    k = s.shape[-1]
    u1, vh1 = u[..., :k], vh[..., :k, :]
    outs = (s, m.abs(u1) ** 2, m.abs(vh1), (u1 * s[..., None, :]) @ vh1, u1[:, :1] * vh1[:1])
    if full:
        outs += (u[:, k:] @ m.conj(u[:, k:].T), m.conj(vh[k:].T) @ vh[k:])
    return _flat(m, *outs)


def _flat(m, *outs):
    """Several outputs as one complex vector (the checks here take one output)."""
    return m.concatenate([m.ravel(o) * (1 + 0j) for o in outs])


def _args(op, seed=RNG_SEED):
    rng = np.random.default_rng(seed)
    return [gen(rng) for gen in op[2]]


def _f(op, m=fnp):
    return lambda *args: op[1](m, *args)


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_value_matches_numpy(op):
    args = _args(op)
    got, want = _f(op)(*args), _f(op, np)(*args)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_jvp_matches_differences_along_real_and_imaginary_directions(op):
    args = _args(op)
    rng = np.random.default_rng(1)
    f = _f(op)
    for part in ("real", "imag", "both"):
        vs = []
        for a in args:
            v = direction(rng, a)
            if a.dtype.kind == "c" and part != "both":
                v = v.real if part == "real" else 1j * v.imag
            vs.append(v.astype(a.dtype))
        _, t = fg.jvp(f, tuple(args), tuple(vs))
        np.testing.assert_allclose(t, fd_jvp(f, args, vs), rtol=1e-5, atol=1e-6,
                                   err_msg=f"direction: {part}")


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_dot_product_real_pairing(op):
    """Re <vjp(u), v> == Re <u, jvp(v)>: reverse mode is the transpose of forward mode."""
    args = _args(op)
    rng = np.random.default_rng(2)
    f = _f(op)
    vs = [direction(rng, a) for a in args]
    out, t = fg.jvp(f, tuple(args), tuple(vs))
    _, vjp_fn = fg.vjp(f, *args)
    u = direction(rng, out)
    cts = vjp_fn(u)
    for ct, a in zip(cts, args):
        assert ct.dtype == a.dtype and ct.shape == a.shape
    lhs = sum(rinner(c, v) for c, v in zip(cts, vs))
    np.testing.assert_allclose(lhs, rinner(u, t), rtol=1e-10, atol=1e-10)


def _real_loss(op, weights):
    """A real scalar of the op's output: Re sum(w * f), so its gradient exercises the
    whole vjp."""
    f = _f(op)

    def loss(*args):
        return fnp.real(fnp.sum(f(*args) * weights))
    return loss


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_grad_is_d_dx_minus_i_d_dy(op):
    args = _args(op)
    w = direction(np.random.default_rng(3), _f(op)(*args))
    loss = _real_loss(op, w)
    grads = fg.grad(loss, argnums=tuple(range(len(args))))(*args)
    for k, (g, a) in enumerate(zip(grads, args)):
        def L(zk, k=k):
            return float(loss(*[zk if j == k else b for j, b in enumerate(args)]))
        want = fd_grad(L, a)
        if a.dtype.kind != "c":
            want = want.real
        np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_second_order(op):
    """fwd-over-rev of the gradient equals its central differences, and its reverse mode
    (rev-over-rev) is the transpose of that forward mode."""
    args = _args(op)
    rng = np.random.default_rng(4)
    w = direction(rng, _f(op)(*args))
    loss = _real_loss(op, w)
    grad0 = fg.grad(loss)

    def g0(z):
        return grad0(z, *args[1:])
    v = direction(rng, args[0])
    _, hv = fg.jvp(g0, (args[0],), (v,))
    np.testing.assert_allclose(hv, fd_jvp(g0, [args[0]], [v]), rtol=1e-4, atol=1e-5)
    u = direction(rng, args[0])
    (uh,) = fg.vjp(g0, args[0])[1](u)
    np.testing.assert_allclose(rinner(uh, v), rinner(u, hv), rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_vmap_equals_stacking(op):
    rng = np.random.default_rng(5)
    batches = [_args(op, seed) for seed in range(3)]
    stacked = [np.stack([b[k] for b in batches]) for k in range(len(batches[0]))]
    f = _f(op)
    want = np.stack([np.asarray(f(*b)) for b in batches])
    np.testing.assert_allclose(fg.vmap(f)(*stacked), want, rtol=1e-12, atol=1e-12)
    w = direction(rng, f(*batches[0]))
    loss = _real_loss(op, w)
    grads = fg.vmap(fg.grad(loss))(*stacked)
    np.testing.assert_allclose(grads, np.stack([fg.grad(loss)(*b) for b in batches]),
                               rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_complex64_stays_complex64(op):
    args = [a.astype(np.complex64 if a.dtype.kind == "c" else np.float32) for a in _args(op)]
    f = _f(op)
    out = np.asarray(f(*args))
    want = np.asarray(_f(op, np)(*args))
    assert out.dtype == want.dtype
    # float_power computes in double precision, as NumPy's
    assert out.dtype in ((np.complex128,) if op[0] == "float_power" else (np.complex64, np.float32))
    w = direction(np.random.default_rng(6), out).astype(out.dtype)
    grads = fg.grad(_real_loss(op, w), argnums=tuple(range(len(args))))(*args)
    assert [g.dtype for g in grads] == [a.dtype for a in args]


# --- JAX's conventions, the Autodiff Cookbook's examples ------------------------------------

def test_grad_of_squared_magnitude_is_conjugate_direction():
    assert complex(fg.grad(lambda z: np.abs(z) ** 2)(3 + 4j)) == pytest.approx(6 - 8j)


def test_grad_of_real_function_written_with_parts():
    def f(z):
        x, y = np.real(z), np.imag(z)
        return x ** 2 + y ** 2
    assert complex(fg.grad(f)(3 + 4j)) == pytest.approx(6 - 8j)


def test_holomorphic_grad_of_sin_is_cos():
    z = 0.7 - 1.3j
    assert complex(fg.grad(np.sin, holomorphic=True)(z)) == pytest.approx(np.cos(z))
    value, g = fg.value_and_grad(np.exp, holomorphic=True)(z)
    assert complex(value) == pytest.approx(np.exp(z)) and complex(g) == pytest.approx(np.exp(z))


def test_holomorphic_jacobians_agree():
    rng = np.random.default_rng(7)
    z = crandn(rng, (3,))
    A = crandn(rng, (3, 3))

    def f(z):
        return np.sin(A @ z) * z
    want = np.diag(np.cos(A @ z) * z) @ A + np.diag(np.sin(A @ z))
    for jac in (fg.jacfwd, fg.jacrev, fg.jacobian):
        np.testing.assert_allclose(jac(f, holomorphic=True)(z), want, rtol=1e-12, atol=1e-12)
    hess = fg.hessian(lambda z: np.sum(z ** 3), holomorphic=True)(z)
    np.testing.assert_allclose(hess, np.diag(6 * z), rtol=1e-12)


def test_jacrev_of_real_function_of_complex_input_gives_jax_rows():
    z = np.array([3 + 4j, 1 - 2j])
    np.testing.assert_allclose(fg.jacrev(lambda z: np.abs(z) ** 2)(z), np.diag(2 * np.conj(z)))


def test_linearize_and_jit_on_complex():
    z = np.array([0.5 + 1j, -1 + 0.25j])
    y, f_jvp = fg.linearize(np.exp, z)
    np.testing.assert_allclose(f_jvp(1j * np.ones(2)), 1j * np.exp(z))
    loss = lambda z: np.sum(np.abs(np.sin(z)) ** 2)  # noqa: E731
    np.testing.assert_allclose(fg.jit(fg.grad(loss))(z), fg.grad(loss)(z), rtol=1e-12)
    np.testing.assert_allclose(fg.jit(lambda z: np.fft.fft(z * np.conj(z)))(z),
                               np.fft.fft(z * np.conj(z)), rtol=1e-12)


def test_forward_ad_dual_numbers_carry_complex_tangents():
    import funcgrad.forward_ad as fwAD
    z, t = np.array([1 + 1j]), np.array([2 - 1j])
    with fwAD.dual_level():
        out = np.sin(fwAD.make_dual(z, t))
        primal, tangent = fwAD.unpack_dual(out)
    np.testing.assert_allclose(primal, np.sin(z))
    np.testing.assert_allclose(tangent, np.cos(z) * t)


def test_promotion_follows_numpy():
    def f(x):
        out = x + 1j
        assert out.dtype == np.complex128
        return np.abs(out) ** 2
    assert fg.grad(f)(2.0) == pytest.approx(4.0)  # d/dx (x**2 + 1)
    z64 = np.complex64(1 + 1j)
    assert fg.grad(lambda z: np.abs(z * 2.0) ** 2)(z64).dtype == np.complex64


def test_real_conj_imag_are_not_the_identity_any_more():
    z = np.array([1 + 2j])
    np.testing.assert_array_equal(fnp.real(z), [1.0])
    np.testing.assert_array_equal(fnp.conj(z), [1 - 2j])
    out = fg.vmap(lambda z: (z.real, z.imag, z.conj(), np.conjugate(z)))(z)
    np.testing.assert_array_equal(out[0], [1.0])
    np.testing.assert_array_equal(out[1], [2.0])
    np.testing.assert_array_equal(out[2], [1 - 2j])
    np.testing.assert_array_equal(out[3], [1 - 2j])


def test_np_fft_on_traced_values_routes_to_funcgrad():
    x = np.array([1.0, 2.0, 0.5, -1.0])
    g = fg.grad(lambda x: np.sum(np.abs(np.fft.fft(x)) ** 2))(x)
    np.testing.assert_allclose(g, 2 * len(x) * x)  # Parseval
    # sum(fftfreq(4, d)) = -0.5 / d
    np.testing.assert_allclose(fg.grad(lambda d: np.sum(fnp.fft.fftfreq(4, d)))(0.5), 2.0)


def test_real_if_close_drops_a_negligible_imaginary_part():
    x = np.array([1.5, -2.0])
    f = lambda x: fnp.real_if_close(x + 1e-17j) * x  # noqa: E731
    assert f(x).dtype == np.float64
    np.testing.assert_allclose(fg.grad(lambda x: np.sum(f(x)))(x), 2 * x)
    assert fnp.real_if_close(np.array([1 + 1j])).dtype == np.complex128


# --- bad input stays a clear error ----------------------------------------------------------

def test_holomorphic_on_real_input_raises():
    with pytest.raises(TypeError, match=r"holomorphic=True\) needs complex inputs"):
        fg.grad(np.sin, holomorphic=True)(1.0)
    with pytest.raises(TypeError, match=r"holomorphic=True\) needs complex inputs"):
        fg.jacfwd(np.sin, holomorphic=True)(np.ones(2))


def test_complex_output_without_holomorphic_raises_naming_it():
    with pytest.raises(TypeError, match="complex.*holomorphic=True"):
        fg.grad(np.sin)(1 + 1j)
    with pytest.raises(TypeError, match="complex.*holomorphic=True"):
        fg.jacrev(np.sin)(np.array([1 + 1j]))
    with pytest.raises(TypeError, match="holomorphic=True"):
        fg.jacfwd(np.abs)(np.array([1 + 1j]))


def test_holomorphic_with_real_output_raises():
    with pytest.raises(TypeError, match="needs a complex output"):
        fg.grad(lambda z: np.abs(z), holomorphic=True)(1 + 1j)


def test_complex_tangent_for_real_primal_raises():
    with pytest.raises(TypeError, match="tangent 0 is complex"):
        fg.jvp(np.sin, (1.0,), (1j,))


def test_complex_cotangent_for_real_output_raises():
    _, vjp_fn = fg.vjp(np.abs, np.array([1 + 1j]))
    with pytest.raises(TypeError, match="cotangent 0 is complex"):
        vjp_fn(np.array([1j]))


@pytest.mark.parametrize("name", ["quantile", "percentile", "nanquantile", "nanpercentile"])
def test_quantiles_of_complex_values_raise_as_numpy(name):
    """NumPy refuses to rank complex numbers here (funcgrad returned a lexicographic pick)."""
    z = np.array([1 + 2j, 3 - 1j, 0.5 + 0j])
    with pytest.raises(TypeError, match="a must be an array of real numbers"):
        getattr(fnp, name)(z, 0.5)
    with pytest.raises(TypeError, match="a must be an array of real numbers"):
        fg.grad(lambda z: np.abs(getattr(np, name)(z, 0.5)))(z)


def test_histograms_of_complex_values_raise_naming_the_real_alternatives():
    """(Eagerly a bare float() TypeError; under jit, counts that differed from NumPy's.)"""
    z = np.array([1 + 2j, 3 - 1j, 0.5 + 0j])
    for call in (lambda: fnp.histogram(z), lambda: fnp.histogram(z, bins=np.arange(4.0)),
                 lambda: fnp.histogram_bin_edges(z), lambda: fnp.histogram2d(z, z),
                 lambda: fg.jit(lambda z: np.histogram(z)[0])(z)):
        with pytest.raises(TypeError, match=r"complex values have no order.*np\.abs\(a\)"):
            call()


@pytest.mark.parametrize("name, nargs", [
    ("signbit", 1), ("spacing", 1), ("frexp", 1), ("modf", 1), ("copysign", 2),
    ("nextafter", 2), ("heaviside", 2), ("fmod", 2), ("divmod", 2)])
def test_float_functions_refuse_complex_values_as_numpy(name, nargs):
    """NumPy has no loop for these on complex numbers; copysign, signbit, spacing, frexp,
    nextafter and heaviside returned values (a real copysign of complex inputs) instead."""
    args = (np.array([1 + 2j, -0.5 + 0.3j]), np.array([0.3 - 1j, 2 + 0.1j]))[:nargs]
    with pytest.raises(TypeError):
        getattr(np, name)(*args)
    with pytest.raises(TypeError, match=f"{name}: complex values are not supported"):
        getattr(fnp, name)(*args)
    with pytest.raises(TypeError, match=f"{name}: complex values are not supported"):
        fg.jit(getattr(np, name))(*args)


def test_fft_bad_norm_and_length_raise():
    with pytest.raises(ValueError, match="Invalid norm"):
        fg.grad(lambda x: np.sum(np.abs(np.fft.fft(x, norm="bogus"))))(np.ones(2))
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        fnp.fft.fft(np.ones(2), 0)


# --- the eager Tensor: PyTorch's convention, the conjugate of JAX's ---------------------------

def test_tensor_grad_is_the_conjugate_of_jax():
    z = fg.Tensor(np.complex128(3 + 4j), requires_grad=True)
    (z.abs() ** 2).backward()
    assert complex(z.grad.detach()) == pytest.approx(6 + 8j)
    w = fg.Tensor(np.array([3 + 4j, 1 - 2j]), requires_grad=True)
    (w.real * w.imag).sum().backward()  # d/dx + i d/dy of x*y
    np.testing.assert_allclose(w.grad.detach(), [4 + 3j, -2 + 1j])


def test_tensor_holomorphic_backward_with_gradient_is_v_times_conj_derivative():
    z = np.array([1 + 1j, 2 - 1j])
    v = np.array([1 + 0j, 1j])
    w = fg.Tensor(z, requires_grad=True)
    (w * w).sin().backward(gradient=v)
    np.testing.assert_allclose(w.grad.detach(), v * np.conj(np.cos(z * z) * 2 * z))


def test_tensor_norm_of_complex_is_real_and_its_grad_is_z_over_norm():
    z = np.array([[3 + 4j, 1 - 2j], [0.5j, -1.0 + 0j]])
    for dtype, real in ((np.complex128, np.float64), (np.complex64, np.float32)):
        w = fg.Tensor(z.astype(dtype), requires_grad=True)
        out = w.norm()
        assert out.dtype == real
        assert float(out.detach()) == pytest.approx(np.sqrt(np.sum(np.abs(z) ** 2)), rel=1e-6)
        out.backward()  # PyTorch's gradient: d/dx + i d/dy of sqrt(sum x**2 + y**2)
        assert w.grad.dtype == dtype
        np.testing.assert_allclose(w.grad.detach(), z / np.linalg.norm(z), rtol=1e-6)
    w = fg.Tensor(z, requires_grad=True)
    w.norm(dim=1).sum().backward()
    np.testing.assert_allclose(w.grad.detach(), z / np.linalg.norm(z, axis=1, keepdims=True))


def test_tensor_logdet_of_complex_is_the_complex_log_of_det():
    rng = np.random.default_rng(10)
    a, wt = crandn(rng, (3, 3)), crandn(rng, ())
    w = fg.Tensor(a, requires_grad=True)
    out = w.logdet()
    np.testing.assert_allclose(np.exp(out.detach()), np.linalg.det(a), rtol=1e-12)
    np.testing.assert_allclose(out.detach().real, np.log(np.abs(np.linalg.det(a))), rtol=1e-12)
    (out * wt).real.backward()

    def loss(m):  # Re(w log det m), smooth where det stays off the branch cut
        return float(np.real(wt * (np.log(np.abs(np.linalg.det(m))) +
                                   1j * np.angle(np.linalg.det(m)))))
    np.testing.assert_allclose(w.grad.detach(), np.conj(fd_grad(loss, a)), atol=1e-6)


def test_sigmoid_of_complex_values_as_jax_nn_and_torch():
    """nn.sigmoid and Tensor.sigmoid of complex values: 1 / (1 + e**-z), holomorphic (the
    real kernel raised NumPy's ufunc TypeError)."""
    import funcgrad.nn as nn
    z = np.array([0.3 + 0.5j, -2.0 - 1.0j])
    want = 1 / (1 + np.exp(-z))
    np.testing.assert_allclose(nn.sigmoid(z), want, rtol=1e-12)
    assert nn.sigmoid(z.astype(np.complex64)).dtype == np.complex64
    np.testing.assert_allclose(fg.jacfwd(nn.sigmoid, holomorphic=True)(z),
                               np.diag(want * (1 - want)), rtol=1e-12)
    w = fg.Tensor(z, requires_grad=True)
    out = w.sigmoid()
    np.testing.assert_allclose(out.detach(), want, rtol=1e-12)
    (out.abs() ** 2).sum().backward()
    loss = lambda z: float(np.sum(np.abs(1 / (1 + np.exp(-z))) ** 2))  # noqa: E731
    np.testing.assert_allclose(w.grad.detach(), np.conj(fd_grad(loss, z)), atol=1e-6)


def test_tensor_sign_of_complex_raises_as_pytorch_and_sgn_differentiates():
    """(sign's zero gradient was silently wrong for complex values, whose sign moves.)"""
    w = fg.Tensor(np.array([3 + 4j, -1 + 0j]), requires_grad=True)
    with pytest.raises(NotImplementedError, match=r"Please use \.sgn\(\) instead"):
        w.sign()
    w.sgn().real.sum().backward()  # d/dx + i d/dy of x / |z|: (y**2 - i x y) / |z|**3
    np.testing.assert_allclose(w.grad.detach(), [(16 - 12j) / 125, 0j], atol=1e-15)


def test_tensor_complex_scalar_without_gradient_raises():
    z = fg.Tensor(np.complex128(1 + 1j), requires_grad=True)
    with pytest.raises(RuntimeError, match="real scalar outputs"):
        (z * z).backward()


def _hermitian_pd(rng, n):
    w = crandn(rng, (n, n))
    return w @ w.conj().T + n * np.eye(n)


def test_complex_cholesky_derivatives_match_finite_differences():
    """L L^H = A: the JVP along a Hermitian direction, and the gradient of a real loss
    (JAX's convention), against central differences."""
    rng = np.random.default_rng(7)
    a = _hermitian_pd(rng, 3)
    t = crandn(rng, (3, 3))
    t = t + t.conj().T
    _, tangent = fg.jvp(np.linalg.cholesky, (a,), (t,))
    np.testing.assert_allclose(tangent, fd_jvp(np.linalg.cholesky, [a], [t]), atol=1e-7)
    w = crandn(rng, (3, 3))

    def loss(m):  # of a Hermitian matrix built from m, so every direction stays valid
        low = np.linalg.cholesky(m @ m.conj().T + 3 * np.eye(3))
        return np.real(np.sum(low * w))

    m = crandn(rng, (3, 3))
    np.testing.assert_allclose(fg.grad(loss)(m), fd_grad(loss, m), atol=1e-6)


def test_complex_slogdet_sign_has_a_derivative_and_log_abs_det_a_real_one():
    rng = np.random.default_rng(8)
    a, t = crandn(rng, (3, 3)), crandn(rng, (3, 3))
    (sign, logdet), (dsign, dlog) = fg.jvp(np.linalg.slogdet, (a,), (t,))
    assert np.asarray(dlog).dtype == np.float64 and np.asarray(dsign).dtype == np.complex128
    np.testing.assert_allclose(dsign, fd_jvp(lambda m: np.linalg.slogdet(m)[0], [a], [t]),
                               atol=1e-7)
    np.testing.assert_allclose(dlog, fd_jvp(lambda m: np.linalg.slogdet(m)[1], [a], [t]),
                               atol=1e-7)
    for part in (np.real, np.imag):
        loss = lambda m, part=part: part(np.linalg.slogdet(m)[0]) + np.linalg.slogdet(m)[1]  # noqa: E731
        np.testing.assert_allclose(fg.grad(loss)(a), fd_grad(loss, a), atol=1e-6)


def test_a_loss_depending_on_the_phase_of_complex_vectors_is_refused_as_pytorch():
    """v_i -> v_i e^{i phi} leaves the matrix's decomposition valid, so a loss that changes
    with phi has no derivative; one that does not (in one call) is differentiated."""
    rng = np.random.default_rng(9)
    a = crandn(rng, (3, 3))
    for name, loss in [("eig", lambda a: np.sum(np.linalg.eig(a)[1].real)),
                       ("eigh", lambda a: np.sum(np.linalg.eigh(a)[1].imag)),
                       ("svd", lambda a: np.sum(np.linalg.svd(a)[0].real)),
                       ("svd", lambda a: np.sum(np.linalg.svd(a)[2].real))]:
        with pytest.raises(ValueError, match=f"{name}: .*depends on the phases"):
            fg.grad(loss)(a)

    def projector(a):  # u_0 vh_0: the phase cancels
        u, s, vh = np.linalg.svd(a)
        return np.sum(np.real(u[:, :1] * vh[:1] * a))
    np.testing.assert_allclose(fg.grad(projector)(a), fd_grad(projector, a), atol=1e-6)
