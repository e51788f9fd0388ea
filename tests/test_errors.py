"""Bad input raises a clear Python exception (DESIGN.md principle 6): the type of the
exception and what its message says are checked, and after each error funcgrad is still
usable (the trace stack is back at the root, the next transform works). One test replays
every case in a child process, so that a crash (segfault, abort) would fail a test instead
of killing the test run.
"""
import io
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import core


@pytest.fixture(autouse=True)
def still_usable_afterwards():
    yield
    assert core.current_interpreter() is core.ROOT, "an error left a transform active"
    assert fg.grad(lambda x: np.sum(x * x))(np.array([1.0, 2.0])).tolist() == [2.0, 4.0]


def square_sum(x):
    return np.sum(x * x)


# --- grad with respect to a non-float argument --------------------------------------------------

@pytest.mark.parametrize("value, dtype_word", [
    (3, "integer"),
    (np.int32(3), "integer"),
    (np.arange(3), "int64"),
    (np.arange(3, dtype=np.uint8), "uint8"),
    (True, "bool"),
    (np.array([True, False]), "bool"),
    ("abc", "<U3"),
    (np.array(["a", "b"]), "<U1"),
    (np.array([1.0, None], dtype=object), "object"),
], ids=["int", "np.int32", "int-array", "uint8-array", "bool", "bool-array", "str", "str-array", "object-array"])
def test_grad_wrt_non_float_argument_raises_type_error_naming_argument_and_dtype(value,
                                                                                  dtype_word):
    with pytest.raises(TypeError) as info:
        fg.grad(square_sum)(value)
    msg = str(info.value)
    assert "argument 0" in msg
    assert dtype_word in msg
    assert "float" in msg  # says what to pass instead


@pytest.mark.parametrize("value", [1 + 2j, np.array([1 + 2j])], ids=["complex", "complex-array"])
def test_grad_of_complex_output_without_holomorphic_raises_naming_it(value):
    with pytest.raises(TypeError, match="complex.*holomorphic=True"):
        fg.grad(square_sum)(value)
    assert np.allclose(fg.grad(square_sum, holomorphic=True)(value), 2 * np.asarray(value))

def test_grad_wrt_none_argument_raises_type_error():
    with pytest.raises(TypeError, match="argument 0 is None"):
        fg.grad(square_sum)(None)


def test_grad_names_the_position_of_the_bad_argument():
    with pytest.raises(TypeError, match=r"argument 1 .*integer"):
        fg.grad(lambda x, n: x * n, argnums=1)(2.0, 3)
    with pytest.raises(TypeError, match=r"argument 1 .*integer"):
        fg.grad(lambda x, n: x * n, argnums=(0, 1))(2.0, 3)


def test_grad_names_the_bad_leaf_of_a_pytree():
    with pytest.raises(TypeError) as info:
        fg.grad(lambda d: d["a"] * d["n"])({"a": 1.0, "n": 2})
    msg = str(info.value)
    assert "argument 0" in msg and "leaf 1" in msg and "integer" in msg


def test_integer_argument_not_differentiated_is_fine():
    assert fg.grad(lambda x, n: x ** n)(2.0, 3) == pytest.approx(12.0)


# (fg.vjp takes integer primals, as jax.vjp does: their cotangent is float0 zeros, see
# tests/test_jax_names.py)
@pytest.mark.parametrize("transform", [
    lambda f, x: fg.jacfwd(f)(x),
    lambda f, x: fg.jacrev(f)(x),
    lambda f, x: fg.jvp(f, (x,), (x,)),
    lambda f, x: fg.hessian(f)(x),
], ids=["jacfwd", "jacrev", "jvp", "hessian"])
def test_other_transforms_reject_integer_inputs(transform):
    with pytest.raises(TypeError, match="integer"):
        transform(square_sum, np.arange(3))


# --- grad of a non-scalar output ----------------------------------------------------------------

