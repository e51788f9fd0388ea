"""The transforms called as JAX users call JAX's: where a side-by-side run of the same
programs through ``jax`` and ``funcgrad`` (session 15) found funcgrad answering otherwise.

Values, shapes, dtypes and pytree structures already matched; the differences were the
exceptions raised for arguments that do not fit.  JAX raises ``TypeError`` where funcgrad
raised ``ValueError`` (or the other way round): funcgrad's
:class:`~funcgrad.errors.ArgumentMismatchError` is both, so code written for either catches
it.  And JAX refuses a tangent whose dtype is not its primal's (funcgrad's jvp now too; a
vjp's cotangent is still cast, as PyTorch casts grad_outputs),
and ``static_argnums`` past the function's parameters, where funcgrad cast or ignored them.
Session 16: a ``custom_jvp`` rule's tangent of another dtype than its output's raises
TypeError too, as JAX's (funcgrad cast it).

No expected value here needs JAX (the types are JAX's documented ones).
"""
import functools

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.errors import ArgumentMismatchError

X = np.array([0.5, -1.0, 2.0])


def _product(x, y):
    return fnp.sum(x * y)


# --- arguments that do not fit: TypeError as JAX, ValueError as before ------------------------

@pytest.mark.parametrize("error", [TypeError, ValueError])
def test_argnums_past_the_positional_arguments_raise_both_kinds(error):
    with pytest.raises(error, match="argnums=2"):
        fg.grad(_product, argnums=2)(X, X)
    with pytest.raises(error, match="argnums='x'"):
        fg.value_and_grad(_product, argnums="x")(X, X)


@pytest.mark.parametrize("error", [TypeError, ValueError])
def test_jvp_with_fewer_tangents_than_primals_raises_both_kinds(error):
    with pytest.raises(error, match="2 primals but 1 tangents"):
        fg.jvp(lambda x, y: x * y, (X, 2.0), (X,))
    with pytest.raises(error, match="structure"):
        fg.jvp(lambda p: p["a"], ({"a": X},), ({"b": X},))


@pytest.mark.parametrize("error", [TypeError, ValueError])
def test_cotangents_that_do_not_fit_the_output_raise_both_kinds(error):
    _, vjp_fn = fg.vjp(lambda x: (x * 2, x), X)
    with pytest.raises(error, match="structure"):
        vjp_fn(np.ones(3))
    _, vjp_fn = fg.vjp(lambda x: x * 2, X)
    with pytest.raises(error, match=r"cotangent shape \(2,\)"):
        vjp_fn(np.ones(2))
    transpose = fg.linear_transpose(lambda x: x * 2, X)
    with pytest.raises(error, match=r"cotangent shape \(2,\)"):
        transpose(np.ones(2))


@pytest.mark.parametrize("error", [TypeError, ValueError])
def test_in_axes_that_are_no_axes_raise_both_kinds(error):
    with pytest.raises(error, match="in_axes=0.5"):
        fg.vmap(lambda x: x, in_axes=0.5)(np.ones((2, 3)))


@pytest.mark.parametrize("error", [TypeError, ValueError])
def test_an_unhashable_static_argument_raises_both_kinds(error):
    # (JAX: ValueError; Python's hash: TypeError)
    with pytest.raises(error, match="not hashable"):
        fg.jit(lambda x, n: x, static_argnums=1)(X, [1, 2])


@pytest.mark.parametrize("error", [TypeError, ValueError])
def test_custom_rules_returning_what_does_not_fit_raise_both_kinds(error):
    @fg.custom_jvp
    def double(x):
        return x * 2

    double.defjvp(lambda primals, tangents: (double(primals[0]), tangents[0][:2]))
    with pytest.raises(error, match=r"tangent of shape \(2,\)"):
        fg.jvp(double, (X,), (X,))

    @fg.custom_vjp
    def times(x, y):
        return x * y

    times.defvjp(lambda x, y: (times(x, y), None), lambda residuals, g: (g,))
    with pytest.raises(error, match="returned 1 cotangents for 2"):
        fg.grad(times)(2.0, 3.0)


def test_the_error_is_both_a_value_error_and_a_type_error():
    assert issubclass(ArgumentMismatchError, ValueError)
    assert issubclass(ArgumentMismatchError, TypeError)


# --- tangents of another dtype than their primals' ---------------------------------------------

