"""gradcheck / gradgradcheck on complex inputs and outputs.

What is checked, as PyTorch checks it: central differences along the real and along the
imaginary part of each complex input; a complex output as its real and imaginary parts;
a complex input's reverse-mode entry as one complex number, ``d/dx - i d/dy`` for plain
arrays (JAX's convention, funcgrad's functional API) and ``d/dx + i d/dy`` for Tensors
(PyTorch's).  The expected entries in these tests are worked out by hand, e.g. for
``|z|**2`` at ``3+4j`` (``d/dx = 6``, ``d/dy = 8``): ``6-8j`` and ``6+8j``.
"""
import numpy as np
import pytest

import funcgrad as fg

rng = np.random.default_rng(0)
Z = rng.standard_normal(3) + 1j * rng.standard_normal(3)
X = rng.standard_normal(3)

CORRECT = [
    ("holomorphic C->C", lambda z: np.sin(z) * z, (Z,)),
    ("non-holomorphic C->C", lambda z: np.conj(z) * np.exp(z), (Z,)),
    ("C->R", lambda z: np.abs(z) ** 2 + np.real(z) * np.imag(z), (Z,)),
    ("R->C", lambda x: np.exp(1j * x) * x, (X,)),
    ("mixed inputs, two outputs", lambda x, z: (np.sum(x * z), np.abs(z) * x), (X, Z)),
    ("fft", np.fft.fft, (Z,)),
]
IDS = [c[0] for c in CORRECT]


@pytest.mark.parametrize("name,f,inputs", CORRECT, ids=IDS)
def test_correct_complex_functions_pass_in_every_mode(name, f, inputs):
    assert fg.gradcheck(f, inputs, check_forward_ad=True, check_batched_grad=True) is True
    assert fg.gradcheck(f, inputs, check_forward_ad=True, fast_mode=True) is True
    tensors = tuple(fg.Tensor(a, requires_grad=True) for a in inputs)
    assert fg.gradcheck(f, tensors) is True            # PyTorch's convention, eager tape
    assert fg.gradcheck(f, tensors, fast_mode=True) is True


@pytest.mark.parametrize("name,f,inputs", [CORRECT[i] for i in (1, 3, 4)],
                         ids=[IDS[i] for i in (1, 3, 4)])
def test_gradgradcheck_passes_on_complex_functions(name, f, inputs):
    assert fg.gradgradcheck(f, inputs, check_forward_ad=True) is True


def test_complex_is_checked_in_complex128():
    z64 = Z.astype(np.complex64)
    seen = []

    def f(z):
        seen.append(np.dtype(z.dtype))
        return z * z
    assert fg.gradcheck(f, (z64,))
    assert set(seen) == {np.dtype(np.complex128)}
    with pytest.warns(UserWarning, match="not a double precision floating point or complex"):
        fg.gradcheck(f, (fg.Tensor(z64, requires_grad=True),))


# --- deliberately wrong rules are caught ----------------------------------------------------

def _norm2_with(rule):
    @fg.custom_vjp
    def norm2(z):
        return np.sum(np.abs(z) ** 2)
    norm2.defvjp(lambda z: (norm2(z), z), lambda z, g: (rule(z, g),))
    return norm2


def test_correct_custom_vjp_of_a_real_function_of_complex_input_passes():
    right = _norm2_with(lambda z, g: 2 * g * np.conj(z))  # JAX: d/dx - i d/dy = 2 conj(z)
    assert fg.gradcheck(right, (Z,)) and fg.gradcheck(right, (Z,), fast_mode=True)


def test_custom_vjp_with_pytorchs_convention_fails_and_says_conjugate():
    wrong = _norm2_with(lambda z, g: 2 * g * z)  # PyTorch's .grad, not JAX's
    z = np.array([3 + 4j])
    with pytest.raises(fg.GradcheckError) as info:
        fg.gradcheck(wrong, (z,))
    message = str(info.value)
    assert "reverse mode" in message and "d/dx - i d/dy" in message
    assert "numerical 6-8j, analytical 6+8j" in message
    assert "complex conjugate of the numerical one" in message
    assert fg.gradcheck(wrong, (z,), raise_exception=False) is False
    with pytest.raises(fg.GradcheckError, match=r"fast_mode.*reverse mode"):
        fg.gradcheck(wrong, (Z,), fast_mode=True)


