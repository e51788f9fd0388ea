"""``fg.hessian`` of one float vector from its recording, the basis carried as a band of
diagonals (funcgrad.hessian_bands): the composition's bits, signed zeros and NaNs
included, for banded functions; the composition itself, on the same recording, for the
rest; the function run once either way."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.jacobians as jacobians
import funcgrad.numpy as fnp
from funcgrad.hessian_bands import PROGRAMS, Band


def _rosen(x):
    return np.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


BANDED = {
    "rosenbrock": _rosen,
    "stencil": lambda y: np.sum((y[2:] - 2 * y[1:-1] + y[:-2]) ** 2 * np.sin(y[1:-1])),
    "elementwise": lambda y: np.sum(np.tanh(y) * np.exp(-y * y) / (1.5 + np.sin(y))
                                    + np.sqrt(1 + y ** 4)),
    "slices": lambda y: np.sum(y[1:4] * y[2:5]) + np.sum(y[:-2] ** 2 * y[2:])
    + np.sum(np.cos(y[1:] * y[:-1]) * y[1:]),
    "zero coefficients": lambda y: np.sum(-0.0 * y[1:] * y[:-1]) - np.sum(y[2:] ** 2 * -1e-320),
    "powers": lambda y: np.sum((1 + y * y) ** 2.5) - np.sum(-(y[1:] * y[:-1])),
    "linear": lambda y: np.sum(3.0 * y),
}

NOT_BANDED = {
    "product of sums": lambda y: np.sum(y ** 2) * np.sum(y),
    "one element times all": lambda y: np.sum(y * y[0]),
    "reversed": lambda y: np.sum(y ** 3 * y[::-1]),
    "matrix product": lambda y: np.sum(np.tanh(np.outer(y, y) @ y)),
    "offsets beyond the size": lambda y: np.sum(y[1:] * y[:-1]) + np.sum(y[2:] * y[:-2])
    + np.sum(y[3:] * y[:-3]) + np.sum(y[5:] * y[:-5]),
}


def _counted(f):
    runs = []

    def counted(y):
        runs.append(1)
        return f(y)
    return counted, runs


def _composition_calls(monkeypatch):
    calls = []
    composed = jacobians._composed_hessian

    def counting(g):
        calls.append(1)
        return composed(g)
    monkeypatch.setattr(jacobians, "_composed_hessian", counting)
    return calls


@pytest.mark.parametrize("name", sorted(BANDED))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_banded_hessian_has_the_compositions_bits(name, dtype, monkeypatch):
    """Every entry, zeros with their signs, as jacfwd(jacrev(f)) gives it, at several
    points (the later ones run the program written for the recording's shape)."""
    f = BANDED[name]
    calls = _composition_calls(monkeypatch)
    rng = np.random.default_rng(7)
    for n in (9, 9, 9, 16):
        x = rng.standard_normal(n).astype(dtype)
        counted, runs = _counted(f)
        H = fg.hessian(counted)(x)
        assert len(runs) == 1 and H.dtype == dtype and H.shape == (n, n)
        assert H.tobytes() == fg.jacfwd(fg.jacrev(f))(x).tobytes()
    assert calls == []  # (the band held: the composition never ran)


def _same_bits_and_nans(a, b):
    """NaN where ``b`` has NaN, every other entry's bits equal (a NaN's sign is not
    specified by IEEE 754: jacfwd(jacrev(f)) and its own columns, jvp(grad(f)), differ
    in it here)."""
    nan = np.isnan(b)
    return (np.isnan(a) == nan).all() and a[~nan].tobytes() == b[~nan].tobytes()


def test_the_band_keeps_the_dense_batchs_nans():
    """An infinite coefficient meets the zeros off the stored diagonals as in the dense
    batch (0 * inf: NaN), because the far row goes through the same operations."""
    mask = np.array([0.0, 1.0, 1.0, 1.0, 1.0])
    fs = [lambda y: np.sum(np.sqrt(y * y * mask)),
          lambda y: np.sum(np.sqrt(y * y * mask)[1:] * y[:-1])
          + np.sum(y[1:] ** 3 * np.sqrt(y * y * mask)[:-1])]
    x = np.array([0.0, 0.5, -1.0, 2.0, 0.0])
    for f in fs:
        with np.errstate(all="ignore"):
            H = fg.hessian(f)(x)
            want = fg.jacfwd(fg.jacrev(f))(x)
        assert np.isnan(H).any() and _same_bits_and_nans(H, want)


@pytest.mark.parametrize("name", sorted(NOT_BANDED))
def test_a_hessian_off_the_band_is_the_composition_on_the_recording(name, monkeypatch):
    """Where a batch leaves the band (a sum's tangent, an index that is not a step-1
    slice, a matrix product, more diagonals than elements) the composition runs on the
    replayed recording: the function still runs once, and the bits are the same."""
    f = NOT_BANDED[name]
    calls = _composition_calls(monkeypatch)
    x = np.linspace(-0.9, 1.2, 7)
    for _ in range(2):  # (the second: a shape already known to be off the band)
        counted, runs = _counted(f)
        H = fg.hessian(counted)(x)
        assert len(runs) == 1
        assert H.tobytes() == fg.jacfwd(fg.jacrev(f))(x).tobytes()
    assert len(calls) == 2


def test_hessians_of_other_inputs_and_outputs_keep_the_composition():
    """A matrix or 0-d input, a vector output (a third-order array), several outputs
    of one operation: the composition's results, the function run once."""
    m = np.linspace(-1.0, 1.0, 6).reshape(2, 3)
    f = lambda a: np.sum(a[:, 1:] * a[:, :-1] ** 3)  # noqa: E731
    counted, runs = _counted(f)
    assert fg.hessian(counted)(m).tobytes() == fg.jacfwd(fg.jacrev(f))(m).tobytes()
    assert len(runs) == 1
    g = lambda y: y[1:] * y[:-1] ** 2  # noqa: E731
    x = np.linspace(-1.0, 1.0, 5)
    counted, runs = _counted(g)
    T = fg.hessian(counted)(x)
    assert T.shape == (4, 5, 5) and len(runs) == 1
    assert T.tobytes() == fg.jacfwd(fg.jacrev(g))(x).tobytes()
    h = lambda y: np.sum(fnp.linalg.eigh(np.outer(y, y) + np.eye(5))[0] ** 2)  # noqa
    assert fg.hessian(h)(x).tobytes() == fg.jacfwd(fg.jacrev(h))(x).tobytes()


def test_a_function_that_raises_raises_once_and_leaves_no_program():
    runs = []

    def f(y):
        runs.append(1)
        if runs:
            raise ValueError("inside the function")
        return np.sum(y)

    kept = len(PROGRAMS.kept)
    with pytest.raises(ValueError, match="inside the function"):
        fg.hessian(f)(np.ones(4))
    assert len(runs) == 1 and len(PROGRAMS.kept) == kept


def test_no_grad_inside_and_a_transform_around_keep_the_compositions_results():
    def f(y):
        with fg.no_grad():
            w = y[1:] * 2.0
        return np.sum(y[1:] * y[:-1] * w)

    x = np.linspace(-1.0, 1.0, 6)
    assert fg.hessian(f)(x).tobytes() == fg.jacfwd(fg.jacrev(f))(x).tobytes()
    xs = np.stack([x, 2 * x])
    np.testing.assert_array_equal(fg.vmap(fg.hessian(_rosen))(xs),
                                  np.stack([fg.hessian(_rosen)(r) for r in xs]))


def test_a_band_stands_for_its_dense_batch():
    """Entry (k, j): the row of diagonal k - j where stored, else the far row."""
    band = Band((-1, 2), np.array([[0.5, -0.0, 7.0], [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    dense = band.dense(4)
    want = np.array([[0.5, 2.0, 7.0], [0.5, -0.0, 3.0], [4.0, -0.0, 7.0], [0.5, 5.0, 7.0]])
    assert dense.tobytes() == want.tobytes()
