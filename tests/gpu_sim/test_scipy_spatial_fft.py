"""funcgrad.scipy.spatial.distance and funcgrad.scipy.fft's Fourier front end on GPU arrays:
written with funcgrad.numpy operations, they run on the device and equal the CPU, and so
do their derivatives (the zero subgradient at a zero distance included)."""
import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.fft as ffft
import funcgrad.scipy.spatial.distance as fd

from conftest import assert_same

RNG = np.random.default_rng(7)


def gpu(x):
    return fg.device_put(x, "cuda")


def test_cdist_and_pdist_on_gpu_equal_the_cpu_with_their_gradients():
    x = RNG.standard_normal((3, 2))
    x[2] = x[0]  # a zero distance: gradient 0, not NaN
    y = RNG.standard_normal((2, 2))
    assert_same(fd.cdist(gpu(x), gpu(y)), fd.cdist(x, y))
    assert_same(fd.pdist(gpu(x), "cityblock"), fd.pdist(x, "cityblock"))

    def total(x):
        return fnp.sum(fd.pdist(x))

    assert_same(fg.grad(total)(gpu(x)), fg.grad(total)(x))


def test_scipy_fft_front_on_gpu_equals_the_cpu():
    x = RNG.standard_normal((2, 4)).astype(np.float32)
    assert_same(ffft.rfft(gpu(x)), ffft.rfft(x), rtol=1e-5, atol=1e-5)
    z = RNG.standard_normal((2, 3)) + 1j * RNG.standard_normal((2, 3))
    assert_same(ffft.hfftn(gpu(z)), ffft.hfftn(z))

    def power(x):
        return fnp.sum(fnp.abs(ffft.fft(x, n=5)) ** 2)

    assert_same(fg.grad(power)(gpu(x.astype(np.float64))), fg.grad(power)(x.astype(np.float64)))