@pytest.mark.parametrize("primal, tangent", [
    (X, X.astype(np.float32)),
    (X.astype(np.float32), X),
    (X, np.ones(3, np.int64)),
    (np.float32(1.5), np.float64(1.0)),
    (X.astype(np.complex128), X.astype(np.complex64)),
], ids=["f32-for-f64", "f64-for-f32", "int-for-f64", "np-scalars", "c64-for-c128"])
def test_jvp_refuses_a_tangent_of_another_dtype_as_jax(primal, tangent):
    with pytest.raises(TypeError, match="must have its primal's dtype"):
        fg.jvp(lambda x: x * 2, (primal,), (tangent,))


def test_linearize_refuses_a_tangent_of_another_dtype_as_jax():
    _, f_jvp = fg.linearize(np.sin, X)
    with pytest.raises(ValueError, match="must have its primal's dtype"):
        f_jvp(X.astype(np.float32))
    with pytest.raises(TypeError, match="takes 2 tangent leaves, got 1"):
        fg.linearize(lambda x, y: x * y, X, X)[1](X)


def test_python_numbers_as_tangents_stay_weakly_typed():
    # a Python float (no dtype of its own) takes its primal's, float32 included
    # (funcgrad's weak typing; JAX refuses a float tangent for a float32 primal when x64 is on)
    out, tangent = fg.jvp(lambda x: x * 3, (np.float32(1.5),), (1.0,))
    assert tangent.dtype == np.float32 and tangent == 3
    out, tangent = fg.jvp(lambda x: x * 3, (1.5,), (np.float64(1.0),))
    assert tangent == 3.0


def test_vjp_and_linear_transpose_cast_a_cotangent_of_another_float_precision():
    # as PyTorch's grad_outputs (users pass np.ones(y.shape) for a float32 y; JAX refuses)
    _, vjp_fn = fg.vjp(lambda x: x * 2, X.astype(np.float32))
    (ct,) = vjp_fn(X)
    assert ct.dtype == np.float32
    np.testing.assert_array_equal(ct, (2 * X).astype(np.float32))
    (ct,) = fg.vjp(lambda x: x * 2, X)[1](X.astype(np.float32))
    assert ct.dtype == np.float64
    with pytest.raises(TypeError, match="imaginary part would be dropped"):
        vjp_fn(X + 1j)
    (ct,) = fg.linear_transpose(lambda x: x * 2, X)(X.astype(np.float32))
    assert ct.dtype == np.float64
    np.testing.assert_array_equal(ct, 2 * X)


def test_python_numbers_as_cotangents_stay_weakly_typed():
    _, vjp_fn = fg.vjp(lambda x: fnp.sum(x * 2), X.astype(np.float32))
    (cotangent,) = vjp_fn(1.0)
    assert cotangent.dtype == np.float32
    np.testing.assert_array_equal(cotangent, np.full(3, 2, np.float32))


def test_a_real_tangent_moves_a_complex_primal_along_the_real_line():
    # (funcgrad's; JAX asks for a complex tangent)
    z = np.array([1.0 + 1.0j, -2.0 + 0.5j])
    _, tangent = fg.jvp(lambda z: z ** 2, (z,), (np.array([1.0, 0.0]),))
    assert tangent.dtype == np.complex128
    np.testing.assert_allclose(tangent, [2 * z[0], 0.0])
    with pytest.raises(TypeError, match="must have its primal's dtype"):
        fg.jvp(lambda z: z ** 2, (z,), (np.array([1.0, 0.0], np.float32),))


def test_jvp_under_vmap_takes_batched_tangents_of_the_primals_dtype():
    x32 = np.ones((2, 3), np.float32)
    tangents = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = fg.vmap(lambda x, t: fg.jvp(np.sin, (x,), (t,))[1])(x32, tangents)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.cos(x32) * tangents, rtol=1e-6)


# --- jit's static_argnums checked against the function, when jit is applied ----------------

def test_static_argnums_past_the_parameters_raise_when_jit_is_applied():
    with pytest.raises(ValueError, match="static_argnums=\\(3,\\) names position 3"):
        fg.jit(lambda x: x, static_argnums=3)
    with pytest.raises(ValueError, match="position -3"):
        fg.jit(lambda x, n: x * n, static_argnums=-3)


def test_static_argnums_in_range_or_for_star_args_are_kept():
    assert fg.jit(lambda x, n: x * n, static_argnums=-1)(2.0, 3) == 6.0
    assert fg.jit(lambda *xs: xs[0] * xs[3], static_argnums=3)(2.0, 0, 0, 4) == 8.0

    @functools.partial(fg.jit, static_argnums=(1,))
    def power(x, n=2):
        return x ** n
    assert power(3.0) == 9.0 and power(2.0, 3) == 8.0