@pytest.mark.parametrize("shape", [(3,), (2, 3)])
def test_grad_of_non_scalar_output_names_the_shape(shape):
    with pytest.raises(TypeError) as info:
        fg.grad(lambda x: x * 2.0)(np.ones(shape))
    msg = str(info.value)
    assert "grad can be implicitly created only for scalar outputs" in msg
    assert str(shape) in msg


def test_grad_of_tuple_output_is_refused():
    with pytest.raises(TypeError, match="grad can be implicitly created only for scalar outputs"):
        fg.grad(lambda x: (x, x))(1.0)


def test_grad_of_single_element_array_output_is_accepted():
    g = fg.grad(lambda x: x * 2.0)(np.ones(1))
    assert g.tolist() == [2.0]


def test_has_aux_needs_a_pair():
    with pytest.raises(TypeError, match="has_aux=True"):
        fg.grad(lambda x: x * 2.0, has_aux=True)(1.0)


# --- shapes ------------------------------------------------------------------------------------

def test_elementwise_shape_mismatch_names_both_shapes():
    with pytest.raises(ValueError) as info:
        fg.grad(lambda x: np.sum(x + np.ones(4)))(np.ones(3))
    msg = str(info.value)
    assert "(3,)" in msg and "(4,)" in msg


@pytest.mark.parametrize("op", [fnp.add, fnp.multiply, fnp.maximum], ids=["add", "mul", "max"])
def test_funcgrad_numpy_shape_mismatch_names_both_shapes(op):
    with pytest.raises(ValueError) as info:
        fg.grad(lambda x: fnp.sum(op(x, fnp.ones((2, 4)))))(np.ones((2, 3)))
    msg = str(info.value).replace(" ", "")   # NumPy writes shapes as (2,3)
    assert "(2,3)" in msg and "(2,4)" in msg


@pytest.mark.parametrize("traced", [True, False])
def test_matmul_shape_mismatch_names_both_shapes(traced):
    a, b = np.ones((2, 3)), np.ones((4, 2))
    with pytest.raises(ValueError) as info:
        if traced:
            fg.grad(lambda a: np.sum(a @ b))(a)
        else:
            fnp.matmul(a, b)
    msg = str(info.value)
    assert "(2, 3)" in msg and "(4, 2)" in msg


def test_jvp_tangent_shape_mismatch_names_both_shapes():
    with pytest.raises(ValueError) as info:
        fg.jvp(np.sin, (np.ones(3),), (np.ones(4),))
    msg = str(info.value)
    assert "(3,)" in msg and "(4,)" in msg


def test_jvp_wrong_number_of_tangents():
    with pytest.raises(ValueError, match="1 primals but 2 tangents"):
        fg.jvp(np.sin, (1.0,), (1.0, 2.0))


def test_vjp_cotangent_shape_mismatch_names_both_shapes():
    _, vjp_fn = fg.vjp(np.sin, np.ones(3))
    with pytest.raises(ValueError) as info:
        vjp_fn(np.ones(5))
    msg = str(info.value)
    assert "(5,)" in msg and "(3,)" in msg


def test_vmap_in_axes_out_of_range():
    with pytest.raises(ValueError, match="out of range"):
        fg.vmap(np.sin, in_axes=2)(np.ones((2, 3)))


def test_vmap_of_scalar_argument_with_axis():
    with pytest.raises(ValueError, match="0-d"):
        fg.vmap(np.sin)(1.0)


def test_ragged_list_raises_value_error():
    with pytest.raises(ValueError, match="ragged"):
        fnp.asarray([[1.0, 2.0], [3.0]])


def test_ragged_list_in_funcgrad_numpy_function_raises_value_error():
    with pytest.raises(ValueError, match="ragged"):
        fnp.sum([[1.0, 2.0], [3.0]])


# --- things a traced array cannot do -------------------------------------------------------------

def test_inplace_assignment_on_traced_value_points_to_at():
    def f(x):
        x[0] = 1.0
        return np.sum(x)

    with pytest.raises(TypeError) as info:
        fg.grad(f)(np.ones(3))
    assert ".at[" in str(info.value)


