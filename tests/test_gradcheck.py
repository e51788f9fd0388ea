"""gradcheck / gradgradcheck: pass on correct derivatives, fail loudly on wrong ones."""
import contextlib

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import core

rng = np.random.default_rng(0)
V = rng.uniform(0.5, 1.5, size=3)          # a positive vector (log, sqrt, power, ...)
W = rng.standard_normal(3)
M = rng.standard_normal((3, 3))
SPD = M @ M.T + 3 * np.eye(3)              # symmetric positive definite (cholesky, solve)
A23 = rng.standard_normal((2, 3))

# (name, f, inputs): a spread of primitives, each checked in reverse and forward mode.
CASES = [
    ("sin", fnp.sin, (W,)),
    ("cos", fnp.cos, (W,)),
    ("tan", fnp.tan, (0.3 * W,)),
    ("exp", fnp.exp, (W,)),
    ("log", fnp.log, (V,)),
    ("log1p", fnp.log1p, (V,)),
    ("sqrt", fnp.sqrt, (V,)),
    ("tanh", fnp.tanh, (W,)),
    ("arctan", fnp.arctan, (W,)),
    ("abs", fnp.abs, (V,)),
    ("square", fnp.square, (W,)),
    ("add broadcast", fnp.add, (A23, W)),
    ("subtract", fnp.subtract, (W, V)),
    ("multiply broadcast", fnp.multiply, (A23, W)),
    ("divide", fnp.divide, (W, V)),
    ("power", fnp.power, (V, W)),
    ("arctan2", fnp.arctan2, (W, V)),
    ("hypot", fnp.hypot, (W, V)),
    ("maximum (no ties)", fnp.maximum, (W, W + 0.5)),
    ("logaddexp", fnp.logaddexp, (W, V)),
    ("where", lambda x, y: fnp.where(x > 0, x, y), (W, V)),
    ("clip (inside)", lambda x: fnp.clip(x, -10.0, 10.0), (W,)),
    ("sum axis", lambda x: fnp.sum(x, axis=0), (A23,)),
    ("mean", lambda x: fnp.mean(x, axis=1), (A23,)),
    ("max (no ties)", lambda x: fnp.max(x, axis=1), (A23,)),
    ("prod", lambda x: fnp.prod(x), (V,)),
    ("cumsum", fnp.cumsum, (W,)),
    ("logsumexp", lambda x: fnp.logsumexp(x, axis=1), (A23,)),
    ("reshape + transpose", lambda x: fnp.transpose(fnp.reshape(x, (3, 2))), (A23,)),
    ("concatenate", lambda x, y: fnp.concatenate([x, y]), (W, V)),
    ("indexing", lambda x: x[1:] * x[0], (W,)),
    ("matmul", fnp.matmul, (A23, M)),
    ("einsum", lambda a, b: fnp.einsum("ij,jk->ik", a, b), (A23, M)),
    ("solve", fnp.linalg.solve, (SPD, W)),
    ("det", fnp.linalg.det, (M,)),
    ("inv", fnp.linalg.inv, (SPD,)),
    ("cholesky", lambda a: fnp.linalg.cholesky(0.5 * (a + a.T)), (SPD,)),
    ("two outputs", lambda x: (fnp.sin(x), fnp.sum(x * x)), (W,)),
    ("scalar in, scalar out", lambda x: x * fnp.exp(x), (0.7,)),
]


@pytest.mark.parametrize("name,f,inputs", CASES, ids=[c[0] for c in CASES])
def test_gradcheck_passes_on_correct_primitives(name, f, inputs):
    assert fg.gradcheck(f, inputs) is True


@pytest.mark.parametrize("name,f,inputs", CASES[::4], ids=[c[0] for c in CASES[::4]])
def test_gradcheck_fast_mode_passes(name, f, inputs):
    assert fg.gradcheck(f, inputs, fast_mode=True) is True


@pytest.mark.parametrize("name,f,inputs", [CASES[i] for i in (0, 4, 7, 13, 15, 31)],
                         ids=[CASES[i][0] for i in (0, 4, 7, 13, 15, 31)])
def test_gradgradcheck_passes(name, f, inputs):
    assert fg.gradgradcheck(f, inputs) is True


def test_gradcheck_accepts_a_single_array_and_passes_integers_through():
    assert fg.gradcheck(fnp.sin, W)
    assert fg.gradcheck(lambda x, n: x ** n, (V, 3))
    with pytest.raises(ValueError, match="no floating-point or complex input"):
        fg.gradcheck(lambda n: n * 2, (np.arange(3),))


# --- deliberately wrong derivatives ---------------------------------------------------------

@contextlib.contextmanager
def temporary_primitive(name, impl, jvp, vjp):
    """A throwaway primitive, removed from the registry afterwards (the registry test
    expects every registered primitive to have a property test)."""
    prim = core.Primitive(name, impl, jvp=jvp, vjp=vjp,
                          abstract_eval=lambda a: core.ShapedArray(a.shape, a.dtype))
    try:
        yield lambda x: prim.bind(x)
    finally:
        del core.REGISTRY[name]


