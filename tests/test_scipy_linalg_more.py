"""The rest of scipy.linalg (SciPy 1.17) in funcgrad.scipy.linalg, and SciPy 1.17's stacks
of matrices: values against scipy.linalg (float64 to 1e-12 relative to the largest entry,
dtypes as SciPy's), derivatives against central differences and the dot-product test, and
errors that name the fix where a derivative does not exist."""
import warnings

import numpy as np
import pytest

sl = pytest.importorskip("scipy.linalg")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.linalg as fsl  # noqa: E402
from helpers import check_dot_product, check_jvp_fd, check_second_order  # noqa: E402

RNG = np.random.default_rng(117)
STACK = RNG.standard_normal((3, 4, 4))
SPD_STACK = STACK @ np.swapaxes(STACK, -1, -2) + np.eye(4)
RHS = RNG.standard_normal((3, 4, 2))
A = RNG.standard_normal((4, 4))
SPD = A @ A.T + np.eye(4)
WIDE = RNG.standard_normal((3, 5))
TALL = RNG.standard_normal((5, 3))
CPLX = RNG.standard_normal((4, 4)) + 1j * RNG.standard_normal((4, 4))


def close(got, want, rtol=1e-12):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=0, atol=rtol * max(np.max(np.abs(want),
                                                                          initial=0), 1e-300))


def same(got, want, rtol=1e-12):
    """Equal values and dtypes, output by output (tuples and single arrays)."""
    got = got if isinstance(got, (tuple, list)) else (got,)
    want = want if isinstance(want, (tuple, list)) else (want,)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert np.asarray(g).dtype == w.dtype, (np.asarray(g).dtype, w.dtype)
        close(g, w, rtol)


def traced(f, *args):
    """``f``'s value on traced inputs (the differentiable route, not SciPy's own)."""
    return fg.vjp(f, *args)[0]


def gram(x):
    return x @ fnp.swapaxes(x, -1, -2) + np.eye(x.shape[-1])


# --- stacks (..., n, n), as SciPy 1.17 takes them -------------------------------------------

STACKED = {
    "solve_triangular": lambda m, x: m.solve_triangular(x + 4 * np.eye(4), RHS, lower=True),
    "solve_triangular_vector": lambda m, x: m.solve_triangular(x + 4 * np.eye(4),
                                                               RHS[0, :, 0], trans=1),
    "cho_solve": lambda m, x: m.cho_solve(m.cho_factor(gram(x)), RHS),
    "lu_factor": lambda m, x: m.lu_factor(x)[0],
    "lu_solve": lambda m, x: m.lu_solve(m.lu_factor(x), RHS, trans=1),
    "lu": lambda m, x: m.lu(x)[1:],
    "lu_p_indices": lambda m, x: m.lu(x[:, :, :3], p_indices=True)[1:],
    "eigh_generalized": lambda m, x: m.eigh(SPD, gram(x), eigvals_only=True),
    "eig": lambda m, x: abs(m.eig(x, right=False)),
    "sqrtm": lambda m, x: m.sqrtm(gram(x)),
    "logm": lambda m, x: m.logm(gram(x)),
    "funm": lambda m, x: m.funm(gram(x), np.sin),
    "solve_sylvester": lambda m, x: m.solve_sylvester(x, SPD, STACK[0]),
    "pinv_atol": lambda m, x: m.pinv(x, atol=0.5),
    "block_diag": lambda m, x: m.block_diag(x, x[:1, :2], 3.0),
}


@pytest.mark.parametrize("name", sorted(STACKED))
def test_stacks_match_scipy_and_differentiate(name):
    f = STACKED[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (SciPy's sqrtm/logm accuracy notes)
        want = f(sl, STACK)
    same(f(fsl, STACK), want, 1e-11)
    same(traced(lambda x: f(fsl, x), STACK), want, 1e-11)
    # (pinv's cutoff drops nonzero singular values here, where its derivative is not the
    # pseudo-inverse's rule: the values show the cutoff is per matrix)
    if name not in ("lu_factor", "lu_p_indices", "pinv_atol"):
        check_jvp_fd(lambda x: f(fsl, x), [STACK], RNG)


def test_stacks_broadcast_and_refuse_empty_batches():
    # (a batch of a against one right-hand side, a batch of rhs against one matrix)
    close(fsl.solve_triangular(STACK, RHS[0]), sl.solve_triangular(STACK, RHS[0]))
    close(fsl.solve_triangular(STACK[0], RHS), sl.solve_triangular(STACK[0], RHS))
    lu, piv = fsl.lu_factor(STACK)
    assert piv.shape == (3, 4) and piv.dtype == np.int32
    with pytest.raises(ValueError, match="zero-size batches"):
        fsl.lu_factor(np.zeros((0, 3, 3)))
    with pytest.raises(ValueError, match="square"):
        fsl.sqrtm(np.ones((2, 3, 4)))
    g = fg.vmap(fg.grad(lambda x: fnp.sum(fsl.lu(x)[2])))(STACK)
    close(g, np.stack([fg.grad(lambda x: fnp.sum(fsl.lu(x)[2]))(x) for x in STACK]))