def test_holomorphic_custom_vjp_that_conjugates_the_derivative_fails():
    @fg.custom_vjp
    def square(z):
        return z * z
    square.defvjp(lambda z: (z * z, z), lambda z, g: (g * np.conj(2 * z),))  # wants g * 2z
    with pytest.raises(fg.GradcheckError,
                       match="While considering the real part of complex output 0 only"):
        fg.gradcheck(square, (Z,))
    square.defvjp(lambda z: (z * z, z), lambda z, g: (g * 2 * z,))
    assert fg.gradcheck(square, (Z,))


def test_vjp_wrong_only_for_the_imaginary_part_of_the_output_is_caught_there():
    # f(x) = exp(ix): JAX's vjp of a real input is Re(g * i exp(ix)); this rule drops the
    # imaginary part of the cotangent, so only the imaginary part of the output is wrong.
    @fg.custom_vjp
    def phase(x):
        return np.exp(1j * x)
    phase.defvjp(lambda x: (phase(x), x), lambda x, g: (np.real(g) * np.real(1j * np.exp(1j * x)),))
    with pytest.raises(fg.GradcheckError) as info:
        fg.gradcheck(phase, (X,))
    assert str(info.value).startswith(
        "While considering the imaginary part of complex output 0 only, Jacobian mismatch")


def test_correct_custom_jvp_on_complex_values_passes():
    # (custom rules used to treat complex values as non-differentiable: zero tangents)
    @fg.custom_jvp
    def square(z):
        return z * z

    @square.defjvp
    def square_jvp(primals, tangents):
        (z,), (t,) = primals, tangents
        return z * z, 2 * z * t
    np.testing.assert_allclose(fg.jvp(square, (Z,), (1j * np.ones(3),))[1], 2j * Z)
    assert fg.gradcheck(square, (Z,), check_forward_ad=True)
    assert fg.gradgradcheck(square, (Z,))


def test_custom_jvp_with_a_complex_tangent_for_a_real_output_raises():
    @fg.custom_jvp
    def norm2(z):
        return np.sum(np.abs(z) ** 2)

    @norm2.defjvp
    def norm2_jvp(primals, tangents):
        (z,), (t,) = primals, tangents
        return norm2(z), np.sum(2 * np.conj(z) * t)  # should be its real part
    with pytest.raises(TypeError, match="complex tangent for output 0, which is real"):
        fg.jvp(norm2, (Z,), (Z,))


def test_custom_jvp_that_conjugates_the_tangent_fails_along_the_imaginary_part():
    @fg.custom_jvp
    def square(z):
        return z * z

    @square.defjvp
    def square_jvp(primals, tangents):
        (z,), (t,) = primals, tangents
        return z * z, 2 * z * np.conj(t)  # right along real tangents only
    with pytest.raises(fg.GradcheckError) as info:
        fg.gradcheck(square, (Z,), check_forward_ad=True, check_backward_ad=False)
    message = str(info.value)
    assert message.startswith("While considering the imaginary part of complex input 0 only")
    assert "forward mode" in message
    # reverse mode is derived from the same wrong JVP, so it is caught without forward too
    assert fg.gradcheck(square, (Z,), raise_exception=False) is False


def test_gradgradcheck_catches_a_complex_backward_that_is_not_differentiable():
    right = _norm2_with(lambda z, g: 2 * g * np.conj(z))
    frozen = _norm2_with(lambda z, g: 2 * g * np.conj(fg.stop_gradient(z)))
    assert fg.gradcheck(frozen, (Z,))
    assert fg.gradgradcheck(right, (Z,))
    with pytest.raises(fg.GradcheckError, match="derivative of the backward pass"):
        fg.gradgradcheck(frozen, (Z,))


def test_gradgradcheck_takes_complex_grad_outputs():
    f = CORRECT[0][1]
    assert fg.gradgradcheck(f, (Z,), grad_outputs=(np.array([1j, 2.0, -1 + 1j]),))
    with pytest.raises(TypeError, match="grad_outputs\\[0\\] is complex but output 0 of f "
                                        "is real"):
        fg.gradgradcheck(lambda x: x * x, (X,), grad_outputs=(np.ones(3) * 1j,))


# --- Tensors: PyTorch's convention --------------------------------------------------------

