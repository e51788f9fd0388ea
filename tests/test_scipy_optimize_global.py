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
