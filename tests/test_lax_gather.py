"""``fg.lax.gather`` and the scatters (``scatter``, ``scatter_add``, ``scatter_sub``,
``scatter_mul``, ``scatter_min``, ``scatter_max``) with XLA's dimension numbers: values
equal ``jax.lax``'s (JAX on the CPU, 64-bit) in every out-of-bounds mode, and a few are
written out by hand; the derivatives pass the correctness bar (central differences, the
dot-product test, second order, ``vmap``, float32); misuse is a clear error."""
import numpy as np
import pytest

import funcgrad as fg
from funcgrad import lax
from helpers import (check_dot_product, check_float32, check_jvp_fd, check_second_order,
                     check_vmap)

GDN, SDN = lax.GatherDimensionNumbers, lax.ScatterDimensionNumbers
RNG = np.random.default_rng(7)
X = RNG.normal(size=(5, 6, 4))

# (dimension numbers, start indices, slice sizes): rows of a matrix, windows along one
# axis, 2-d windows, single elements, and a batching axis; the indices run out of bounds
GATHERS = [
    (dict(offset_dims=(1,), collapsed_slice_dims=(0, 2), start_index_map=(0, 2)),
     np.array([[0, 1], [4, 3], [-1, 7], [2, 2]]), (1, 3, 1)),
    (dict(offset_dims=(0, 2), collapsed_slice_dims=(1,), start_index_map=(1,)),
     RNG.integers(-2, 8, size=(3, 2, 1)), (5, 1, 2)),
    (dict(offset_dims=(1, 2), collapsed_slice_dims=(0,), start_index_map=(0, 1)),
     RNG.integers(-1, 7, size=(4, 2)), (1, 3, 4)),
    (dict(offset_dims=(), collapsed_slice_dims=(0, 1, 2), start_index_map=(0, 1, 2)),
     RNG.integers(0, 4, size=(2, 3, 3)), (1, 1, 1)),
    (dict(offset_dims=(2,), collapsed_slice_dims=(1,), start_index_map=(1,),
          operand_batching_dims=(0,), start_indices_batching_dims=(0,)),
     RNG.integers(0, 6, size=(5, 3, 1)), (1, 1, 2)),
]

# (dimension numbers, scatter indices, updates shape, operand shape)
SCATTERS = [
    (dict(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)),
     np.array([[0], [0], [2], [5], [-1]]), (5,), (6,)),
    (dict(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)),
     np.array([[1], [1], [4], [7]]), (4, 3), (6, 3)),
    (dict(update_window_dims=(0, 2), inserted_window_dims=(1,),
          scatter_dims_to_operand_dims=(1,)), np.array([[2], [-1], [5]]), (2, 3, 2), (5, 6, 4)),
    (dict(update_window_dims=(1,), inserted_window_dims=(0, 1),
          scatter_dims_to_operand_dims=(0, 1, 2)), RNG.integers(0, 5, size=(4, 3)), (4, 2),
     (5, 6, 4)),
    (dict(update_window_dims=(1,), inserted_window_dims=(1,), scatter_dims_to_operand_dims=(1,),
          operand_batching_dims=(0,), scatter_indices_batching_dims=(0,)),
     RNG.integers(0, 6, size=(5, 1)), (5, 4), (5, 6, 4)),
]
SCATTER_NAMES = ["scatter", "scatter_add", "scatter_sub", "scatter_mul", "scatter_min",
                 "scatter_max"]


# --- values ---------------------------------------------------------------------------------

