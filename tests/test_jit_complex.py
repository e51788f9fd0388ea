"""Complex values in ``fg.jit``'s fused loops: the bits of the eager primitives.

A jitted complex chain equals its eager self bit for bit (complex64 and complex128,
contiguous, strided and transposed operands, 0-d and empty arrays); a complex primitive
the loops do not compute (``exp``, comparisons) stays a NumPy call between kernels; and a
definition that does not give NumPy's bits on this machine is never used.
"""
import re

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.jit import complexloop
from funcgrad.primitives import elementwise as ew

pytestmark = pytest.mark.usefixtures("fresh_jit_cache")

DTYPES = [np.complex64, np.complex128]
REAL = {np.complex64: np.float32, np.complex128: np.float64}


def same_bits(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes()


def complex_array(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    scale = 10.0 ** rng.integers(-3, 4, size=shape)
    z = (rng.standard_normal(shape) * scale + 1j * rng.standard_normal(shape)).astype(dtype)
    if z.size >= 4:  # zeros and a pure imaginary, where |z| and Smith's division branch
        z.flat[0], z.flat[1], z.flat[3] = 0, -0.0, 2j
    return z


def chain(z, x):
    """Every complex primitive the loops compute, with real operands beside complex ones
    and Python numbers (weak: complex64 stays complex64)."""
    r = np.abs(z)
    u = np.conj(z) * (x / np.where(r == 0, 1.0, r))  # abs's VJP factor
    v = z * z - (-z) + 2.0 * z + 1j * np.conj(z) - u / (x + 3.0)
    w = np.square(z) + z / (z + 1.5)
    return np.real(v) * np.imag(w) + np.abs(u + w), v, np.where(r > 1, w, z) * 0.5


def operands(shape, dtype, layout):
    z = complex_array(shape, dtype)
    x = np.random.default_rng(1).standard_normal(shape).astype(REAL[dtype])
    if layout == "strided":
        big = np.zeros((2 * shape[0],) + shape[1:], dtype)
        big[::2] = z
        bigx = np.zeros((2 * shape[0],) + shape[1:], x.dtype)
        bigx[::2] = x
        return big[::2], bigx[::2]
    if layout == "transposed":
        return np.ascontiguousarray(z.T).T, np.ascontiguousarray(x.T).T
    return z, x


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,layout", [((257,), "contiguous"), ((64,), "strided"),
                                          ((7, 5), "transposed"), ((), "contiguous"),
                                          ((0,), "contiguous"), ((3, 0), "contiguous")])
def test_a_complex_chain_has_the_bits_of_eager(dtype, shape, layout):
    z, x = operands(shape, dtype, layout)
    with np.errstate(all="ignore"):
        want = chain(z, x)
        got = fg.jit(chain)(z, x)
    assert want[0].dtype == REAL[dtype] and want[1].dtype == dtype  # complex64 stays
    for g, w in zip(got, want):
        same_bits(g, w)


@pytest.mark.parametrize("dtype", DTYPES)
def test_the_chain_is_fused_into_loops_not_numpy_calls(dtype):
    z, x = operands((300,), dtype, "contiguous")
    text = fg.jit(chain).lower(z, x).as_text()
    driver = text.split("# driver")[-1]
    assert "impl_" not in driver  # (every step in a kernel: no NumPy call between them)
    assert "_rt.fma" in text and "complex(" in text


@pytest.mark.parametrize("dtype", DTYPES)
def test_infinities_nans_and_zeros_have_the_bits_of_eager(dtype):
    special = [0.0, -0.0, 1.0, -3.5, np.inf, -np.inf, np.nan, 1e-30, 3e30]
    z = np.empty(len(special) ** 2, dtype)
    z.real = np.repeat(special, len(special))
    z.imag = np.tile(special, len(special))
    x = np.roll(z.real, 3).copy()

    def f(z, x):
        return np.abs(z), z * x, np.conj(z) * np.roll(z, 1), z / x, z / np.roll(z, 2)
    with np.errstate(all="ignore"):
        want = f(z, x)
        got = fg.jit(f)(z, x)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        parts_g = g.view(g.real.dtype) if g.dtype.kind == "c" else g
        parts_w = w.view(w.real.dtype) if w.dtype.kind == "c" else w
        nan = np.isnan(parts_w)  # (a NaN's sign and payload are not compared)
        np.testing.assert_array_equal(np.isnan(parts_g), nan)
        assert parts_g[~nan].tobytes() == parts_w[~nan].tobytes()


@pytest.mark.parametrize("n", [4096, 1 << 14])
def test_the_fft_gradient_has_eagers_bits_and_one_loop_between_the_ffts(n):
    x = np.random.default_rng(0).standard_normal(n)
    g = fg.grad(lambda x: fnp.sum(fnp.abs(fnp.fft.fft(x)) ** 2))
    jitted = fg.jit(g)
    same_bits(jitted(x), g(x))
    driver = jitted.lower(x).as_text().split("# driver")[-1]
    # NumPy: the two FFTs and the casts around them (one pass each, as in a kernel);
    # abs, conj and the products: one loop
    calls = re.findall(r"impl_\w+", driver)
    assert sorted(set(calls)) == ["impl_convert_element_type", "impl_fft"], calls
    np.testing.assert_allclose(jitted(x), 2 * n * x, rtol=1e-9, atol=1e-9 * n)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gradients_of_complex_code_have_the_bits_of_eager(dtype):
    x = np.random.default_rng(2).standard_normal(33).astype(REAL[dtype])
    c = complex_array((33,), dtype, seed=3)

    def loss(x):
        z = x * c + 1j * x
        return fnp.sum(fnp.abs(z * fnp.conj(z) + z) + fnp.real(z / (x * x + 1.0)))
    same_bits(fg.jit(fg.grad(loss))(x), fg.grad(loss)(x))


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_complex_primitive_without_a_loop_definition_is_a_numpy_call(dtype):
    z, x = operands((50,), dtype, "contiguous")

    def f(z, x):
        return np.exp(z * x) * z, (z == np.conj(z)) & (x > 0)
    got, want = fg.jit(f)(z, x), f(z, x)
    for g, w in zip(got, want):
        same_bits(g, w)
    driver = fg.jit(f).lower(z, x).as_text().split("# driver")[-1]
    assert "impl_exp" in driver and "impl_equal" in driver


def test_a_primitive_whose_definition_does_not_match_here_stays_out(monkeypatch):
    z, x = operands((50,), np.complex128, "contiguous")
    body = complexloop.body
    monkeypatch.setattr(complexloop, "body", lambda prim, dtype: None
                        if prim is ew.multiply_p else body(prim, dtype))

    def f(z, x):
        return np.conj(z) * x + z
    same_bits(fg.jit(f)(z, x), f(z, x))
    driver = fg.jit(f).lower(z, x).as_text().split("# driver")[-1]
    assert "impl_multiply" in driver


def test_the_probe_refuses_a_definition_that_is_not_numpys():
    """A product without its cross terms, and one rounded in the wrong precision, do not
    match the impl; the right one is picked (one of the two candidate orders)."""
    for dtype in (np.dtype(np.complex64), np.dtype(np.complex128)):
        assert not complexloop._matches(
            ew.multiply_p, "r = complex(x0.real * x1.real, x0.imag * x1.imag)", dtype)
        assert complexloop.body(ew.multiply_p, dtype) in complexloop.CANDIDATES[ew.multiply_p]
    assert not complexloop._matches(ew.abs_p, "r = F.sqrt(x0.real * x0.real + x0.imag * "
                                    "x0.imag)", np.dtype(np.complex128))
