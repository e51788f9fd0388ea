"""fg.scipy.optimize's linear programs and their kin -- linprog: its values equal SciPy's
(HiGHS), its solution's derivatives in c, A_ub, b_ub, A_eq and b_eq equal central
differences of SciPy's solutions at a nondegenerate vertex, float32 stays float32, one
vmap/jit check, and a clear error (never a silent wrong derivative) where the vertex is
degenerate, the optimum is a face, the problem was not solved, or the data cannot carry
one."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

optimize = pytest.importorskip("scipy.optimize")
import funcgrad.scipy.optimize as fo  # noqa: E402


def central_jacobian(f, x, h=1e-6):
    """d f / d x by central differences: ``f(x).shape + x.shape``."""
    x = np.asarray(x, float)
    columns = []
    for i in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[i] = h
        columns.append((np.asarray(f(x + step)) - np.asarray(f(x - step))) / (2 * h))
    return np.moveaxis(np.array(columns), 0, -1).reshape(np.shape(f(x)) + x.shape)


# --- linprog ---------------------------------------------------------------------------

# a vertex where one inequality, the equality and an upper bound are active (n = 3), each
# with a nonzero multiplier: every input moves x or fun
LP = {"c": np.array([-1.0, -2.0, -0.5]),
      "A_ub": np.array([[1.0, 1.0, 1.0], [1.0, -1.0, 0.5], [0.2, 1.0, 0.0]]),
      "b_ub": np.array([4.0, 1.0, 2.5]),
      "A_eq": np.array([[1.0, 0.0, -1.0]]), "b_eq": np.array([0.5])}
LP_BOUNDS = (0, 2.2)


def _lp_solution(module, name, value, dtype=float):
    data = {k: np.asarray(v, dtype) for k, v in LP.items()}
    data[name] = value
    result = module.linprog(**data, bounds=LP_BOUNDS)
    return fnp.concatenate([result.x, fnp.reshape(result.fun, (1,))])


def test_linprog_values_and_fields_equal_scipy():
    ours = fo.linprog(**LP, bounds=LP_BOUNDS)
    theirs = optimize.linprog(**LP, bounds=LP_BOUNDS)
    np.testing.assert_allclose(ours.x, [1.15, 2.2, 0.65], rtol=1e-12)
    for field in ("x", "fun", "slack", "con", "status", "success"):
        np.testing.assert_array_equal(ours[field], theirs[field])
    np.testing.assert_array_equal(ours.ineqlin.marginals, theirs.ineqlin.marginals)
    # SciPy's example, with a free variable and a lower bound
    c, A, b = [-1, 4], [[-3, 1], [1, 2]], [6, 4]
    res = fo.linprog(c, A_ub=A, b_ub=b, bounds=[(None, None), (-3, None)])
    np.testing.assert_allclose(res.x, [10.0, -3.0])
    assert res.fun == -22.0 and res.x.dtype == np.float64
    # data given as lists, beside a traced b_ub
    as_lists = {k: v.tolist() for k, v in LP.items() if k != "b_ub"}
    np.testing.assert_allclose(
        fg.grad(lambda b: fo.linprog(**as_lists, b_ub=b, bounds=LP_BOUNDS).fun)(LP["b_ub"]),
        theirs.ineqlin.marginals, rtol=1e-12)
    assert fo.show_options is optimize.show_options
    assert fo.linprog_verbose_callback is optimize.linprog_verbose_callback


@pytest.mark.parametrize("name", ["c", "A_ub", "b_ub", "A_eq", "b_eq"])
def test_linprog_derivatives_equal_central_differences(name):
    got = fg.jacobian(lambda v: _lp_solution(fo, name, v))(LP[name])
    want = central_jacobian(lambda v: np.asarray(_lp_solution(optimize, name, v)), LP[name])
    np.testing.assert_allclose(got, want, atol=1e-7)
    if name in ("b_ub", "A_eq"):
        assert np.abs(got[:3]).max() > 0.1   # (the test is not vacuous: x moves)
    if name == "c":   # x stays at its vertex; fun moves by x
        np.testing.assert_array_equal(got[:3], 0.0)
        np.testing.assert_allclose(got[3], [1.15, 2.2, 0.65], rtol=1e-12)


def test_linprog_float32_vmap_and_jit():
    b32 = LP["b_ub"].astype(np.float32)
    res = fo.linprog(**{k: v.astype(np.float32) for k, v in LP.items()}, bounds=LP_BOUNDS)
    assert res.x.dtype == np.float32 and np.asarray(res.fun).dtype == np.float32
    x_of_b = lambda b: _lp_solution(fo, "b_ub", b, np.float32)  # noqa: E731
    jac32 = fg.jacobian(x_of_b)(b32)
    assert jac32.dtype == np.float32
    np.testing.assert_allclose(jac32, fg.jacobian(lambda b: _lp_solution(fo, "b_ub", b))(
        LP["b_ub"]), rtol=1e-6)
    batch = np.stack([LP["b_ub"], LP["b_ub"] * 1.05, LP["b_ub"] + [0.1, 0.0, 0.0]])
    x_of = lambda b: _lp_solution(fo, "b_ub", b)  # noqa: E731
    np.testing.assert_allclose(fg.vmap(x_of)(batch),
                               np.stack([_lp_solution(optimize, "b_ub", b) for b in batch]),
                               rtol=1e-12)
    np.testing.assert_allclose(fg.vmap(fg.jacobian(x_of))(batch),
                               np.stack([fg.jacobian(x_of)(b) for b in batch]), rtol=1e-12)
    np.testing.assert_allclose(fg.jit(fg.grad(lambda b: x_of(b)[0]))(LP["b_ub"]),
                               fg.grad(lambda b: x_of(b)[0])(LP["b_ub"]), rtol=1e-12)


def _redundant_row(b):   # a second row through the vertex: four active constraints for 3
    return fo.linprog(LP["c"], np.vstack([LP["A_ub"], 2 * LP["A_ub"][:1]]),
                      np.concatenate([b, 2 * b[:1]]), LP["A_eq"], LP["b_eq"],
                      bounds=LP_BOUNDS).x


def _tie(c):   # min -x0 - x1 on x0 + x1 <= 1: an optimal edge, one vertex returned
    return fo.linprog(c, A_ub=[[1.0, 1.0]], b_ub=[1.0]).x


@pytest.mark.parametrize("fn, at, match", [
    (_redundant_row, LP["b_ub"], "degenerate .*4 constraints are active for 3"),
    (_tie, np.array([-1.0, -1.0]), "degenerate .*zero multiplier"),
    (lambda b: fo.linprog([1.0, 1.0], A_ub=[[-1.0, -1.0]], b_ub=b, bounds=(0, 0.2)).x,
     np.array([-1.0]), "not solved to optimality"),
    (lambda c: fo.linprog(c, A_ub=[[1.0, 1.0]], b_ub=[1.5], integrality=[1, 1]).x,
     np.array([-1.0, -2.0]), "mixed-integer"),
    (lambda u: fo.linprog([-1.0], bounds=[(0, u)]).x, 1.0, "bounds hold a traced value"),
], ids=["primal-degenerate", "tie", "infeasible", "integrality", "traced-bounds"])
def test_linprog_refuses_a_derivative_that_does_not_exist(fn, at, match):
    with pytest.raises((ValueError, TypeError), match=match):
        fg.jacobian(fn)(at)


def test_linprog_degenerate_vertex_without_a_derivative_is_scipys():
    np.testing.assert_array_equal(_redundant_row(LP["b_ub"]), optimize.linprog(
        LP["c"], np.vstack([LP["A_ub"], 2 * LP["A_ub"][:1]]),
        np.concatenate([LP["b_ub"], 2 * LP["b_ub"][:1]]), LP["A_eq"], LP["b_eq"],
        bounds=LP_BOUNDS).x)


# --- lsq_linear --------------------------------------------------------------------------

LSQ_A = np.array([[0.3, 0.8, 0.3], [-1.3, 0.9, 0.4], [-0.5, 0.6, 0.4], [0.3, 0.0, 0.5],
                  [-0.7, -0.2, -0.5]])
LSQ_B = np.array([0.6, 0.0, -0.3, -0.8, -0.3])
LSQ_BOUNDS = ([-np.inf, -np.inf, -1.0], [0.3, np.inf, 1.0])   # x0 on its upper bound,
# x1 free, x2 on its lower bound: the gradient presses both


def _lsq(module, A, b, method="bvls"):
    res = module.lsq_linear(A, b, bounds=LSQ_BOUNDS, method=method)
    return fnp.concatenate([res.x, fnp.reshape(res.cost, (1,))])


def test_lsq_linear_values_equal_scipy():
    for method in ("trf", "bvls"):
        for bounds in (LSQ_BOUNDS, (-np.inf, np.inf)):
            ours = fo.lsq_linear(LSQ_A, LSQ_B, bounds=bounds, method=method)
            theirs = optimize.lsq_linear(LSQ_A, LSQ_B, bounds=bounds, method=method)
            for field in ("x", "cost", "fun", "active_mask", "status", "nit"):
                np.testing.assert_array_equal(ours[field], theirs[field])
    np.testing.assert_allclose(ours.x, np.linalg.lstsq(LSQ_A, LSQ_B, rcond=None)[0])
    # (lists, traced or not: d x / d b is the pseudo-inverse without bounds)
    np.testing.assert_allclose(fg.jacobian(lambda b: fo.lsq_linear(LSQ_A.tolist(), [
        b[0], *LSQ_B[1:].tolist()]).x)(LSQ_B)[:, 0], np.linalg.pinv(LSQ_A)[:, 0], rtol=1e-10)


@pytest.mark.parametrize("wrt", ["A", "b"])
def test_lsq_linear_derivatives_equal_central_differences(wrt):
    # (bvls is exact to rounding: central differences of its solutions are accurate)
    def scipy_at(v):
        return np.asarray(_lsq(optimize, v, LSQ_B) if wrt == "A" else _lsq(optimize, LSQ_A, v))

    def ours_at(v, method="bvls"):
        return _lsq(fo, v, LSQ_B, method) if wrt == "A" else _lsq(fo, LSQ_A, v, method)

    at = LSQ_A if wrt == "A" else LSQ_B
    got = fg.jacobian(ours_at)(at)
    np.testing.assert_allclose(got, central_jacobian(scipy_at, at), atol=1e-7)
    np.testing.assert_array_equal(got[[0, 2]], 0.0)   # the held coordinates stay
    assert np.abs(got[1]).max() > 0.1
    # trf ends near (not on) the bounds: the same derivative
    np.testing.assert_allclose(fg.jacobian(lambda v: ours_at(v, "trf"))(at), got, atol=1e-8)


def test_lsq_linear_float32_vmap_and_jit():
    res = fo.lsq_linear(LSQ_A.astype(np.float32), LSQ_B.astype(np.float32), bounds=LSQ_BOUNDS)
    assert res.x.dtype == np.float32 and res.fun.dtype == np.float32
    x1 = lambda b: fo.lsq_linear(LSQ_A, b, bounds=LSQ_BOUNDS).x[1]  # noqa: E731
    assert fg.grad(x1)(LSQ_B.astype(np.float32)).dtype == np.float32
    batch = np.stack([LSQ_B, LSQ_B * 1.1, LSQ_B - 0.05])
    np.testing.assert_allclose(fg.vmap(fg.grad(x1))(batch),
                               np.stack([fg.grad(x1)(b) for b in batch]), rtol=1e-12)
    np.testing.assert_allclose(fg.jit(lambda b: fo.lsq_linear(LSQ_A, b, bounds=LSQ_BOUNDS).x)(
        LSQ_B), optimize.lsq_linear(LSQ_A, LSQ_B, bounds=LSQ_BOUNDS).x, rtol=1e-12)


@pytest.mark.parametrize("fn, at, match", [
    # x* = 1 on the bound 1, where the gradient is zero: one-sided derivatives only
    (lambda b: fo.lsq_linear(np.eye(2), b, bounds=(-5.0, 1.0)).x, np.array([1.0, 0.5]),
     "does not press"),
    (lambda b: fo.lsq_linear(np.ones((3, 2)), b).x, np.array([1.0, 2.0, 3.0]),
     "linearly dependent"),
    (lambda u: fo.lsq_linear(np.eye(2), np.ones(2), bounds=(-1.0, u)).x, 2.0,
     "bounds hold a traced value"),
], ids=["weak-bound", "dependent-columns", "traced-bounds"])
def test_lsq_linear_refuses_a_derivative_that_does_not_exist(fn, at, match):
    with pytest.raises((ValueError, TypeError), match=match):
        fg.jacobian(fn)(at)


# --- isotonic_regression -------------------------------------------------------------------

ISO_Y = np.array([1.0, 4.2, 2.5, 3.1, 5.0, 0.7, 6.0])
ISO_W = np.array([1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 2.0])


@pytest.mark.parametrize("increasing", [True, False])
def test_isotonic_regression_values_and_derivatives(increasing):
    ours = fo.isotonic_regression(ISO_Y, weights=ISO_W, increasing=increasing)
    theirs = optimize.isotonic_regression(ISO_Y, weights=ISO_W, increasing=increasing)
    for field in ("x", "weights", "blocks"):
        np.testing.assert_array_equal(ours[field], theirs[field])
    assert len(ours.blocks) < len(ISO_Y) + 1   # (some pooling: the means are exercised)
    for wrt in ("y", "weights"):
        def fit(v, module):
            kw = {"y": ISO_Y, "weights": ISO_W, wrt: v}
            res = module.isotonic_regression(kw["y"], weights=kw["weights"],
                                             increasing=increasing)
            return fnp.concatenate([res.x, res.weights]) if module is fo else np.concatenate(
                [res.x, res.weights])
        at = ISO_Y if wrt == "y" else ISO_W
        np.testing.assert_allclose(fg.jacobian(lambda v: fit(v, fo))(at),
                                   central_jacobian(lambda v: fit(v, optimize), at),
                                   atol=1e-8)


def test_isotonic_regression_float32_vmap_and_ties():
    res = fo.isotonic_regression(ISO_Y.astype(np.float32))
    assert res.x.dtype == np.float32 and res.weights.dtype == np.float32
    assert fg.grad(lambda y: fo.isotonic_regression(y).x[2])(
        ISO_Y.astype(np.float32)).dtype == np.float32
    batch = np.stack([ISO_Y, ISO_Y[::-1], ISO_Y * 2])
    np.testing.assert_array_equal(fg.vmap(lambda y: fo.isotonic_regression(y).x)(batch),
                                  [optimize.isotonic_regression(y).x for y in batch])
    first = lambda y: fo.isotonic_regression(y).x[1]  # noqa: E731
    np.testing.assert_allclose(fg.vmap(fg.grad(first))(batch),
                               np.stack([fg.grad(first)(y) for y in batch]), rtol=1e-12)
    # [5, 1, 3]: the block [5, 1] has the mean 3 of the next value, and [1, 1] is pooled
    # at its own mean: a perturbation splits or keeps the block
    for y in ([5.0, 1.0, 3.0], [1.0, 1.0], [2.0, 1.0, 1.5]):
        with pytest.raises(ValueError, match="tie"):
            fg.grad(lambda y: fo.isotonic_regression(y).x[0])(np.array(y))


# --- line_search, fmin_slsqp, fmin_cobyla ------------------------------------------------------

def _quartic(x, a):
    return np.sum((x - a) ** 2) + 0.1 * np.sum(x ** 4)


def test_line_search_equals_scipy_and_refuses_a_derivative():
    xk, pk, a = np.array([1.8, 1.7]), np.array([-1.0, -0.5]), np.array([0.2, -0.1])
    exact = lambda x, a: np.asarray(fg.grad(_quartic)(x, a))  # noqa: E731
    want = optimize.line_search(_quartic, exact, xk, pk, args=(a,))
    for fprime in (None, exact):
        got = fo.line_search(_quartic, fprime, xk, pk, args=(a,))
        np.testing.assert_allclose(got[0], want[0], rtol=1e-14)
        assert got[1:3] == want[1:3]
        for ours, theirs in zip(got[3:], want[3:]):   # (new_slope: the new gradient)
            np.testing.assert_allclose(ours, theirs, rtol=1e-14)
    with pytest.raises(ValueError, match="Wolfe step .* has none"):
        fg.grad(lambda a: fo.line_search(_quartic, None, xk, pk, args=(a,))[0])(a)


SLSQP_CONS = [lambda x, a: 2.0 - x[0] - x[1]]   # x0 + x1 <= 2


def _slsqp(a, cons=SLSQP_CONS, bounds=(), **kw):
    return fo.fmin_slsqp(_quartic, [0.0, 0.0], ieqcons=cons, bounds=bounds, args=(a,),
                         iprint=0, acc=1e-12, **kw)


def test_fmin_slsqp_equals_scipy_given_the_same_gradients():
    a = np.array([1.5, 1.5])   # the constraint is active
    grad_f = lambda x, a: np.asarray(fg.grad(_quartic)(x, a))  # noqa: E731
    theirs = optimize.fmin_slsqp(_quartic, [0.0, 0.0], f_ieqcons=lambda x, a: np.array(
        [2.0 - x[0] - x[1]]), fprime=grad_f, fprime_ieqcons=lambda x, a: np.array(
        [[-1.0, -1.0]]), args=(a,), iprint=0, acc=1e-12, full_output=True)
    ours = _slsqp(a, full_output=True)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-10)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-10)
    assert ours[3:] == theirs[3:] and len(ours) == 5
    np.testing.assert_allclose(ours[0].sum(), 2.0, rtol=1e-12)


def test_fmin_slsqp_and_cobyla_derivatives_where_no_constraint_is_active():
    a = np.array([0.3, -0.4])   # the optimum is inside x0 + x1 <= 2
    # x* solves 2 (x - a) + 0.4 x**3 = 0: dx*/da = diag(2 / (2 + 1.2 x*^2))
    x = _slsqp(a)
    closed = np.diag(2 / (2 + 1.2 * x ** 2))
    np.testing.assert_allclose(fg.jacobian(_slsqp)(a), closed, rtol=1e-7)
    cobyla = lambda a: fo.fmin_cobyla(_quartic, [0.0, 0.0],  # noqa: E731
                                      [lambda x, a: 2.0 - x[0] - x[1]], args=(a,),
                                      rhoend=1e-9)
    np.testing.assert_allclose(cobyla(a), optimize.fmin_cobyla(
        _quartic, [0.0, 0.0], [lambda x, a: 2.0 - x[0] - x[1]], args=(a,), rhoend=1e-9))
    np.testing.assert_allclose(fg.jacobian(cobyla)(a), closed, rtol=1e-6)
    # a bound holds x1 at 0 (the gradient presses it): dx1/da = 0, x0 moves as before
    held = fg.jacobian(lambda a: _slsqp(a, bounds=[(-1.0, 1.0), (0.0, 1.0)]))(a)
    x0 = _slsqp(a, bounds=[(-1.0, 1.0), (0.0, 1.0)])[0]
    np.testing.assert_allclose(held, [[2 / (2 + 1.2 * x0 ** 2), 0.0], [0.0, 0.0]], rtol=1e-7)
    batch = np.stack([a, a + 0.1, a - 0.2])
    np.testing.assert_allclose(fg.vmap(fg.jacobian(_slsqp))(batch),
                               np.stack([fg.jacobian(_slsqp)(v) for v in batch]), rtol=1e-9)


@pytest.mark.parametrize("fn", [
    lambda a: _slsqp(a),
    lambda a: fo.fmin_slsqp(_quartic, [0.0, 0.0], eqcons=[lambda x, a: x[0] - x[1]],
                            args=(a,), iprint=0),
    lambda a: fo.fmin_cobyla(_quartic, [0.0, 0.0], [lambda x, a: 2.0 - x[0] - x[1]],
                             args=(a,)),
], ids=["slsqp-inequality", "slsqp-equality", "cobyla"])
def test_fmin_slsqp_and_cobyla_refuse_a_derivative_at_an_active_constraint(fn):
    with pytest.raises(NotImplementedError, match="constraint is active"):
        fg.jacobian(fn)(np.array([1.5, 1.5]))


# --- broyden1 and the other large-scale nonlinear solvers ------------------------------------------

NONLIN = ["broyden1", "broyden2", "anderson", "newton_krylov", "diagbroyden", "excitingmixing",
          "linearmixing"]
NONLIN_C = np.array([1.0, 2.0, 0.5])


@pytest.mark.filterwarnings("ignore::scipy.linalg.LinAlgWarning")   # (anderson's own)
@pytest.mark.parametrize("name", NONLIN)
def test_nonlin_solvers_equal_scipy_and_differentiate_by_the_implicit_rule(name):
    ours, theirs = getattr(fo, name), getattr(optimize, name)

    def F(x):   # x = 0.5 cos(x) + c: dx/dc = diag(1 / (1 + 0.5 sin x))
        return 0.5 * np.cos(x) + NONLIN_C - x
    x = ours(F, [0, 0, 0], f_tol=1e-12)
    np.testing.assert_array_equal(x, theirs(F, [0, 0, 0], f_tol=1e-12))
    jac = fg.jacobian(lambda c: ours(lambda x: 0.5 * fnp.cos(x) + c - x, np.zeros(3),
                                     f_tol=1e-12))(NONLIN_C)
    np.testing.assert_allclose(jac, np.diag(1 / (1 + 0.5 * np.sin(x))), rtol=1e-9)


def test_nonlin_float32_vmap_positional_and_no_convergence():
    root_of = lambda c: fo.broyden1(lambda x: 0.5 * fnp.cos(x) + c - x,  # noqa: E731
                                    np.zeros(3, np.float32), None, None, f_tol=1e-6)
    assert root_of(NONLIN_C.astype(np.float32)).dtype == np.float32
    assert fg.jacobian(root_of)(NONLIN_C.astype(np.float32)).dtype == np.float32
    batch = np.stack([NONLIN_C, NONLIN_C + 1.0])
    np.testing.assert_allclose(fg.vmap(fg.jacobian(root_of))(batch),
                               np.stack([fg.jacobian(root_of)(c) for c in batch]), rtol=1e-12)
    with pytest.raises(optimize.NoConvergence):
        fo.broyden1(lambda x: x ** 2 + 1.0, [1.0], maxiter=5)
    assert fo.NoConvergence is optimize.NoConvergence
    for name in ("BroydenFirst", "InverseJacobian", "KrylovJacobian", "BFGS", "SR1",
                 "HessianUpdateStrategy", "LbfgsInvHessProduct"):
        assert getattr(fo, name) is getattr(optimize, name)


# --- the global minimizers -----------------------------------------------------------------

GLOBAL_A = np.array([0.5, -0.3])


def _bowl(x, a):   # x* solves 2 (x - a) + 0.4 x**3 = 0: dx*/da = diag(2 / (2 + 1.2 x*^2))
    return np.sum((x - a) ** 2) + 0.1 * np.sum(x ** 4)


GLOBAL = {   # name: a call on (module, func, args)
    "differential_evolution": lambda m, f, a: m.differential_evolution(
        f, [(-2, 2)] * 2, args=(a,), rng=0, popsize=8, tol=1e-6).x,
    "basinhopping": lambda m, f, a: m.basinhopping(
        f, [1.0, 1.0], niter=3, minimizer_kwargs={"args": (a,)}, rng=0).x,
    "dual_annealing": lambda m, f, a: m.dual_annealing(
        f, [(-2, 2)] * 2, args=(a,), rng=0, maxiter=20).x,
    "shgo": lambda m, f, a: m.shgo(f, [(-2, 2)] * 2, args=(a,), n=16).x,
    "brute": lambda m, f, a: m.brute(f, ((-2, 2), (-2, 2)), args=(a,), Ns=5,
                                     finish=optimize.minimize),
}


@pytest.mark.parametrize("name", GLOBAL)
def test_global_minimizers_equal_scipy_and_differentiate_at_the_minimum(name):
    call = GLOBAL[name]
    x = call(fo, _bowl, GLOBAL_A)
    # (the same search; funcgrad's exact gradient in the local searches of some)
    np.testing.assert_allclose(x, call(optimize, _bowl, GLOBAL_A), atol=1e-6)
    jac = fg.jacobian(lambda a: call(fo, _bowl, a))(GLOBAL_A)
    np.testing.assert_allclose(jac, np.diag(2 / (2 + 1.2 * x ** 2)), rtol=1e-6, atol=1e-9)


def test_global_minimizers_hold_a_bound_vmap_and_refuse_wrong_derivatives():
    # x0 pressed against its upper bound 0.3 (a0 = 0.5 beyond it): it stays there
    bounded = lambda a: fo.differential_evolution(  # noqa: E731
        _bowl, [(-2, 0.3), (-2, 2)], args=(a,), rng=0, popsize=8, tol=1e-6).x
    np.testing.assert_allclose(bounded(GLOBAL_A)[0], 0.3)
    x1 = bounded(GLOBAL_A)[1]
    np.testing.assert_allclose(fg.jacobian(bounded)(GLOBAL_A),
                               [[0.0, 0.0], [0.0, 2 / (2 + 1.2 * x1 ** 2)]], atol=1e-9)
    batch = np.stack([GLOBAL_A, GLOBAL_A + 0.2])
    shgo_x = lambda a: fo.shgo(_bowl, [(-2, 2)] * 2, args=(a,), n=16).x  # noqa: E731
    np.testing.assert_allclose(fg.vmap(fg.jacobian(shgo_x))(batch),
                               np.stack([fg.jacobian(shgo_x)(a) for a in batch]), rtol=1e-12)
    # DIRECT's boxes and an unpolished population stop short of the minimum
    with pytest.raises(ValueError, match="Newton step"):
        fg.grad(lambda a: fo.direct(_bowl, [(-2, 2)] * 2, args=(a,), len_tol=1e-3).x[0])(
            GLOBAL_A)
    with pytest.raises(ValueError, match="Newton step"):
        fg.grad(lambda a: fo.differential_evolution(_bowl, [(-2, 2)] * 2, args=(a,), rng=0,
                                                    popsize=5, polish=False).x[0])(
            GLOBAL_A)
    # a pytree start (basinhopping): each leaf moves as the closed form says
    tree_x = lambda a: fo.basinhopping(  # noqa: E731
        lambda p, a: _bowl(fnp.stack([p["u"], p["v"]]), a), {"u": 1.0, "v": 1.0}, niter=2,
        rng=0, minimizer_kwargs={"args": (a,)}).x
    x = tree_x(GLOBAL_A)
    np.testing.assert_allclose(fg.grad(lambda a: tree_x(a)["v"])(GLOBAL_A),
                               [0.0, 2 / (2 + 1.2 * x["v"] ** 2)], rtol=1e-9)
    # a valley: (x0 + x1 - a)**2 is least on a line, no isolated minimum
    with pytest.raises(ValueError, match="not positive definite"):
        fg.grad(lambda a: fo.basinhopping(lambda x, a: (x[0] + x[1] - a) ** 2, [0.0, 0.0],
                                          niter=1, rng=0,
                                          minimizer_kwargs={"args": (a,)}).x[1])(0.2)
    with pytest.raises(NotImplementedError, match="constraints"):
        fg.grad(lambda a: fo.shgo(_bowl, [(-2, 2)] * 2, args=(a,), constraints=[
            {"type": "ineq", "fun": lambda x: 1.0 - x[0]}]).x[0])(GLOBAL_A)


# --- milp, quadratic_assignment ---------------------------------------------------------------

def _milp_problem():
    A = np.array([[-1.0, 1.0], [3.0, 2.0], [2.0, 3.0]])   # SciPy's example
    return optimize.LinearConstraint(A, -np.inf, [1.0, 12.0, 12.0]), np.ones(2)


def test_milp_values_fun_derivative_and_errors():
    constraint, integrality = _milp_problem()
    c = np.array([-0.1, -1.0])
    ours = fo.milp(c, constraints=constraint, integrality=integrality)
    theirs = optimize.milp(c, constraints=constraint, integrality=integrality)
    for field in ("x", "fun", "status", "mip_node_count"):
        np.testing.assert_array_equal(ours[field], theirs[field])
    fun_of = lambda c: fo.milp(c, constraints=constraint, integrality=integrality).fun  # noqa: E731
    np.testing.assert_array_equal(fg.grad(fun_of)(c), theirs.x)   # Danskin: d fun / dc = x
    np.testing.assert_allclose(central_jacobian(lambda c: optimize.milp(
        c, constraints=constraint, integrality=integrality).fun, c), theirs.x, atol=1e-8)
    batch = np.stack([c, [-1.0, -0.1]])
    np.testing.assert_array_equal(fg.vmap(fg.grad(fun_of))(batch),
                                  [optimize.milp(v, constraints=constraint,
                                                 integrality=integrality).x for v in batch])
    np.testing.assert_array_equal(fg.jacobian(lambda c: fo.milp(
        c, constraints=constraint, integrality=integrality).x)(c), 0.0)   # (piecewise constant)
    with pytest.raises(ValueError, match="not solved"):
        fg.grad(lambda c: fo.milp(c, constraints=constraint, integrality=integrality,
                                  bounds=optimize.Bounds(5.0, 6.0)).fun)(c)
    with pytest.raises(TypeError, match="constraints holds a traced value"):
        fg.grad(lambda b: fo.milp(c, integrality=integrality, constraints=optimize.LinearConstraint(
            constraint.A, -np.inf, b)).fun)(np.array([1.0, 12.0, 12.0]))


def test_quadratic_assignment_equals_scipy_and_refuses_traced_input():
    A = np.array([[0, 5, 8, 6], [5, 0, 5, 1], [8, 5, 0, 2], [6, 1, 2, 0]], float)
    B = np.array([[0, 1, 8, 4], [1, 0, 5, 2], [8, 5, 0, 5], [4, 2, 5, 0]], float)
    ours, theirs = fo.quadratic_assignment(A, B), optimize.quadratic_assignment(A, B)
    np.testing.assert_array_equal(ours.col_ind, theirs.col_ind)
    assert ours.fun == theirs.fun == 178
    for fn in (fg.grad, fg.vmap):
        with pytest.raises(TypeError, match="quadratic_assignment: A is traced"):
            fn(lambda a: fo.quadratic_assignment(a, B).fun)(A if fn is fg.grad else A[None])