def test_gather_by_hand():
    """Rows 0 and 2 of a matrix, and windows of 2 clamped (default) or filled."""
    m = np.arange(12.0).reshape(4, 3)
    rows = GDN(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    np.testing.assert_array_equal(lax.gather(m, np.array([[0], [2]]), rows, (1, 3)),
                                  m[[0, 2]])
    x = np.arange(10.0)
    dn = GDN(offset_dims=(1,), collapsed_slice_dims=(), start_index_map=(0,))
    idx = np.array([[0], [9], [-1]])
    np.testing.assert_array_equal(lax.gather(x, idx, dn, (2,)), [[0, 1], [8, 9], [0, 1]])
    np.testing.assert_array_equal(lax.gather(x, idx, dn, (2,), mode="clip"),
                                  [[0, 1], [8, 9], [0, 1]])
    np.testing.assert_array_equal(
        lax.gather(x, idx, dn, (2,), mode=lax.GatherScatterMode.FILL_OR_DROP, fill_value=-1),
        [[0, 1], [-1, -1], [-1, -1]])


def test_scatter_add_by_hand_skips_windows_that_do_not_fit():
    dn = SDN(update_window_dims=(1,), inserted_window_dims=(), scatter_dims_to_operand_dims=(0,))
    idx = np.array([[0], [8], [-1], [9]])
    got = lax.scatter_add(np.zeros(10), idx, np.ones((4, 2)), dn)
    np.testing.assert_array_equal(got, [1, 1, 0, 0, 0, 0, 0, 0, 1, 1])
    got = lax.scatter_add(np.zeros(10), idx, np.ones((4, 2)), dn, mode="clip")
    np.testing.assert_array_equal(got, [2, 2, 0, 0, 0, 0, 0, 0, 2, 2])


@pytest.mark.parametrize("mode", [None, "clip", "fill", "promise_in_bounds"])
@pytest.mark.parametrize("case", range(len(GATHERS)))
def test_gather_equals_jax(jlax, case, mode):
    dn, idx, sizes = GATHERS[case]
    want = np.asarray(jlax.gather(X, idx, jlax.GatherDimensionNumbers(**dn), sizes, mode=mode))
    got = lax.gather(X, idx, GDN(**dn), sizes, mode=mode)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def _repeats(idx):
    rows = idx.reshape(-1, idx.shape[-1])
    return len({tuple(r) for r in rows}) < len(rows)


# (lax.scatter over repeated windows is left out: XLA leaves which write wins unspecified)
@pytest.mark.parametrize("mode", [None, "clip", "drop"])
@pytest.mark.parametrize("case, name", [
    (case, name) for case in range(len(SCATTERS)) for name in SCATTER_NAMES
    if not (name == "scatter" and _repeats(SCATTERS[case][1]))])
def test_scatters_equal_jax(jlax, case, name, mode):
    dn, idx, ushape, oshape = SCATTERS[case]
    rng = np.random.default_rng(case)
    op, up = rng.normal(size=oshape), rng.normal(size=ushape)
    want = np.asarray(getattr(jlax, name)(op, idx, up, jlax.ScatterDimensionNumbers(**dn),
                                          mode=mode))
    got = getattr(lax, name)(op, idx, up, SDN(**dn), mode=mode)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-15)


def test_integer_operands_keep_their_dtype_and_fill_with_the_extreme():
    x = np.arange(6, dtype=np.int32)
    dn = GDN(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
    got = lax.gather(x, np.array([[1], [7]]), dn, (1,), mode="fill")
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, [1, np.iinfo(np.int32).min])


# --- derivatives ----------------------------------------------------------------------------

@pytest.mark.parametrize("mode", [None, "fill"])
@pytest.mark.parametrize("case", [0, 1, 4])
def test_gather_derivatives(case, mode):
    dn, idx, sizes = GATHERS[case]

    def f(x):
        return lax.gather(x, idx, GDN(**dn), sizes, mode=mode, fill_value=0.5)
    check_jvp_fd(f, (X,))
    check_dot_product(f, (X,))
    check_second_order(f, (X,))
    check_float32(f, (X,))


# (scatter_mul over the repeated indices of case 0 has no derivative, as in JAX:
# test_scatter_mul_derivative_needs_distinct_indices)
@pytest.mark.parametrize("case, name", [
    (case, name) for case in [0, 2, 4] for name in SCATTER_NAMES[1:]
    if not (name == "scatter_mul" and case == 0)])
def test_scatter_derivatives_wrt_operand_and_updates(case, name):
    dn, idx, ushape, oshape = SCATTERS[case]
    rng = np.random.default_rng(case)
    # values apart from each other, so that min and max pick one element (no ties)
    op, up = rng.permutation(np.prod(oshape)).reshape(oshape) / 7.0 + 0.5, \
        rng.permutation(np.prod(ushape)).reshape(ushape) / 5.0 + 0.3

    def f(o, u):
        return getattr(lax, name)(o, idx, u, SDN(**dn))
    check_jvp_fd(f, (op, up))
    check_dot_product(f, (op, up))
    check_second_order(f, (op, up))
    check_float32(f, (op, up))