def test_hvp_and_vhp_cast_a_vector_of_another_float_precision_alike():
    # (PyTorch's convention for its hvp/vhp, which these follow; jvp and vjp are JAX's and
    # refuse the mismatch)
    x = np.array([0.5, 1.0, 2.0], np.float32)
    f = lambda x: fnp.sum(fnp.sin(x) ** 2)  # noqa: E731
    v64 = np.array([1.0, -1.0, 0.5])
    want = (2 * np.cos(2 * x.astype(np.float64)) * v64).astype(np.float32)  # H is diagonal
    for product in (fg.hvp, fg.vhp):
        _, (hv,) = product(f, (x,), (v64,))
        assert hv.dtype == np.float32
        np.testing.assert_allclose(hv, want, rtol=1e-5)
    with pytest.raises(TypeError, match="dtype"):
        fg.jvp(f, (x,), (v64,))


# --- a custom_jvp rule's tangents: its outputs' dtypes, as JAX checks them -------------------

def _times_two_with_rule(tangent_of):
    @fg.custom_jvp
    def f(x):
        return x * 2

    @f.defjvp
    def f_jvp(primals, tangents):
        return f(primals[0]), tangent_of(tangents[0])
    return f


@pytest.mark.parametrize("primal, tangent_of", [
    (X, lambda t: t.astype(np.float32)),
    (X.astype(np.float32), lambda t: t.astype(np.float64)),
    (X, lambda t: np.ones(3, np.int64)),
    (np.float32(1.5), lambda t: np.float64(7.0)),
], ids=["f32-for-f64", "f64-for-f32", "int-for-f64", "np-scalar-for-f32"])
def test_a_custom_jvp_rule_tangent_of_another_dtype_raises_as_jax(primal, tangent_of):
    f = _times_two_with_rule(tangent_of)
    with pytest.raises(TypeError, match="must have its output's dtype"):
        fg.jvp(f, (primal,), (np.ones_like(primal),))
    with pytest.raises(TypeError, match="must have its output's dtype"):
        fg.grad(lambda x: fnp.sum(f(x)))(primal)


def test_a_custom_jvp_rule_tangent_of_the_output_dtype_is_used_as_given():
    x32 = X.astype(np.float32)
    f = _times_two_with_rule(lambda t: t * np.float32(7))
    _, tangent = fg.jvp(f, (x32,), (np.ones(3, np.float32),))
    assert tangent.dtype == np.float32
    np.testing.assert_array_equal(tangent, np.full(3, 7, np.float32))
    gradient = fg.grad(lambda x: fnp.sum(f(x)))(x32)
    assert gradient.dtype == np.float32
    np.testing.assert_array_equal(gradient, np.full(3, 7, np.float32))


def test_a_python_number_from_a_custom_jvp_rule_takes_its_output_dtype():
    # (weakly typed, as jvp takes Python numbers; JAX with x64 on refuses it for float32)
    f = _times_two_with_rule(lambda t: 3.0)
    _, tangent = fg.jvp(f, (np.float32(1.5),), (np.float32(1.0),))
    assert tangent.dtype == np.float32 and tangent == 3


def test_funcgrad_own_custom_rules_cast_their_float64_tangents_for_float32():
    # entr's rule computes its tangent in float64 on the way; the float32 derivative of
    # -x log x is -(log x + 1)
    import funcgrad.scipy.special as special
    x32 = np.float32(0.5)
    gradient = fg.grad(special.entr)(x32)
    assert gradient.dtype == np.float32
    np.testing.assert_allclose(gradient, -(np.log(0.5) + 1), rtol=1e-6)


@pytest.mark.parametrize("error", [TypeError, AttributeError])
def test_a_custom_function_without_its_rules_raises_both_kinds(error):
    # (JAX raises AttributeError, funcgrad raised TypeError: MissingRuleError is both)
    no_jvp = fg.custom_jvp(lambda x: x * 2)
    with pytest.raises(error, match="without a rule: define one with"):
        fg.grad(no_jvp)(1.0)
    no_vjp = fg.custom_vjp(lambda x: x * 2)
    with pytest.raises(error, match="without rules: define them with"):
        fg.grad(no_vjp)(1.0)
    with pytest.raises(error, match="without rules"):
        no_vjp(1.0)


def test_a_partial_of_a_partial_differentiates_every_bound_argument():
    # (funcgrad's choice, documented on fg.tree.Partial: JAX keeps the inner Partial static)
    p = fg.tree.Partial(fg.tree.Partial(lambda a, b, c: a + b * c, 1.0), 2.0)
    assert p(3.0) == 7.0
    assert fg.tree.flatten(p)[0] == [1.0, 2.0]
    assert fg.grad(lambda q: q(3.0))(p).args == (1.0, 3.0)  # d/da = 1, d/db = c
