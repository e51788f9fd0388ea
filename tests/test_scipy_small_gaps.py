"""Small gaps in funcgrad.scipy's modules (session 24): fft's worker and backend controls,
linalg's BLAS/LAPACK look-ups, ndimage's vectorized_filter."""
import os
import threading

import numpy as np
import pytest
import scipy.fft
import scipy.linalg
import scipy.ndimage

import funcgrad as fg
import funcgrad.scipy.fft as ffft
import funcgrad.scipy.linalg as fsl
import funcgrad.scipy.ndimage as fnd


def test_set_workers_sets_the_default_get_workers_returns_per_thread():
    assert ffft.get_workers() == scipy.fft.get_workers() == 1
    seen = []
    with ffft.set_workers(3):
        assert ffft.get_workers() == 3
        with ffft.set_workers(-1):
            assert ffft.get_workers() == os.cpu_count()
        assert ffft.get_workers() == 3
        # (another thread keeps its own default)
        t = threading.Thread(target=lambda: seen.append(ffft.get_workers()))
        t.start()
        t.join()
        # (funcgrad's transforms take workers and ignore it)
        x = np.arange(4.0)
        np.testing.assert_allclose(ffft.fft(x, workers=2), scipy.fft.fft(x))
    assert ffft.get_workers() == 1 and seen == [1]
    with pytest.raises(ValueError, match="workers must not be zero"):
        with ffft.set_workers(0):
            pass
    with pytest.raises(ValueError, match="out of range"):
        with ffft.set_workers(-(os.cpu_count() or 1) - 1):
            pass


@pytest.mark.parametrize("name", ["set_backend", "skip_backend", "set_global_backend",
                                  "register_backend"])
def test_fft_backends_are_a_clear_error(name):
    with pytest.raises(NotImplementedError,
                       match=rf"{name}: .*not a uarray dispatcher.*scipy\.fft\.{name}"):
        getattr(ffft, name)("scipy")


def test_blas_and_lapack_lookups_are_scipys():
    a = np.ones((2, 2), np.float32)
    assert fsl.get_blas_funcs("gemm", (a,)) is scipy.linalg.get_blas_funcs("gemm", (a,))
    ours = fsl.get_lapack_funcs(("getrf", "getrs"), dtype=np.complex128)
    assert [f.typecode for f in ours] == ["z", "z"]
    assert fsl.find_best_blas_type((a, np.ones(2))) == scipy.linalg.find_best_blas_type(
        (a, np.ones(2)))
    for name in ("get_blas_funcs", "get_lapack_funcs", "find_best_blas_type"):
        args = ("gemm",) if name != "find_best_blas_type" else ()

        def f(x):
            getattr(fsl, name)(*args, (x,))
            return x.sum()
        with pytest.raises(TypeError, match=rf"{name}: .*plain arrays.*dtype="):
            fg.grad(f)(np.ones(2))


FOOTPRINT = np.array([[1, 0, 1], [0, 1, 0]], bool)


@pytest.mark.parametrize("kw", [
    dict(size=3), dict(size=(2, 3), mode="mirror"), dict(size=2, mode="valid"),
    dict(size=3, mode="constant", cval=1.5), dict(size=3, mode="nearest"),
    dict(size=3, mode="wrap"), dict(size=(2, 3), origin=(-1, 1)), dict(size=3, axes=1),
    dict(size=2, axes=(1, 0)), dict(footprint=FOOTPRINT)],
    ids=["size", "mirror", "valid", "constant", "nearest", "wrap", "origin", "one-axis",
         "axes-order", "footprint"])
def test_vectorized_filter_is_scipys(kw):
    x = np.random.default_rng(0).normal(size=(4, 5))
    for function in (np.mean, np.max):
        ours = fnd.vectorized_filter(x, function, **kw)
        want = scipy.ndimage.vectorized_filter(x, function, **kw)
        assert ours.shape == want.shape
        np.testing.assert_allclose(ours, want, rtol=1e-12, atol=1e-15)


def test_vectorized_filter_differentiates_and_keeps_dtypes():
    rng = np.random.default_rng(1)
    x, w = rng.normal(size=(4, 5)), rng.normal(size=(4, 5))

    def loss(filter_):
        return lambda x: (filter_(x, np.var, size=(2, 3), mode="mirror") * w).sum()
    g = fg.grad(loss(fnd.vectorized_filter))(x)
    scipys = loss(scipy.ndimage.vectorized_filter)
    e, h = np.zeros_like(x), 1e-6
    e[1, 2] = 1.0
    np.testing.assert_allclose(g[1, 2], (scipys(x + h * e) - scipys(x - h * e)) / (2 * h),
                               rtol=1e-6)
    np.testing.assert_allclose(fg.jit(lambda x: fnd.vectorized_filter(x, np.mean, size=3))(x),
                               scipy.ndimage.vectorized_filter(x, np.mean, size=3))
    x32, xi = x.astype(np.float32), np.arange(12).reshape(3, 4)
    assert fnd.vectorized_filter(x32, np.mean, size=3).dtype == np.float32
    np.testing.assert_array_equal(fnd.vectorized_filter(xi, np.max, size=2),
                                  scipy.ndimage.vectorized_filter(xi, np.max, size=2))
    for bad in (dict(), dict(size=3, footprint=np.ones(3)), dict(size=3, cval=1.0),
                dict(size=3, mode="bogus"), dict(size=0), dict(size=2, mode="valid", origin=1)):
        with pytest.raises(ValueError):
            fnd.vectorized_filter(x, np.mean, **bad)
    with pytest.raises(TypeError, match="output="):
        fnd.vectorized_filter(x, np.mean, size=3, output=np.empty_like(x))
