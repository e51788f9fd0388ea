"""Small gaps in funcgrad.scipy's modules (session 24): fft's worker and backend controls,
linalg's BLAS/LAPACK look-ups."""
import os
import threading

import numpy as np
import pytest
import scipy.fft
import scipy.linalg

import funcgrad as fg
import funcgrad.scipy.fft as ffft
import funcgrad.scipy.linalg as fsl


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
