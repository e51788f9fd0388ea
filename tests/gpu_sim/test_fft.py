"""numpy.fft on GPU arrays runs on the device and equals the CPU (NumPy's pocketfft):
every length (radix-2 and Bluestein), ``n`` cropping and padding, ``norm``, axes of
strided arrays, complex64 kept; and so do the derivatives (grad, jvp, vmap), which the
primitives' rules build from the same transforms."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.gpu import IMPLS
from funcgrad.primitives import fft as fft_primitives

from conftest import assert_same

NORMS = ["backward", "ortho", "forward"]


def gpu(x):
    return fg.device_put(x, "cuda")


def _complex(shape, dtype=np.complex128, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def _tol(dtype):
    single = np.dtype(dtype) in (np.complex64, np.float32)
    return {"rtol": 1e-5, "atol": 1e-5} if single else {"rtol": 1e-12, "atol": 1e-12}


# (the simulator runs each CUDA thread in Python: complex64 on two lengths only)
@pytest.mark.parametrize("n, dtype", [(1, np.complex128), (2, np.complex128),
                                      (5, np.complex128), (8, np.complex128),
                                      (12, np.complex128), (5, np.complex64),
                                      (8, np.complex64)])
def test_fft_ifft_rfft_irfft_equal_numpy_for_every_length(n, dtype):
    z = _complex((2, n), dtype, seed=n)
    norm = NORMS[n % 3]
    tol = _tol(dtype)
    assert_same(fnp.fft.fft(gpu(z), norm=norm), np.fft.fft(z, norm=norm), **tol)
    assert_same(fnp.fft.ifft(gpu(z), norm=norm), np.fft.ifft(z, norm=norm), **tol)
    x = z.real.copy()
    assert_same(fnp.fft.rfft(gpu(x), norm=norm), np.fft.rfft(x, norm=norm), **tol)
    # (z's zero-frequency entries have imaginary parts: ignored, as NumPy does)
    assert_same(fnp.fft.irfft(gpu(z), n=n, norm=norm), np.fft.irfft(z, n=n, norm=norm), **tol)


def test_fft_crops_and_pads_along_any_axis_of_a_strided_batch():
    z = _complex((4, 3), seed=1)
    zt = gpu(z).T                                      # (3, 4), a transposed view
    assert_same(fnp.fft.fft(zt, axis=0), np.fft.fft(z.T, axis=0))
    assert_same(fnp.fft.fft(zt, n=6, axis=1), np.fft.fft(z.T, n=6, axis=1))
    assert_same(fnp.fft.ifft(zt, n=2, axis=1), np.fft.ifft(z.T, n=2, axis=1))
    x = z.real.copy()
    assert_same(fnp.fft.rfft(gpu(x), n=3, axis=0), np.fft.rfft(x, n=3, axis=0))
    assert_same(fnp.fft.irfft(gpu(z), n=7, axis=0), np.fft.irfft(z, n=7, axis=0))
    x3 = np.random.default_rng(2).standard_normal((2, 3, 4)).astype(np.float32)
    assert_same(fnp.fft.fft2(gpu(x3)), np.fft.fft2(x3), **_tol(np.float32))


def test_fft_bad_lengths_and_inputs_raise():
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        IMPLS[fft_primitives.fft_p](gpu(_complex(3)), n=0, axis=0, norm="backward",
                                    inverse=False)
    with pytest.raises(TypeError, match="real input"):
        IMPLS[fft_primitives.rfft_p](gpu(_complex(3)), n=3, axis=0, norm="backward")
    assert {"fft", "rfft", "irfft"} <= {p.name for p in IMPLS}


def test_fft_derivatives_on_gpu_equal_the_cpu():
    z = _complex((2, 5), seed=3)
    x = z.real.copy()
    weights = np.arange(8.0)
    power = lambda z: fnp.sum(fnp.abs(fnp.fft.fft(z)) ** 2)  # noqa: E731
    assert_same(fg.grad(power)(gpu(z)), fg.grad(power)(z))
    half = lambda x: fnp.sum(fnp.imag(fnp.fft.rfft(x, n=6, norm="ortho")) ** 2)  # noqa: E731
    assert_same(fg.grad(half)(gpu(x)), fg.grad(half)(x))
    back = lambda z, w: fnp.sum(fnp.fft.irfft(z, n=8) * w)  # noqa: E731
    assert_same(fg.grad(back)(gpu(z), gpu(weights)), fg.grad(back)(z, weights))
    t = z * 0.5j
    got = fg.jvp(lambda z: fnp.fft.ifft(z, norm="ortho"), (gpu(z),), (gpu(t),))
    want = fg.jvp(lambda z: fnp.fft.ifft(z, norm="ortho"), (z,), (t,))
    assert_same(list(got), list(want))
    z64 = z.astype(np.complex64)
    spectrum = lambda z: fnp.fft.fft(z, n=4)  # noqa: E731
    assert_same(fg.vmap(spectrum)(gpu(z64)), fg.vmap(spectrum)(z64), **_tol(np.complex64))
