"""Session 24's multivariate distributions of funcgrad.scipy.stats (``wishart``,
``invwishart``...): values and draws against SciPy's (the same ``random_state`` gives the
same draws), derivatives in every continuous argument against central differences of
SciPy's values or a closed form, few points each; one jit, vmap and float32 check per
family.
"""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.scipy.stats as fst

scipy_stats = pytest.importorskip("scipy.stats")

H = 1e-6
SCALE = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 1.5]])
# a symmetric direction for the derivatives in a matrix
DIRECTION = np.array([[0.7, -0.2, 0.4], [-0.2, -1.1, 0.3], [0.4, 0.3, 0.5]])


def _close(got, want, rtol, atol=0.0):
    np.testing.assert_allclose(np.asarray(got, float), np.asarray(want, float), rtol=rtol,
                               atol=atol)


def _central(f, x, direction=1.0):
    return (f(x + H * direction) - f(x - H * direction)) / (2 * H)


# --- wishart and invwishart ------------------------------------------------------------------

WISHARTS = ["wishart", "invwishart"]
# (points along the last axis, SciPy's layout)
POINTS = np.moveaxis(scipy_stats.wishart.rvs(6, SCALE, size=3, random_state=2), 0, -1)


@pytest.mark.parametrize("name", WISHARTS)
def test_wishart_values_match_scipy(name):
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    _close(ours.logpdf(POINTS, 6.0, SCALE), theirs.logpdf(POINTS, 6.0, SCALE), 1e-12)
    _close(ours.pdf(POINTS[..., 0], 6.0, SCALE), theirs.pdf(POINTS[..., 0], 6.0, SCALE), 1e-12)
    # dimension 1: a 1-d x is points, a scalar scale a 1x1 matrix
    x = np.array([0.5, 1.0, 2.5])
    _close(ours.logpdf(x, 3.5, 2.0), theirs.logpdf(x, 3.5, 2.0), 1e-12)
    for method, df in (("mean", 7.0), ("mode", 7.0), ("var", 7.5), ("entropy", 6.5)):
        _close(getattr(ours, method)(df, SCALE), getattr(theirs, method)(df, SCALE), 1e-12)
    frozen = ours(6.0, SCALE)
    _close(frozen.logpdf(POINTS), theirs(6.0, SCALE).logpdf(POINTS), 1e-12)
    _close(frozen.entropy(), theirs(6.0, SCALE).entropy(), 1e-12)


def test_wishart_moments_are_none_where_scipy_gives_none():
    assert fst.wishart.mode(2.5, SCALE) is None is scipy_stats.wishart.mode(2.5, SCALE)
    assert fst.invwishart.mean(4.0, SCALE) is None is scipy_stats.invwishart.mean(4.0, SCALE)
    assert fst.invwishart.var(6.0, SCALE) is None is scipy_stats.invwishart.var(6.0, SCALE)


@pytest.mark.parametrize("name", WISHARTS)
@pytest.mark.parametrize("size, seed", [(1, 7), ((2, 3), 8), (4, "generator")])
def test_wishart_draws_are_scipys(name, size, seed):
    def state():
        return np.random.default_rng(3) if seed == "generator" else seed
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    got, want = ours.rvs(2.5, SCALE, size, state()), theirs.rvs(2.5, SCALE, size, state())
    assert got.shape == want.shape
    _close(got, want, 1e-10)
    # a frozen distribution draws from its seed's generator, which moves on
    ours_frozen, theirs_frozen = ours(4.0, SCALE, seed=5), theirs(4.0, SCALE, seed=5)
    for _ in range(2):
        _close(ours_frozen.rvs(size), theirs_frozen.rvs(size), 1e-10)


@pytest.mark.parametrize("name", WISHARTS)
def test_wishart_logpdf_derivatives_match_scipy(name):
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    _close(fg.grad(lambda d: ours.logpdf(POINTS, d, SCALE).sum())(6.0),
           _central(lambda d: theirs.logpdf(POINTS, d, SCALE).sum(), 6.0), 1e-6)
    got = fg.grad(lambda s: ours.logpdf(POINTS, 6.0, s).sum())(SCALE)
    _close(np.sum(got * DIRECTION),
           _central(lambda s: theirs.logpdf(POINTS, 6.0, s).sum(), SCALE, DIRECTION), 1e-6)
    np.testing.assert_allclose(got, got.T)  # (symmetric: the density reads one triangle)
    x = POINTS[..., 0]
    got = fg.grad(lambda x: ours.logpdf(x, 6.0, SCALE))(x)
    _close(np.sum(got * DIRECTION), _central(lambda x: theirs.logpdf(x, 6.0, SCALE), x,
                                             DIRECTION), 1e-6)
    got = fg.grad(lambda d: ours.entropy(d, SCALE))(6.5)
    _close(got, _central(lambda d: theirs.entropy(d, SCALE), 6.5), 1e-6)
    got = fg.grad(lambda s: ours.entropy(6.5, s))(SCALE)
    _close(np.sum(got * DIRECTION), _central(lambda s: theirs.entropy(6.5, s), SCALE,
                                             DIRECTION), 1e-6)