def test_scatter_mul_derivative_needs_distinct_indices():
    """As JAX's (which asks for unique_indices=True), a product over repeated windows has
    no derivative rule; the error says how to rewrite it."""
    dn = SDN(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    idx = np.array([[0], [0], [2]])
    with pytest.raises(ValueError, match="derivative only where the indices are distinct"):
        fg.grad(lambda u: lax.scatter_mul(np.arange(1.0, 5.0), idx, u, dn).sum())(
            np.array([2.0, 3.0, 4.0]))
    # distinct windows: d/du_k of x[i_k] * u_k is x[i_k] (JAX gives [1, 3] here)
    g = fg.grad(lambda u: lax.scatter_mul(np.arange(1.0, 5.0), idx[1:], u, dn).sum())(
        np.array([3.0, 4.0]))
    np.testing.assert_array_equal(g, [1.0, 3.0])


def test_scatter_set_derivatives_follow_the_written_elements():
    dn, idx, ushape, oshape = SCATTERS[2]  # distinct windows
    rng = np.random.default_rng(3)
    args = (rng.normal(size=oshape), rng.normal(size=ushape))

    def f(o, u):
        return lax.scatter(o, idx, u * u, SDN(**dn))
    check_jvp_fd(f, args)
    check_dot_product(f, args)
    check_second_order(f, args)


def test_gather_and_scatter_batch_under_vmap_with_batched_indices():
    dn, idx, sizes = GATHERS[1]
    idxs = np.stack([idx, np.clip(idx[::-1], 0, 5)])

    def g(x, i):
        return lax.gather(x, i, GDN(**dn), sizes, mode="fill", fill_value=0.0)
    check_vmap(lambda x: g(x, idx), (np.stack([X, 2 * X]),), (0,))
    got = fg.vmap(g, in_axes=(0, 0))(np.stack([X, -X]), idxs)
    np.testing.assert_array_equal(got, np.stack([g(X, idxs[0]), g(-X, idxs[1])]))

    sdn, sidx, ushape, oshape = SCATTERS[1]
    rng = np.random.default_rng(5)
    ops, ups = rng.normal(size=(3,) + oshape), rng.normal(size=(3,) + ushape)
    check_vmap(lambda o, u: lax.scatter_add(o, sidx, u, SDN(**sdn)), (ops, ups), (0, 0))
    sidxs = np.stack([sidx, sidx[::-1], np.zeros_like(sidx)])
    got = fg.vmap(lambda o, i, u: lax.scatter_mul(o, i, u, SDN(**sdn)))(ops, sidxs, ups)
    for b in range(3):
        np.testing.assert_allclose(got[b], lax.scatter_mul(ops[b], sidxs[b], ups[b], SDN(**sdn)))


def test_gather_and_scatter_run_under_jit_with_traced_indices():
    dn, idx, sizes = GATHERS[0]
    f = fg.jit(lambda x, i: lax.gather(x, i, GDN(**dn), sizes, mode="fill"))
    np.testing.assert_array_equal(f(X, idx), lax.gather(X, idx, GDN(**dn), sizes, mode="fill"))
    sdn, sidx, ushape, oshape = SCATTERS[0]
    h = fg.jit(lambda o, i, u: lax.scatter_add(o, i, u, SDN(**sdn)))
    # (index -1 is out of bounds: dropped)
    np.testing.assert_array_equal(h(np.zeros(6), sidx, np.ones(5)), [2, 0, 1, 0, 0, 1])


# --- errors ---------------------------------------------------------------------------------

def test_misuse_is_a_clear_error():
    x = np.zeros((3, 4))
    dn = GDN(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    with pytest.raises(TypeError, match="last axis of the indices .* length 1"):
        lax.gather(x, np.zeros((2, 2), int), dn, (1, 4))
    with pytest.raises(TypeError, match="does not accept dtype float64"):
        lax.gather(x, np.zeros((2, 1)), dn, (1, 4))
    with pytest.raises(TypeError, match="needs slice size 1"):
        lax.gather(x, np.zeros((2, 1), int), dn, (2, 4))
    with pytest.raises(TypeError, match="offset_dims"):
        lax.gather(x, np.zeros((2, 1), int), dn._replace(offset_dims=(0, 1)), (1, 4))
    with pytest.raises(ValueError, match="unknown gather/scatter mode 'wrap'"):
        lax.gather(x, np.zeros((2, 1), int), dn, (1, 4), mode="wrap")
    sdn = SDN(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    with pytest.raises(TypeError, match="same dtypes"):
        lax.scatter_add(x, np.zeros((2, 1), int), np.zeros((2, 4), np.float32), sdn)
    with pytest.raises(TypeError, match="update window of size 5 does not fit"):
        lax.scatter_add(x, np.zeros((2, 1), int), np.zeros((2, 5)), sdn)
    with pytest.raises(TypeError, match=r"updates must have shape \(2, 4\)"):
        lax.scatter_add(x, np.zeros((2, 1), int), np.zeros((3, 4)), sdn)