def _cube_jvp(primals, tangents):
    x, = primals
    t, = tangents
    return core.REGISTRY["test_cube"].bind(x), 3.0 * x * x * t


def test_gradcheck_reports_a_wrong_vjp_rule():
    # d(x^3) = 3 x^2, but the VJP says 2 x^2.
    with temporary_primitive("test_cube", lambda x: x ** 3, _cube_jvp,
                             lambda needs, g, out, x: (2.0 * g * x * x,)) as cube:
        x = np.array([1.0, 2.0])
        with pytest.raises(fg.GradcheckError) as info:
            fg.gradcheck(cube, (x,))
        message = str(info.value)
        assert "Jacobian mismatch for output 0 with respect to input 0, reverse mode" in message
        assert "numerical (central differences):" in message and "analytical" in message
        assert "[[ 3.  0.]\n [ 0. 12.]]" in message    # the numerical Jacobian
        assert "[[2. 0.]\n [0. 8.]]" in message          # the analytical one
        assert "largest difference 4 at row 1, column 1" in message
        assert "check the VJP (backward) rule" in message
        assert isinstance(info.value, RuntimeError)
        assert fg.gradcheck(cube, (x,), raise_exception=False) is False


def test_gradcheck_reports_a_wrong_jvp_rule():
    def wrong_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return x ** 3, x * t  # should be 3 x^2 t
    with temporary_primitive("test_cube", lambda x: x ** 3, wrong_jvp,
                             lambda needs, g, out, x: (3.0 * g * x * x,)) as cube:
        with pytest.raises(fg.GradcheckError, match="forward mode"):
            fg.gradcheck(cube, (np.array([1.0, 2.0]),), check_forward_ad=True)
        assert fg.gradcheck(cube, (np.array([1.0, 2.0]),))  # forward mode is opt-in (torch)
        with pytest.raises(fg.GradcheckError, match=r"fast_mode\).*forward mode"):
            fg.gradcheck(cube, (np.array([1.0, 2.0]),), fast_mode=True, check_forward_ad=True)


def test_gradcheck_reports_a_wrong_custom_vjp():
    @fg.custom_vjp
    def square(x):
        return x * x
    square.defvjp(lambda x: (x * x, x), lambda x, g: (g * x,))  # missing the factor 2
    with pytest.raises(fg.GradcheckError, match="reverse mode") as info:
        fg.gradcheck(square, (np.array([1.0, 2.0]),), check_forward_ad=False)
    assert "numerical 4, analytical 2" in str(info.value)


def test_gradcheck_reports_a_wrong_function_backward():
    class Exp(fg.Function):
        @staticmethod
        def forward(ctx, x):
            result = np.exp(x)
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            result, = ctx.saved_tensors
            return grad_output * result * 2.0  # wrong: twice the derivative

    with pytest.raises(fg.GradcheckError, match="Jacobian mismatch"):
        fg.gradcheck(Exp.apply, (np.array([0.0, 0.5]),), check_forward_ad=False)


def test_gradcheck_says_how_to_skip_forward_mode_for_vjp_only_functions():
    @fg.custom_vjp
    def square(x):
        return x * x
    square.defvjp(lambda x: (x * x, x), lambda x, g: (2.0 * g * x,))
    with pytest.raises(TypeError) as info:
        fg.gradcheck(square, (np.array([1.0, 2.0]),), check_forward_ad=True)
    assert "check_forward_ad=False" in "".join(getattr(info.value, "__notes__", []))
    assert fg.gradcheck(square, (np.array([1.0, 2.0]),))  # the default, as in torch


def test_gradgradcheck_catches_a_backward_that_is_not_differentiable():
    # First derivative right, but written with stop_gradient: its own derivative is wrong.
    @fg.custom_vjp
    def square(x):
        return x * x
    square.defvjp(lambda x: (x * x, x), lambda x, g: (2.0 * g * fg.stop_gradient(x),))
    x = np.array([1.0, 2.0])
    assert fg.gradcheck(square, (x,), check_forward_ad=False)
    with pytest.raises(fg.GradcheckError, match="gradgradcheck: the derivative of the "
                                                "backward pass"):
        fg.gradgradcheck(square, (x,), check_forward_ad=False)
    assert fg.gradgradcheck(square, (x,), check_forward_ad=False,
                            raise_exception=False) is False


# --- PyTorch's idiom ----------------------------------------------------------------------------