@pytest.mark.parametrize("name", WISHARTS)
def test_wishart_draws_move_with_scale(name):
    """The draws are a smooth function of scale's Cholesky factor for fixed random
    numbers, so central differences of SciPy's own draws check the derivative."""
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    weights = np.arange(18.0).reshape(2, 3, 3) / 10.0
    got = fg.grad(lambda s: (ours.rvs(5.5, s, 2, 7) * weights).sum())(SCALE)
    want = _central(lambda s: (theirs.rvs(5.5, s, 2, 7) * weights).sum(), SCALE, DIRECTION)
    _close(np.sum(got * DIRECTION), want, 1e-6)


def test_wishart_draws_move_with_df_at_their_quantile():
    """In df, each chi-square draw c moves at its quantile u = chi2.cdf(c, k):
    dc/dk = d chi2.ppf(u, k)/dk.  The (0, 0) entry of a Wishart draw is scale_00 c with
    k = df; a 1x1 inverse Wishart draw is scale / c with k = df."""
    chi2 = scipy_stats.chi2
    df, s = 4.5, 2.0

    def quantile_slope(c, k):
        u = chi2.cdf(c, k)
        return _central(lambda k: chi2.ppf(u, k), k)

    draw = fst.wishart.rvs(df, SCALE, random_state=3)
    c = draw[0, 0] / SCALE[0, 0]
    got = fg.grad(lambda d: fst.wishart.rvs(d, SCALE, random_state=3)[0, 0])(df)
    _close(got, SCALE[0, 0] * quantile_slope(c, df), 1e-5)
    c = s / fst.invwishart.rvs(df, s, random_state=3)
    got = fg.grad(lambda d: fst.invwishart.rvs(d, s, random_state=3))(df)
    _close(got, -s / c ** 2 * quantile_slope(c, df), 1e-5)
    with pytest.raises(NotImplementedError, match="first order"):
        fg.grad(fg.grad(lambda d: fst.wishart.rvs(d, SCALE, random_state=3)[0, 0]))(df)


def test_wishart_keeps_float32_and_works_under_jit_and_vmap():
    s32, x32 = SCALE.astype(np.float32), POINTS.astype(np.float32)
    for dist in (fst.wishart, fst.invwishart):
        assert dist.logpdf(x32, 6.0, s32).dtype == np.float32
        assert dist.rvs(6.0, s32, 2, 0).dtype == np.float32
        assert dist.entropy(6.0, s32).dtype == np.float32
    batch = np.moveaxis(POINTS, -1, 0)
    got = fg.vmap(lambda x: fst.wishart.logpdf(x, 6.0, SCALE))(batch)
    _close(got, scipy_stats.wishart.logpdf(POINTS, 6.0, SCALE), 1e-12)
    got = fg.jit(lambda s: fst.invwishart.logpdf(POINTS, 6.0, s))(SCALE)
    _close(got, scipy_stats.invwishart.logpdf(POINTS, 6.0, SCALE), 1e-12)


