"""CloughTocher2DInterpolator: SciPy's values bit for bit; derivatives in the values
against central differences of SciPy's converged interpolant, in the queries against
SciPy's own."""
import numpy as np
import pytest
import scipy.interpolate as si

import funcgrad as fg
import funcgrad.scipy.interpolate as fi

RNG = np.random.default_rng(0)
SITES = RNG.uniform(size=(25, 2))
VALUES = np.sin(3 * SITES[:, 0]) + SITES[:, 1] ** 2
QUERIES = RNG.uniform(-0.1, 1.1, size=(40, 2))
INSIDE = np.isfinite(si.CloughTocher2DInterpolator(SITES, VALUES)(QUERIES))


@pytest.mark.parametrize("values,kw", [
    (VALUES, {}), (VALUES, {"rescale": True, "fill_value": -1.0}),
    (np.stack([VALUES, VALUES ** 2], axis=1), {}), (VALUES * (1 + 2j), {})])
def test_values_are_scipys(values, kw):
    ours = fi.CloughTocher2DInterpolator(SITES, values, **kw)(QUERIES)
    theirs = si.CloughTocher2DInterpolator(SITES, values, **kw)(QUERIES)
    assert np.asarray(ours).shape == theirs.shape and np.asarray(ours).dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs, rtol=1e-15, atol=1e-15)
    # (one array per coordinate, as SciPy's call takes them)
    np.testing.assert_allclose(fi.CloughTocher2DInterpolator(SITES, values, **kw)(
        QUERIES[:, 0], QUERIES[:, 1]), theirs, rtol=1e-15, atol=1e-15)


def test_derivatives_in_values_and_queries():
    eps = 1e-6
    d = RNG.normal(size=VALUES.shape)

    def converged(v):  # (SciPy's gradients iterated to convergence)
        return si.CloughTocher2DInterpolator(SITES, v, tol=1e-14, maxiter=100000)(
            QUERIES[INSIDE]).sum()
    g = fg.grad(lambda v: fi.CloughTocher2DInterpolator(SITES, v)(QUERIES[INSIDE]).sum())(
        VALUES)
    np.testing.assert_allclose(np.asarray(g) @ d,
                               (converged(VALUES + eps * d) - converged(VALUES - eps * d))
                               / (2 * eps), rtol=1e-7)
    q = QUERIES[INSIDE][:6]
    scipy_f = si.CloughTocher2DInterpolator(SITES, VALUES)
    ours = fi.CloughTocher2DInterpolator(SITES, VALUES)
    gq = fg.grad(lambda q: ours(q).sum())(q)
    dq = RNG.normal(size=q.shape)
    np.testing.assert_allclose(np.sum(np.asarray(gq) * dq),
                               (scipy_f(q + eps * dq).sum() - scipy_f(q - eps * dq).sum())
                               / (2 * eps), rtol=1e-6)
    # second order in the queries: the patch is a cubic polynomial
    h = fg.hessian(lambda q: ours(q[None])[0])(q[0])
    assert np.allclose(h, np.asarray(h).T)


def test_sites_are_not_differentiated_and_queries_need_values():
    with pytest.raises(NotImplementedError, match="not in the sites"):
        fg.grad(lambda p: fi.CloughTocher2DInterpolator(p, VALUES)(QUERIES[:1])[0])(SITES)
    f = fi.CloughTocher2DInterpolator(SITES, VALUES)
    with pytest.raises(fg.ConcretizationError):
        fg.jit(f)(QUERIES)
    with pytest.raises(ValueError, match="2-d"):
        fi.CloughTocher2DInterpolator(RNG.uniform(size=(6, 3)), np.ones(6))