class _Cube(fg.Function):
    """A Function with only a backward, the most common thing to gradcheck."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3.0 * g * x * x


def test_gradcheck_takes_tensors_that_require_grad_and_checks_only_those():
    x = fg.Tensor(np.array([0.5, -1.2]), requires_grad=True)
    y = fg.Tensor(np.array([2.0, 3.0]))  # no grad: passed through as a Tensor, not checked
    seen = []

    def f(a, b):
        seen.append((type(a).__name__, type(b).__name__))
        return _Cube.apply(a) * b

    assert fg.gradcheck(f, (x, y)) is True
    assert ("Tensor", "Tensor") in seen  # numerical evaluations get Tensors
    assert fg.gradgradcheck(lambda t: (t * t).sum() * 1.5, (x,)) is True
    assert x.grad is None  # nothing accumulated into the user's Tensors


def test_gradcheck_catches_a_wrong_function_given_tensors():
    class Wrong(fg.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2.0 * g * x * x

    with pytest.raises(fg.GradcheckError, match="reverse mode"):
        fg.gradcheck(Wrong.apply, (fg.Tensor([1.0, 2.0], dtype=fg.float64, requires_grad=True),))


def test_check_batched_grad_checks_the_backward_pass_under_vmap():
    assert fg.gradcheck(lambda x: np.sin(x) * x, (np.array([0.3, 0.7]),),
                        check_batched_grad=True)
    assert fg.gradgradcheck(lambda x: np.tanh(x) ** 2, (np.array([0.3, -0.5]),),
                            check_batched_grad=True)


# --- gradgradcheck on Tensors: the backward pass recorded on the tape, as PyTorch ------------

def _square_function(lib, differentiable):
    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * g * (x if differentiable else x.detach())
    return Square


def _gradgrad_results(lib):
    x = lib.tensor(np.array([0.3, -0.5]), requires_grad=True)
    z = lib.tensor(np.array([0.3 + 1j, -0.5j]), requires_grad=True)
    return (lib.autograd.gradgradcheck(lambda t: t.sin() ** 2, (x,)),
            lib.autograd.gradgradcheck(lambda t: (t.sin() * t.conj()).abs() ** 2, (z,)),
            lib.autograd.gradgradcheck(_square_function(lib, True).apply, (x,)),
            lib.autograd.gradgradcheck(_square_function(lib, False).apply, (x,),
                                       raise_exception=False))


def test_gradgradcheck_runs_tensor_methods_and_functions():
    # Tensor methods and Function.apply failed ('ReverseTracer' object has no attribute
    # 'sin'; ndarray has no 'detach'): the transforms ran f on traced values.  A backward
    # written with x.detach() is right to first order and wrong to second: 2 * g * x
    # differentiated in x is 2 * g, the detached version gives 0.
    assert _gradgrad_results(fg) == (True, True, True, False)


def test_gradgradcheck_on_tensors_matches_torch():
    torch = pytest.importorskip("torch")
    assert _gradgrad_results(fg) == _gradgrad_results(torch)


def test_gradcheck_without_a_tensor_that_requires_grad_raises():
    x = fg.tensor(np.array([1.0, 2.0]))
    for check in (fg.gradcheck, fg.gradgradcheck):
        with pytest.raises(ValueError, match="expects at least one input tensor to require "
                                             "gradient.*requires_grad=True"):
            check(lambda t: t * 2, (x,))


def _two_outputs(lib, none_as):
    """d(2x, 3x)/dx as a Function receiving None for an output without gradient, which
    its backward treats as zeros ("zeros", right), ones ("ones", wrong) or multiplies
    ("raise")."""
    class Two(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            if ga is None and gb is None:
                return None
            if none_as != "raise":
                fill = lib.zeros_like if none_as == "zeros" else lib.ones_like
                ga = fill(gb) if ga is None else ga
                gb = fill(ga) if gb is None else gb
            return ga * 2 + gb * 3
    return Two


def _undefined_results(lib):
    x = lib.tensor(np.array([0.5, 1.5]), requires_grad=True)
    good = lib.autograd.gradcheck(_two_outputs(lib, "zeros").apply, (x,))
    bad = lib.autograd.gradcheck(_two_outputs(lib, "ones").apply, (x,), raise_exception=False)
    off = lib.autograd.gradcheck(_two_outputs(lib, "ones").apply, (x,), raise_exception=False,
                                 check_undefined_grad=False, nondet_tol=0.0)
    return good, bad, off


def test_gradcheck_check_undefined_grad():
    # treating None as zeros is right; as ones it fails the undefined-gradient check (on
    # by default, as in PyTorch) and, without it, the Jacobian: gradcheck differentiates
    # one output at a time, the other getting None (it got zeros: d out0/dx read 2 + 3)
    assert _undefined_results(fg) == (True, False, False)
    x = fg.tensor(np.array([0.5, 1.5]), requires_grad=True)
    with pytest.raises(fg.GradcheckError, match="Expected backward function to handle "
                                                "undefined output grads.*output 0"):
        fg.gradcheck(_two_outputs(fg, "raise").apply, (x,))
    with pytest.raises(fg.GradcheckError, match="Expected all input grads to be undefined "
                                                "or zero"):
        fg.gradcheck(_two_outputs(fg, "ones").apply, (x,))


def test_gradcheck_check_undefined_grad_matches_torch():
    torch = pytest.importorskip("torch")
    assert _undefined_results(fg) == _undefined_results(torch)


def test_gradgradcheck_takes_grad_outputs_that_require_grad():
    # PyTorch's examples pass grad_outputs created with requires_grad=True; numpy() of
    # such a Tensor raised.  d/dx (3x^2 * u) = 6xu, checked against central differences
    x = fg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    u = fg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    assert fg.gradgradcheck(lambda a: a ** 3, (x,), grad_outputs=(u,))
    assert fg.gradgradcheck(lambda a: a ** 3, (x,), grad_outputs=u)
