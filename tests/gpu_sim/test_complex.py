"""Complex GPU arrays equal the CPU: every elementwise primitive with a complex GPU
kernel (funcgrad/gpu/complex_code.py), casts, reductions, matmul, derivatives; and every
operation without one refuses complex operands with a TypeError naming the host copy."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.gpu import IMPLS
from funcgrad.gpu.complex_code import DEFINITIONS

from conftest import assert_same

COMPLEX = [np.complex128, np.complex64]


def gpu(x):
    return fg.device_put(x, "cuda")


def _values(dtype, shape=(5,), seed=0):
    rng = np.random.default_rng(seed)
    z = rng.uniform(-1.5, 1.5, shape) + 1j * rng.uniform(-1.5, 1.5, shape)
    return z.astype(dtype)


def _tol(dtype):
    return {"rtol": 1e-5, "atol": 1e-5} if np.dtype(dtype) == np.complex64 else {
        "rtol": 1e-12, "atol": 1e-12}


# complex64 for the definitions with formulas of their own (the others are one cmath leaf or
# operator, the same code in either precision): the simulator runs each thread in Python
_OWN_FORMULAS = {"abs", "reciprocal", "divide", "power", "expm1", "log1p", "log2", "exp2",
                 "sqrt", "real", "conj", "isinf"}
CASES = [(p, np.complex128) for p in DEFINITIONS] + [
    (p, np.complex64) for p in DEFINITIONS if p.name in _OWN_FORMULAS]


@pytest.mark.parametrize("prim, dtype", CASES,
                         ids=[f"{p.name}-{np.dtype(d).name}" for p, d in CASES])
def test_every_complex_gpu_kernel_equals_the_cpu(prim, dtype):
    arity = len(prim.elementwise.lins)
    args = [_values(dtype, seed=k) for k in range(arity)]
    if prim.name == "where":
        args[0] = np.array([True, False, True, True, False])
    if prim.name in ("equal", "not_equal"):
        args[1] = np.where([True, False, True, False, False], args[0], args[1])
    if prim.name == "power":  # and the special cases: z ** 0, 0 ** w
        args[0][0], args[1][1], args[1][2] = 0, 0, 2.5
    want = prim.impl(*args)
    got = IMPLS[prim](*[gpu(a) for a in args])
    assert_same(got, want, **_tol(dtype))


def test_complex_kernels_at_zero_and_infinity_give_the_cpu_values():
    z = np.array([0j, 1 + 0j, np.inf + 0j, complex(np.nan, 1.0), -1j])
    for f in (fnp.reciprocal, fnp.abs, fnp.isinf, fnp.isnan, fnp.isfinite):
        assert_same(f(gpu(z)), f(z))
    assert_same(gpu(z) / gpu(np.zeros(5, complex)), z / np.zeros(5, complex))


def test_mixed_real_complex_and_python_scalars_promote_as_numpy():
    x32 = np.array([0.5, -1.0, 2.0], np.float32)
    z = _values(np.complex128, (3,))
    assert_same(gpu(x32) * 1j, x32 * 1j)                 # complex64: the scalar is weak
    assert_same(gpu(x32) + gpu(z), x32 + z)
    assert_same(gpu(z) * 2.5 - (1 + 2j), z * 2.5 - (1 + 2j))
    assert_same(fnp.where(gpu(x32) > 0, gpu(z), 0.0), np.where(x32 > 0, z, 0.0))


@pytest.mark.parametrize("dtype", COMPLEX)
def test_complex_arrays_round_trip_casts_and_concatenate(dtype):
    z = _values(dtype, (2, 3))
    g = gpu(z)
    assert g.dtype == dtype and np.asarray(g).dtype == dtype
    np.testing.assert_array_equal(np.asarray(g), z)
    np.testing.assert_array_equal(np.asarray(g.T), z.T)
    real = np.float32 if dtype == np.complex64 else np.float64
    assert_same(g.astype(real), z.real.astype(real))      # the real part, as funcgrad's cast
    assert_same(g.astype(np.int64), z.real.astype(np.int64))
    assert_same(gpu(z.real).astype(dtype), z.real.astype(dtype))
    assert_same(fnp.concatenate([g, gpu(np.ones((2, 1)))], axis=1),
                np.concatenate([z, np.ones((2, 1))], axis=1))


@pytest.mark.parametrize("dtype", COMPLEX)
def test_complex_reductions_and_matmul(dtype):
    a, b = _values(dtype, (3, 4)), _values(dtype, (4, 2), seed=1)
    tol = _tol(dtype)
    assert_same(fnp.sum(gpu(a), axis=1), np.sum(a, axis=1), **tol)
    assert_same(fnp.mean(gpu(a)), np.mean(a), **tol)
    assert_same(fnp.prod(gpu(a), axis=0), np.prod(a, axis=0), **tol)
    assert_same(fnp.cumsum(gpu(a), axis=1), np.cumsum(a, axis=1), **tol)
    assert_same(gpu(a) @ gpu(b), a @ b, **tol)
    assert_same(fnp.vdot(gpu(a), gpu(a)), np.vdot(a, a), **tol)
    assert_same(gpu(a)[1:, ::2], a[1:, ::2])
    bumped = a.copy()
    bumped[0, 1] += 1j
    assert_same(gpu(a).at[0, 1].add(1j), bumped)


def test_complex_derivatives_on_gpu_equal_the_cpu():
    z = np.array([3 + 4j, -1 + 0.5j])
    f = lambda z: fnp.sum(fnp.abs(z) ** 2 + fnp.real(fnp.sin(z) * fnp.conj(z)))  # noqa: E731
    assert_same(fg.grad(f)(gpu(z)), fg.grad(f)(z))
    np.testing.assert_allclose(np.asarray(fg.grad(lambda z: fnp.abs(z) ** 2)(gpu(3 + 4j))),
                               6 - 8j)                  # JAX's convention
    h = fg.grad(lambda z: fnp.sum(fnp.exp(z) / (z + 2.0)), holomorphic=True)
    assert_same(h(gpu(z)), h(z))
    t = np.array([1.0 - 1j, 0.5j])
    out, tan = fg.jvp(lambda z: fnp.log(z) * fnp.angle(z), (gpu(z),), (gpu(t),))
    want_out, want_tan = fg.jvp(lambda z: fnp.log(z) * fnp.angle(z), (z,), (t,))
    assert_same(out, want_out)
    assert_same(tan, want_tan)
    zs = _values(np.complex64, (3, 2))
    assert_same(fg.vmap(lambda z: fnp.sum(fnp.imag(z * z)))(gpu(zs)),
                fg.vmap(lambda z: fnp.sum(fnp.imag(z * z)))(zs), rtol=1e-5, atol=1e-6)


def test_operations_without_a_complex_gpu_kernel_refuse_naming_the_host_copy():
    g = gpu(_values(np.complex128, (2, 2)))
    for f in (lambda: fnp.maximum(g, g), lambda: g < gpu(np.zeros((2, 2))), lambda: fnp.max(g), lambda: fnp.argmax(g), lambda: fnp.sort(g),
              lambda: fnp.linalg.inv(g), lambda: fnp.linalg.det(g),
              lambda: g.at[0].max(1j), lambda: fnp.linalg.solve(gpu(np.eye(2)), g)):
        with pytest.raises(TypeError, match=r"device_get"):
            f()
    with pytest.raises(TypeError, match="complex64, complex128"):
        gpu(np.ones(2, np.clongdouble))


def test_sign_of_complex_gpu_array_is_z_over_abs_z_as_the_cpu():
    """sign(z) = z / |z| is composed of kernels that have complex GPU twins."""
    z = _values(np.complex128, (4,))
    z[1] = 0
    assert_same(fnp.sign(gpu(z)), np.sign(z))
    loss = lambda z: fnp.sum(fnp.real(fnp.sign(z)))  # noqa: E731
    assert_same(fg.grad(loss)(gpu(z)), fg.grad(loss)(z))