def test_unsupported_numpy_function_on_tracer_names_it():
    with pytest.raises(TypeError) as info:
        fg.grad(lambda x: np.savetxt(io.StringIO(), x) or np.sum(x))(np.ones(4))
    msg = str(info.value)
    assert "savetxt" in msg and "not supported" in msg


def test_unsupported_ufunc_method_on_tracer_names_it():
    # (outer, reduce, accumulate and reduceat are supported; reduce's initial= only for the
    # reductions that select: sum, prod, max and min)
    with pytest.raises(TypeError, match="numpy.logaddexp.reduce is not supported"):
        fg.grad(lambda x: np.sum(np.logaddexp.reduce(x, initial=0.0)))(np.ones(3))


@pytest.mark.parametrize("convert", [np.asarray, np.array], ids=["asarray", "array"])
def test_numpy_array_of_tracer_raises_type_error(convert):
    with pytest.raises(TypeError) as info:
        fg.grad(lambda x: np.sum(convert(x)))(np.ones(3))
    assert "stop_gradient" in str(info.value)


@pytest.mark.parametrize("index", [3, -4, (0, 0), np.array([0, 3])],
                         ids=["past-end", "before-start", "too-many", "array"])
def test_out_of_bounds_index_raises_index_error(index):
    with pytest.raises(IndexError):
        fg.grad(lambda x: np.sum(x[index]))(np.ones(3))


def test_out_of_bounds_index_under_vmap_and_jvp():
    with pytest.raises(IndexError):
        fg.vmap(lambda x: x[5])(np.ones((2, 3)))
    with pytest.raises(IndexError):
        fg.jvp(lambda x: x[5], (np.ones(3),), (np.ones(3),))


def test_bool_of_batched_value_raises_concretization_error():
    with pytest.raises(fg.ConcretizationError, match="vmap"):
        fg.vmap(lambda x: x if bool(x > 0) else -x)(np.ones(2))


# --- no crash: replay the bad inputs in a child process ------------------------------------------

CHILD = textwrap.dedent("""
    import io
    import numpy as np, funcgrad as fg, funcgrad.numpy as fnp

    def setitem(x):
        x[0] = 1.0
        return np.sum(x)

    cases = [
        lambda: fg.grad(lambda x: np.sum(x))(np.arange(3)),
        lambda: fg.grad(lambda x: np.sum(x))(np.array([1.0, None], dtype=object)),
        lambda: fg.grad(lambda x: np.sum(x))(None),
        lambda: fg.grad(lambda x: x * 2.0)(np.ones(3)),
        lambda: fg.grad(lambda x: np.sum(x + np.ones(4)))(np.ones(3)),
        lambda: fnp.asarray([[1.0, 2.0], [3.0]]),
        lambda: fg.grad(setitem)(np.ones(3)),
        lambda: fg.grad(lambda x: np.savetxt(io.StringIO(), x) or np.sum(x))(np.ones(3)),
        lambda: fg.grad(lambda x: np.sum(np.asarray(x)))(np.ones(3)),
        lambda: fg.jvp(np.sin, (np.ones(3),), (np.ones(4),)),
        lambda: fg.grad(lambda x: x[10 ** 9])(np.ones(3)),
        lambda: fg.grad(lambda x: np.sum(x[np.array([0, -10 ** 9])]))(np.ones(3)),
        lambda: fg.vmap(lambda x: x[7])(np.ones((2, 3))),
        lambda: fg.grad(lambda a: np.sum(a @ np.ones((4, 2))))(np.ones((2, 3))),
        lambda: fnp.matmul(np.ones((2, 3)), np.ones((4, 2))),
        lambda: fnp.reshape(np.ones(6), (4, 2)),
    ]
    for i, case in enumerate(cases):
        try:
            case()
        except (TypeError, ValueError, IndexError) as e:
            print(i, type(e).__name__)
        else:
            raise SystemExit(f"case {i} raised nothing")
    print(fg.grad(lambda x: np.sum(x * x))(np.array([1.0, 2.0])).tolist())
""")


def test_bad_inputs_raise_without_crashing_the_process():
    proc = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 17, proc.stdout
    assert lines[-1] == "[2.0, 4.0]"