@pytest.mark.parametrize("call, match", [
    (lambda: fst.wishart.logpdf(POINTS, 1.5, SCALE), "df must be greater"),
    (lambda: fst.invwishart.rvs(3.0, np.ones((2, 3))), "square"),
    (lambda: fst.wishart.logpdf(np.eye(2), 4.0, SCALE), r"x's matrices are \(2, 2\)"),
    (lambda: fst.wishart.rvs(4.0, SCALE, random_state="seed"), "random_state"),
])
def test_wishart_bad_input_names_the_problem(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- matrix_normal and matrix_t ----------------------------------------------------------------

ROWS = np.array([[2.0, 0.3], [0.3, 1.0]])
MEAN = np.arange(6.0).reshape(2, 3) / 3.0
MATRICES = scipy_stats.matrix_normal.rvs(MEAN, ROWS, SCALE, size=3, random_state=1)
# name, the parameters after X (SciPy's order)
MATRIX_FAMILY = [("matrix_normal", (MEAN, ROWS, SCALE)),
                 ("matrix_t", (MEAN, ROWS, SCALE, 3.5))]


@pytest.mark.parametrize("name, params", MATRIX_FAMILY, ids=lambda v: str(v)[:13])
def test_matrix_distributions_match_scipy(name, params):
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    _close(ours.logpdf(MATRICES, *params), theirs.logpdf(MATRICES, *params), 1e-12)
    _close(ours.pdf(MATRICES[0], *params), theirs.pdf(MATRICES[0], *params), 1e-12)
    _close(ours(*params).logpdf(MATRICES), theirs(*params).logpdf(MATRICES), 1e-12)
    # the draws: SciPy's for the same random_state, a wide mean (matrix_t mixes over
    # the other side) and one draw (mean's shape)
    for size, transpose in ((3, False), (1, True)):
        args = ((params[0].T, params[2], params[1]) + params[3:]) if transpose else params
        got, want = ours.rvs(*args, size=size, random_state=5), theirs.rvs(*args, size=size,
                                                                           random_state=5)
        assert got.shape == want.shape
        _close(got, want, 1e-10, 1e-13)
    _close(ours(*params, seed=4).rvs(2), theirs(*params, seed=4).rvs(2), 1e-10, 1e-13)


def test_matrix_normal_entropy_matches_scipy():
    _close(fst.matrix_normal.entropy(ROWS, SCALE), scipy_stats.matrix_normal.entropy(ROWS, SCALE),
           1e-12)
    # frozen: the scalar covariances sized by the mean
    _close(fst.matrix_normal(MEAN).entropy(), scipy_stats.matrix_normal(MEAN).entropy(), 1e-12)
    got = fg.grad(lambda c: fst.matrix_normal.entropy(ROWS, c))(SCALE)
    _close(got, 0.5 * 2 * np.linalg.inv(SCALE), 1e-12)  # d/dV (n/2) log|V| = (n/2) V^-1


@pytest.mark.parametrize("name, params", MATRIX_FAMILY, ids=lambda v: str(v)[:13])
def test_matrix_distributions_derivatives_match_scipy(name, params):
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    directions = [np.ones((2, 3)) - MEAN, np.array([[0.3, -0.5], [-0.5, 0.2]]), DIRECTION, 1.0]
    for i in range(len(params)):
        def value(p, f, i=i):
            return f.logpdf(MATRICES, *params[:i], p, *params[i + 1:]).sum()
        got = fg.grad(value)(params[i], ours)
        _close(np.sum(got * directions[i]),
               _central(lambda p: value(p, theirs), params[i], directions[i]), 1e-6)
    got = fg.grad(lambda x: ours.logpdf(x, *params))(MATRICES[0])
    _close(np.sum(got * directions[0]),
           _central(lambda x: theirs.logpdf(x, *params), MATRICES[0], directions[0]), 1e-6)
    # the draws, for fixed random numbers, in the mean and both matrices
    weights = np.arange(18.0).reshape(3, 2, 3) / 10.0
    for i in range(3):
        def drawn(p, f, i=i):
            return (f.rvs(*params[:i], p, *params[i + 1:], size=3, random_state=5)
                    * weights).sum()
        got = fg.grad(drawn)(params[i], ours)
        _close(np.sum(got * directions[i]),
               _central(lambda p: drawn(p, theirs), params[i], directions[i]), 1e-6)


def test_matrix_distributions_keep_float32_and_work_under_jit_and_vmap():
    f32 = [p.astype(np.float32) for p in (MATRICES, MEAN, ROWS, SCALE)]
    assert fst.matrix_normal.logpdf(*f32).dtype == np.float32
    assert fst.matrix_t.logpdf(*f32, 3.0).dtype == np.float32
    assert fst.matrix_normal.rvs(*f32[1:], size=2, random_state=0).dtype == np.float32
    got = fg.vmap(lambda m: fst.matrix_t.logpdf(MATRICES[0], m, ROWS, SCALE, 3.5))(MATRICES)
    _close(got, [scipy_stats.matrix_t.logpdf(MATRICES[0], m, ROWS, SCALE, 3.5)
                 for m in MATRICES], 1e-12)
    got = fg.jit(lambda c: fst.matrix_normal.logpdf(MATRICES, MEAN, ROWS, c))(SCALE)
    _close(got, scipy_stats.matrix_normal.logpdf(MATRICES, MEAN, ROWS, SCALE), 1e-12)


@pytest.mark.parametrize("call, match", [
    (lambda: fst.matrix_normal.logpdf(MATRICES, MEAN, SCALE), "mean has shape"),
    (lambda: fst.matrix_normal.logpdf(MATRICES[..., :2], MEAN), r"X's matrices must be"),
    (lambda: fst.matrix_normal.rvs(MEAN, size=2.5), "size must be an integer"),
    (lambda: fst.matrix_t.logpdf(MATRICES, MEAN, df=0.0), "df must be positive"),
    (lambda: fst.matrix_t.rvs(np.zeros(3)), "2-d"),
])
def test_matrix_distributions_bad_input_names_the_problem(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- multivariate_hypergeom and dirichlet_multinomial --------------------------------------------

# x, m, n: broadcasting, bad parameters (NaN), impossible counts (-inf), an empty urn
HYPERGEOM_CASES = [([1, 2], [3, 4], 3), ([[1, 2], [0, 1]], [[3, 4]], [3, 1]),
                   ([1, 2], [-1, 4], 3), ([0, 0], [0, 0], 0), ([2, 2], [3, 4], 3),
                   ([1, 1, 1], [2, 3, 4], [3, 10])]


def test_multivariate_hypergeom_matches_scipy():
    ours, theirs = fst.multivariate_hypergeom, scipy_stats.multivariate_hypergeom
    for x, m, n in HYPERGEOM_CASES:
        np.testing.assert_allclose(ours.logpmf(x, m, n), theirs.logpmf(x, m, n), rtol=1e-13)
        np.testing.assert_allclose(ours.pmf(x, m, n), theirs.pmf(x, m, n), rtol=1e-13)
    for m, n in (([3, 4], 3), ([0, 0], 0), ([1, 0], 1), ([-1, 2], 1),
                 ([[3, 4], [2, 2]], [3, 5]), ([2, 3, 5], 4)):
        for method in ("mean", "var", "cov"):
            np.testing.assert_allclose(getattr(ours, method)(m, n),
                                       getattr(theirs, method)(m, n), rtol=1e-13)
    for size in (None, 3, (2, 3)):
        np.testing.assert_array_equal(ours.rvs([3, 4, 5], 6, size, 2),
                                      theirs.rvs([3, 4, 5], 6, size, 2))
    np.testing.assert_array_equal(ours([3, 4], 3, seed=1).rvs(2),
                                  theirs([3, 4], 3, seed=1).rvs(2))
    with pytest.raises(TypeError, match="m must be an array of integers"):
        ours.logpmf([1, 2], [3.0, 4.0], 3)


DM_ALPHA = np.array([[1.5, 2.0, 3.0], [0.5, 4.0, 0.7]])
DM_X = np.array([[1, 2, 3], [4, 0, 2]])


def test_dirichlet_multinomial_matches_scipy_and_differentiates_in_alpha():
    ours, theirs = fst.dirichlet_multinomial, scipy_stats.dirichlet_multinomial
    for n in ([6, 6], 7):  # (7: the counts do not sum to n, -inf)
        np.testing.assert_allclose(ours.logpmf(DM_X, DM_ALPHA, n),
                                   theirs.logpmf(DM_X, DM_ALPHA, n), rtol=1e-13)
    np.testing.assert_allclose(ours(DM_ALPHA, 6).pmf(DM_X[0]), theirs(DM_ALPHA, 6).pmf(DM_X[0]),
                               rtol=1e-13)
    direction = np.array([[0.3, -0.2, 0.5], [0.1, 0.4, -0.6]])
    got = fg.grad(lambda a: ours.logpmf(DM_X, a, 6).sum())(DM_ALPHA)
    _close(np.sum(got * direction),
           _central(lambda a: theirs.logpmf(DM_X, a, 6).sum(), DM_ALPHA, direction), 1e-6)
    n = [[6], [9]]  # (broadcast against alpha's two rows)
    for method in ("mean", "var", "cov"):
        _close(getattr(ours, method)(DM_ALPHA, n), getattr(theirs, method)(DM_ALPHA, n), 1e-13)

        def weighted(a, dist, method=method):
            value = getattr(dist, method)(a, n)
            return (value * np.cos(np.arange(value.size)).reshape(value.shape)).sum()
        got = fg.grad(weighted)(DM_ALPHA, ours)
        _close(np.sum(got * direction),
               _central(lambda a: weighted(a, theirs), DM_ALPHA, direction), 1e-6)


def test_dirichlet_multinomial_keeps_float32_and_works_under_jit_and_vmap():
    assert fst.dirichlet_multinomial.logpmf(DM_X, DM_ALPHA.astype(np.float32), 6).dtype \
        == np.float32
    want = scipy_stats.dirichlet_multinomial.logpmf(DM_X[0], DM_ALPHA, 6)
    _close(fg.vmap(lambda a: fst.dirichlet_multinomial.logpmf(DM_X[0], a, 6))(DM_ALPHA),
           want, 1e-13)
    _close(fg.jit(lambda a: fst.dirichlet_multinomial.logpmf(DM_X[0], a, 6))(DM_ALPHA), want,
           1e-13)


@pytest.mark.parametrize("args, match", [
    ((DM_X, -DM_ALPHA, 6), "alpha must contain only positive"),
    ((DM_X + 0.5, DM_ALPHA, 6), "x must contain only non-negative integers"),
    ((DM_X, DM_ALPHA, 6.5), "n must be a non-negative integer"),
    ((DM_X, DM_ALPHA[:, :2], 6), "must be broadcastable"),
])
def test_dirichlet_multinomial_bad_input_names_the_problem(args, match):
    with pytest.raises(ValueError, match=match):
        fst.dirichlet_multinomial.logpmf(*args)


# --- normal_inverse_gamma ------------------------------------------------------------------------

NIG_POINT = (0.5, 1.5, 0.2, 2.0, 3.0, 1.5)  # x, s2, mu, lmbda, a, b


def test_normal_inverse_gamma_matches_scipy():
    ours, theirs = fst.normal_inverse_gamma, scipy_stats.normal_inverse_gamma
    # a bad lmbda (NaN) and s2 <= 0 (density 0)
    args = (np.array([0.5, -1.0, 2.0]), np.array([1.5, 0.3, -1.0]), 0.2,
            np.array([2.0, -1.0, 1.0]), 3.0, 1.5)
    _close(ours.logpdf(*args), theirs.logpdf(*args), 1e-13)
    _close(ours.pdf(*args), theirs.pdf(*args), 1e-13)
    for a in (0.5, 1.5, 3.0):  # (NaN moments where a <= 1 or a <= 2)
        for method in ("mean", "var"):
            _close(getattr(ours, method)(1.0, 2.0, a, 4.0),
                   getattr(theirs, method)(1.0, 2.0, a, 4.0), 1e-13)
    for size in (None, 3, (2, 2)):
        _close(ours.rvs(1.0, 2.0, 2.5, 1.5, size, 3), theirs.rvs(1.0, 2.0, 2.5, 1.5, size, 3),
               1e-13)
    _close(ours(0.0, 1.0, 3.0, 2.0, seed=4).rvs(2), theirs(0.0, 1.0, 3.0, 2.0, seed=4).rvs(2),
           1e-13)
    _close(ours(*NIG_POINT[2:]).logpdf(*NIG_POINT[:2]), theirs.logpdf(*NIG_POINT), 1e-13)


@pytest.mark.parametrize("i", range(6))
def test_normal_inverse_gamma_derivatives_match_scipy(i):
    ours, theirs = fst.normal_inverse_gamma, scipy_stats.normal_inverse_gamma
    point = list(NIG_POINT)

    def moved(f, v):
        return f(*point[:i], v, *point[i + 1:])
    got = fg.grad(lambda v: moved(ours.logpdf, v))(point[i])
    _close(got, _central(lambda v: moved(theirs.logpdf, v), point[i]), 1e-6)
    if i >= 2:  # the draws (x, s2), for fixed random numbers, in mu, lmbda, a and b
        point = [None, None, 1.0, 2.0, 2.5, 1.5]
        for j in range(2):
            def draw(f, v, j=j):
                return moved(lambda *p: f(*p[2:], random_state=3)[j], v)
            got = fg.grad(lambda v: draw(ours.rvs, v))(point[i])
            _close(got, _central(lambda v: draw(theirs.rvs, v), point[i]), 1e-6, 1e-12)


def test_normal_inverse_gamma_keeps_float32_and_works_under_jit_and_vmap():
    f32 = np.float32
    assert fst.normal_inverse_gamma.logpdf(f32(0.5), f32(1.5)).dtype == np.float32
    assert fst.normal_inverse_gamma.rvs(f32(1.0), size=2, random_state=1)[1].dtype == np.float32
    b = np.array([0.5, 1.5, 3.0])
    want = scipy_stats.normal_inverse_gamma.logpdf(*NIG_POINT[:5], b)
    _close(fg.vmap(lambda b: fst.normal_inverse_gamma.logpdf(*NIG_POINT[:5], b))(b), want, 1e-13)
    _close(fg.jit(lambda b: fst.normal_inverse_gamma.logpdf(*NIG_POINT[:5], b))(b), want, 1e-13)


# --- vonmises_fisher and uniform_direction -------------------------------------------------------

def _unit(v):
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


# dimension 2 (NumPy's von Mises sampler), 3 (by inversion), 5 (rejection sampling)
VMF_MUS = [_unit([1.0, -2.0]), _unit([1.0, -2.0, 3.0]), _unit([1.0, -2.0, 3.0, -4.0, 5.0])]


@pytest.mark.parametrize("mu", VMF_MUS, ids=lambda mu: f"d{len(mu)}")
def test_vonmises_fisher_matches_scipy(mu):
    ours, theirs = fst.vonmises_fisher, scipy_stats.vonmises_fisher
    x = theirs.rvs(mu, 3.0, size=4, random_state=1)
    _close(ours.logpdf(x, mu, 3.0), theirs.logpdf(x, mu, 3.0), 1e-13)
    _close(ours(mu, 3.0).pdf(x[0]), theirs(mu, 3.0).pdf(x[0]), 1e-13)
    _close(ours.entropy(mu, 3.0), theirs.entropy(mu, 3.0), 1e-13)
    # the draws: every size form, and the mean directions of SciPy's rotation's cases
    # (mu[0] of either sign, +-e1)
    d = len(mu)
    for size, m in ((None, mu), ((2, 2), mu), (3, -mu), (3, np.eye(d)[0]), (3, -np.eye(d)[0])):
        got, want = ours.rvs(m, 3.0, size, 7), theirs.rvs(m, 3.0, size, 7)
        assert np.shape(got) == np.shape(want)
        _close(got, want, 1e-12, 1e-15)
    got, want = ours.fit(x), theirs.fit(x)
    _close(got[0], want[0], 1e-12)
    _close(got[1], want[1], 1e-9)


@pytest.mark.parametrize("mu", VMF_MUS, ids=lambda mu: f"d{len(mu)}")
def test_vonmises_fisher_derivatives_match_scipy(mu):
    ours, theirs = fst.vonmises_fisher, scipy_stats.vonmises_fisher
    d = len(mu)
    x = theirs.rvs(mu, 3.0, size=4, random_state=1)
    _close(fg.grad(lambda k: ours.logpdf(x, mu, k).sum())(3.0),
           _central(lambda k: theirs.logpdf(x, mu, k).sum(), 3.0), 1e-6)
    _close(fg.grad(lambda k: ours.entropy(mu, k))(3.0),
           _central(lambda k: theirs.entropy(mu, k), 3.0), 1e-6)
    # in mu, along the sphere (SciPy's mu must stay a unit vector)
    tangent = np.sin(np.arange(1.0, d + 1))
    tangent -= (tangent @ mu) * mu
    weights = np.cos(np.arange(3.0 * d)).reshape(3, d)
    got = fg.grad(lambda m: (ours.rvs(m, 3.0, 3, 7) * weights).sum())(mu)
    _close(got @ tangent, _central(lambda m: (theirs.rvs(_unit(m), 3.0, 3, 7) * weights).sum(),
                                   mu, tangent), 1e-6)
    got = fg.grad(lambda m: ours.logpdf(x, m, 3.0).sum())(mu)
    _close(got, 3.0 * x.sum(axis=0), 1e-12)  # (kappa mu.x: the gradient is kappa sum x)
    # fit's kappa in the data, along each point's tangent
    along = np.cos(np.arange(4.0 * d)).reshape(4, d)
    along -= np.sum(along * x, axis=-1, keepdims=True) * x
    got = fg.grad(lambda x: ours.fit(x)[1])(x)
    _close(np.sum(got * along),
           _central(lambda x: theirs.fit(x / np.linalg.norm(x, axis=-1, keepdims=True))[1], x,
                    along), 1e-5)
    # in kappa: by inversion in dimension 3, else a clear error
    if d == 3:
        got = fg.grad(lambda k: (ours.rvs(mu, k, 3, 7) * weights).sum())(3.0)
        _close(got, _central(lambda k: (theirs.rvs(mu, k, 3, 7) * weights).sum(), 3.0), 1e-6)
    else:
        with pytest.raises(NotImplementedError, match="no derivative in kappa"):
            fg.grad(lambda k: ours.rvs(mu, k, 3, 7).sum())(3.0)


def test_vonmises_fisher_keeps_float32_and_works_under_jit_and_vmap():
    mu = VMF_MUS[1]
    x = scipy_stats.vonmises_fisher.rvs(mu, 3.0, size=4, random_state=1)
    assert fst.vonmises_fisher.logpdf(x.astype(np.float32), mu.astype(np.float32),
                                      np.float32(3.0)).dtype == np.float32
    assert fst.vonmises_fisher.rvs(mu.astype(np.float32), 3.0, 2, 0).dtype == np.float32
    kappas = np.array([0.5, 3.0, 40.0])
    want = [scipy_stats.vonmises_fisher.logpdf(x[0], mu, k) for k in kappas]
    _close(fg.vmap(lambda k: fst.vonmises_fisher.logpdf(x[0], mu, k))(kappas), want, 1e-13)
    _close(fg.jit(lambda m: fst.vonmises_fisher.logpdf(x, m, 3.0))(mu),
           scipy_stats.vonmises_fisher.logpdf(x, mu, 3.0), 1e-13)


@pytest.mark.parametrize("call, match", [
    (lambda: fst.vonmises_fisher.logpdf(VMF_MUS[1], 2 * VMF_MUS[1]), "mu must be a unit"),
    (lambda: fst.vonmises_fisher.logpdf(2 * VMF_MUS[1], VMF_MUS[1]), "x must be unit"),
    (lambda: fst.vonmises_fisher.entropy(VMF_MUS[1], 0.0), "uniform_direction"),
    (lambda: fst.vonmises_fisher.rvs(np.ones(1)), "at least two entries"),
    (lambda: fst.uniform_direction.rvs(2.5), "dim must be an integer"),
])
def test_vonmises_fisher_bad_input_names_the_problem(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_uniform_direction_draws_are_scipys():
    for dim, size in ((3, None), (4, (2, 3)), (2, 5)):
        got = fst.uniform_direction.rvs(dim, size, 2)
        want = scipy_stats.uniform_direction.rvs(dim, size, 2)
        assert got.shape == want.shape
        _close(got, want, 1e-14)
    _close(fst.uniform_direction(3, seed=5).rvs(2), scipy_stats.uniform_direction(3, seed=5).rvs(2),
           1e-14)


# --- the random matrix groups and random_correlation ---------------------------------------------

@pytest.mark.parametrize("name", ["ortho_group", "special_ortho_group", "unitary_group"])
def test_matrix_group_draws_are_scipys(name):
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    for dim, size in ((3, 1), (4, 3), (1, 2), (0, 1)):
        got, want = ours.rvs(dim, size, 3), theirs.rvs(dim, size, 3)
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(ours(3, seed=2).rvs(2), theirs(3, seed=2).rvs(2), rtol=1e-14)
    with pytest.raises(ValueError, match="dim must be a non-negative integer"):
        ours.rvs(2.5)


def test_random_correlation_is_scipys_and_differentiates_in_eigs():
    eigs = np.array([0.2, 0.3, 1.4, 2.1])
    for seed in (0, 1):
        _close(fst.random_correlation.rvs(eigs, seed), scipy_stats.random_correlation.rvs(
            eigs, seed), 1e-12, 1e-15)
    _close(fst.random_correlation(eigs[::-1], seed=3).rvs(),
           scipy_stats.random_correlation(eigs[::-1], seed=3).rvs(), 1e-12, 1e-15)
    direction = np.array([0.3, -0.5, 0.1, 0.1])  # (keeps the sum: eigs stay valid)
    weights = np.cos(np.arange(16.0)).reshape(4, 4)

    def weighted(e, dist):
        return (dist.rvs(e, random_state=1, tol=1e-9) * weights).sum()
    got = fg.grad(lambda e: weighted(e, fst.random_correlation))(eigs)
    _close(got @ direction, _central(lambda e: weighted(e, scipy_stats.random_correlation),
                                     eigs, direction), 1e-6)
    # at eigs all 1 (the identity) the rotations jump as eigs move
    with pytest.raises(NotImplementedError, match="no derivative in eigs"):
        fg.grad(lambda e: fst.random_correlation.rvs(e, random_state=1).sum())(np.ones(2))
    with pytest.raises(ValueError, match="must sum to their count"):
        fst.random_correlation.rvs(np.array([0.5, 0.6]))


# --- Covariance ----------------------------------------------------------------------------------

_W, _V = np.linalg.eigh(SCALE)
# factory, its argument; the last two singular (a zero diagonal entry, a zero eigenvalue)
COVARIANCES = [("from_precision", np.linalg.inv(SCALE)), ("from_cholesky", np.linalg.cholesky(SCALE)),
               ("from_eigendecomposition", (_W, _V)), ("from_diagonal", np.array([1.0, 4.0, 0.5])),
               ("from_diagonal", np.array([1.0, 0.0, 2.0])),
               ("from_eigendecomposition", (np.array([0.0, 1.0, 2.0]), _V))]
COV_POINTS = np.array([[0.3, -1.0, 2.0], [1.0, 0.5, -0.2]])


COV_IDS = ["precision", "cholesky", "eigen", "diagonal", "singular_diagonal", "singular_eigen"]


@pytest.mark.parametrize("factory, arg", COVARIANCES, ids=COV_IDS)
def test_covariance_matches_scipy(factory, arg):
    ours, theirs = getattr(fst.Covariance, factory)(arg), getattr(scipy_stats.Covariance,
                                                                     factory)(arg)
    for x in (COV_POINTS, COV_POINTS[0]):
        _close(ours.whiten(x), theirs.whiten(x), 1e-13, 1e-15)
        _close(ours.colorize(x), theirs.colorize(x), 1e-13, 1e-15)
    _close(ours.log_pdet, theirs.log_pdet, 1e-13)
    _close(ours.covariance, theirs.covariance, 1e-13, 1e-15)
    assert ours.rank == theirs.rank and ours.shape == theirs.shape
    # multivariate_normal takes it as cov (a singular one with allow_singular=True)
    mean = np.ones(3)
    points = COV_POINTS if theirs.rank == 3 else mean + theirs.colorize(COV_POINTS)
    _close(fst.multivariate_normal.logpdf(points, mean, ours, allow_singular=theirs.rank < 3),
           scipy_stats.multivariate_normal.logpdf(points, mean, theirs), 1e-12)
    _close(fst.multivariate_normal.entropy(mean, ours),
           scipy_stats.multivariate_normal(mean, theirs).entropy(), 1e-12)


@pytest.mark.parametrize("factory, arg", COVARIANCES[:4], ids=COV_IDS[:4])
def test_covariance_differentiates_in_its_arrays(factory, arg):
    def value(a, stats):
        c = getattr(stats.Covariance, factory)(a)
        return (c.whiten(COV_POINTS).sum() + 0.3 * c.colorize(COV_POINTS).sum() + c.log_pdet
                + stats.multivariate_normal.logpdf(COV_POINTS, None, c).sum())
    if factory == "from_eigendecomposition":  # (in the eigenvalues)
        got = fg.grad(lambda w: value((w, arg[1]), fst))(arg[0])
        direction = np.array([0.3, -0.2, 0.5])
        want = _central(lambda w: value((w, arg[1]), scipy_stats), arg[0], direction)
    else:
        direction = np.tril(DIRECTION) if factory == "from_cholesky" else (
            np.diag(DIRECTION) if factory == "from_diagonal" else DIRECTION)
        got = fg.grad(lambda a: value(a, fst))(arg)
        want = _central(lambda a: value(a, scipy_stats), arg, direction)
    _close(np.sum(got * direction), want, 1e-6)


def test_covariance_bad_input_names_the_problem():
    with pytest.raises(NotImplementedError, match="factories"):
        fst.Covariance()
    with pytest.raises(ValueError, match="diagonal must be a one-dimensional array"):
        fst.Covariance.from_diagonal(np.eye(2))
    with pytest.raises(ValueError, match="must equal covariance.shape"):
        fst.Covariance.from_precision(np.eye(2), np.eye(3))


def test_random_table_matches_scipy():
    ours, theirs = fst.random_table, scipy_stats.random_table
    row, col = [3, 2, 4], [4, 5]
    tables = theirs.rvs(row, col, size=3, random_state=1)
    _close(ours.logpmf(tables, row, col), theirs.logpmf(tables, row, col), 1e-13)
    _close(ours.pmf([[1, 2], [3, 3]], [3, 6], [4, 5]), theirs.pmf([[1, 2], [3, 3]], [3, 6],
                                                                  [4, 5]), 1e-13)
    assert ours.logpmf([[1, 2], [3, 2]], [3, 6], [4, 5]) == -np.inf  # (wrong margins)
    _close(ours.mean(row, col), theirs.mean(row, col), 1e-15)
    for method in (None, "boyett", "patefield"):
        draws = ours.rvs(row, col, size=(2, 3), method=method, random_state=2)
        np.testing.assert_array_equal(draws.sum(axis=-1), np.broadcast_to(row, (2, 3, 3)))
        np.testing.assert_array_equal(draws, theirs.rvs(row, col, size=(2, 3), method=method,
                                                        random_state=2))
    np.testing.assert_array_equal(ours(row, col, seed=2).rvs(2), theirs(row, col, seed=2).rvs(2))
    with pytest.raises(ValueError, match="must be equal"):
        ours.mean([1, 2], [2, 2])


def test_covariance_keeps_float32_and_works_under_jit_and_vmap():
    d32 = np.array([1.0, 4.0, 0.5], np.float32)
    c = fst.Covariance.from_diagonal(d32)
    assert c.log_pdet.dtype == np.float32 and c.whiten(COV_POINTS.astype(np.float32)).dtype \
        == np.float32
    diagonals = np.array([[1.0, 4.0, 0.5], [2.0, 0.0, 1.0]])
    want = [scipy_stats.Covariance.from_diagonal(d).log_pdet for d in diagonals]
    _close(fg.vmap(lambda d: fst.Covariance.from_diagonal(d).log_pdet)(diagonals), want, 1e-13)
    _close(fg.jit(lambda p: fst.multivariate_normal.logpdf(
        COV_POINTS, None, fst.Covariance.from_precision(p)))(COVARIANCES[0][1]),
        scipy_stats.multivariate_normal.logpdf(COV_POINTS, None, SCALE), 1e-12)


def test_densities_differentiate_twice():
    """Second derivatives go through the same rules (here in the scalar parameters,
    against second central differences of SciPy's values)."""
    h = 1e-4

    def second(f, v):
        return (f(v + h) - 2 * f(v) + f(v - h)) / h ** 2
    mu = VMF_MUS[1]
    x = scipy_stats.vonmises_fisher.rvs(mu, 2.0, size=3, random_state=1)
    cases = [(lambda d, s: s.wishart.logpdf(POINTS, d, SCALE).sum(), 6.0),
             (lambda d, s: s.invwishart.logpdf(POINTS, d, SCALE).sum(), 6.0),
             (lambda k, s: s.vonmises_fisher.logpdf(x, mu, k).sum(), 2.0),
             (lambda d, s: s.matrix_t.logpdf(MATRICES, MEAN, ROWS, SCALE, d).sum(), 3.5)]
    for f, v in cases:
        _close(fg.hessian(lambda v: f(v, fst))(v), second(lambda v: f(v, scipy_stats), v), 1e-5)


def test_a_singular_covariance_object_and_a_frozen_singular_entropy_are_scipys():
    """A singular Covariance needs no allow_singular (SciPy's objects carry their rank),
    and a frozen multivariate_normal with allow_singular=True has an entropy (it raised
    TypeError: the keyword reached entropy)."""
    import scipy.stats as ss
    from funcgrad.scipy import stats as fs
    pair = (np.array([1.0, 0.0]), np.eye(2))
    x = np.array([0.3, 0.0])
    np.testing.assert_allclose(
        fs.multivariate_normal.logpdf(x, cov=fs.Covariance.from_eigendecomposition(pair)),
        ss.multivariate_normal.logpdf(x, cov=ss.Covariance.from_eigendecomposition(pair)),
        rtol=1e-14)
    cov = np.diag([1.0, 0.0])
    np.testing.assert_allclose(
        fs.multivariate_normal(np.zeros(2), cov, allow_singular=True).entropy(),
        ss.multivariate_normal(np.zeros(2), cov, allow_singular=True).entropy(), rtol=1e-14)