def test_tensor_entries_are_pytorchs_conjugate_of_jax():
    """One wrong custom_vjp, reported with the entries each convention expects."""
    z = np.array([3 + 4j])
    assert fg.gradcheck(lambda z: z.abs() ** 2, (fg.Tensor(z, requires_grad=True),))
    wrong = _norm2_with(lambda z, g: 2 * g * z)
    messages = []
    for inputs in ((z,), (fg.Tensor(z, requires_grad=True),)):
        with pytest.raises(fg.GradcheckError) as info:
            fg.gradcheck(wrong, inputs)
        messages.append(str(info.value))
    array_message, tensor_message = messages
    assert "d/dx - i d/dy" in array_message and "numerical 6-8j" in array_message
    assert "d/dx + i d/dy" in tensor_message and "numerical 6+8j" in tensor_message
    assert "PyTorch's convention" in tensor_message


class _SquareTorch(fg.Function):
    """z**2 with PyTorch's complex convention: grad_output * conj(2 z)."""

    @staticmethod
    def forward(ctx, z):
        ctx.save_for_backward(z)
        return z * z

    @staticmethod
    def backward(ctx, g):
        z, = ctx.saved_tensors
        return g * np.conj(2 * z)


class _SquareJax(_SquareTorch):
    """The same with the conjugation missing (JAX's convention, wrong for a Function)."""

    @staticmethod
    def backward(ctx, g):
        z, = ctx.saved_tensors
        return g * 2 * z


def test_function_backward_follows_pytorchs_convention():
    z = np.array([1 + 2j, 0.5 - 1j])
    t = fg.Tensor(z, requires_grad=True)
    _SquareTorch.apply(t).backward(gradient=fg.Tensor(np.array([1.0 + 0j, 1j])))
    np.testing.assert_allclose(t.grad.detach(), np.array([1.0, 1j]) * np.conj(2 * z))
    # under the functional API the same rule gives JAX's convention: grad of a real loss
    loss = lambda z: np.sum(np.abs(_SquareTorch.apply(z)) ** 2)  # noqa: E731  |z|^4
    np.testing.assert_allclose(fg.grad(loss)(z), 4 * np.abs(z) ** 2 * np.conj(z))
    for inputs in ((fg.Tensor(z, requires_grad=True),), (z,)):
        assert fg.gradcheck(_SquareTorch.apply, inputs) is True


def test_function_with_a_missing_conjugation_fails_gradcheck():
    z = fg.Tensor(np.array([1 + 2j, 0.5 - 1j]), requires_grad=True)
    with pytest.raises(fg.GradcheckError) as info:
        fg.gradcheck(_SquareJax.apply, (z,))
    message = str(info.value)
    assert "d/dx + i d/dy" in message and "complex conjugate of the numerical one" in message
    assert fg.gradcheck(_SquareJax.apply, (z.detach().numpy(),), raise_exception=False) is False


def test_torch_agrees_on_which_complex_functions_pass():
    torch = pytest.importorskip("torch")

    class TorchSquare(torch.autograd.Function):
        @staticmethod
        def forward(ctx, z):
            ctx.save_for_backward(z)
            return z * z

        @staticmethod
        def backward(ctx, g):
            z, = ctx.saved_tensors
            return g * (2 * z).conj()

    class TorchSquareWrong(TorchSquare):
        @staticmethod
        def backward(ctx, g):
            z, = ctx.saved_tensors
            return g * 2 * z
    z = np.array([1 + 2j, 0.5 - 1j])
    verdicts = {}
    for name, torch_fn, fg_fn in (("right", TorchSquare, _SquareTorch),
                                  ("wrong", TorchSquareWrong, _SquareJax)):
        tz = torch.tensor(z, requires_grad=True)
        verdicts[name] = (torch.autograd.gradcheck(torch_fn.apply, (tz,),
                                                   raise_exception=False),
                          fg.gradcheck(fg_fn.apply, (fg.Tensor(z, requires_grad=True),),
                                       raise_exception=False))
    assert verdicts == {"right": (True, True), "wrong": (False, False)}
    # and the entries funcgrad reports for a Tensor are torch's .grad
    tz = torch.tensor(np.array([3 + 4j]), requires_grad=True)
    (tz.abs() ** 2).sum().backward()
    assert complex(tz.grad[0]) == pytest.approx(6 + 8j)
