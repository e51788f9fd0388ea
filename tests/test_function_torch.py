"""``fg.Function`` in PyTorch 2's style, with the "Extending PyTorch" tutorial's examples
(LinearFunction, MulConstant, MyCube) run as written with ``torch`` swapped for funcgrad:
``forward`` without ctx plus ``setup_context``, ``needs_input_grad``,
``mark_non_differentiable``, ``set_materialize_grads``, ``mark_dirty``,
``once_differentiable``, ``gradcheck`` on float64 Tensors.  Expected values come from
NumPy or by hand."""
import numpy as np
import pytest

import funcgrad as torch  # the tutorials' spelling
from funcgrad.autograd import Function, gradcheck
from funcgrad.autograd.function import once_differentiable


class LinearFunction(Function):
    calls = {"forward": 0, "backward": 0}

    @staticmethod
    def forward(input, weight, bias=None):
        LinearFunction.calls["forward"] += 1
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs + (None,) * (3 - len(inputs))
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        LinearFunction.calls["backward"] += 1
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


class MyCube(Function):
    @staticmethod
    def forward(x):
        dx = 3 * x ** 2
        result = x ** 3
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        return grad_output * dx + grad_dx * 6 * x


def my_cube(x):
    result, dx = MyCube.apply(x)
    return result


def test_linear_function_values_gradients_and_call_counts():
    LinearFunction.calls.update(forward=0, backward=0)
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    w = torch.tensor([[1.0, -1.0], [0.5, 2.0]], requires_grad=True)
    b = torch.tensor([0.25, -0.5], requires_grad=True)
    y = LinearFunction.apply(x, w, b)
    X, W = x.detach().numpy(), w.detach().numpy()
    np.testing.assert_allclose(y.detach().numpy(), X @ W.T + [0.25, -0.5])
    assert y.dtype == torch.float32 and y.grad_fn.name() == "LinearFunctionBackward"
    G = np.arange(6.0).reshape(3, 2)
    y.backward(torch.tensor(G.tolist()))
    assert LinearFunction.calls == {"forward": 1, "backward": 1}
    np.testing.assert_allclose(x.grad.numpy(), G @ W)
    np.testing.assert_allclose(w.grad.numpy(), G.T @ X)
    np.testing.assert_allclose(b.grad.numpy(), G.sum(0))
    assert x.grad.dtype == w.grad.dtype == torch.float32


def test_needs_input_grad_follows_requires_grad():
    seen = []

    class Probe(Function):
        @staticmethod
        def forward(ctx, a, b, k):
            seen.append(ctx.needs_input_grad)
            return a * b * k

        @staticmethod
        def backward(ctx, g):
            return g, g, None

    a = torch.ones(2, requires_grad=True)
    Probe.apply(a, torch.ones(2), 3.0)
    with torch.no_grad():
        Probe.apply(a, torch.ones(2), 3.0)
    assert seen == [(True, False, False), (False, False, False)]


def test_gradcheck_linear_function_as_in_the_tutorial():
    torch.manual_seed(0)
    input = (torch.randn(20, 20, dtype=torch.double, requires_grad=True),
             torch.randn(30, 20, dtype=torch.double, requires_grad=True))
    assert gradcheck(LinearFunction.apply, input, eps=1e-6, atol=1e-4) is True
    bias = torch.randn(30, dtype=torch.double, requires_grad=True)
    assert torch.gradcheck(LinearFunction.apply, input + (bias,), eps=1e-6, atol=1e-4)


def test_gradcheck_catches_a_wrong_backward_of_a_tensor_function():
    class WrongLinear(LinearFunction):
        @staticmethod
        def backward(ctx, grad_output):
            input, weight, _ = ctx.saved_tensors
            return grad_output.mm(weight) * 2, grad_output.t().mm(input), None

    inputs = (torch.randn(3, 2, dtype=torch.double, requires_grad=True),
              torch.randn(4, 2, dtype=torch.double, requires_grad=True))
    with pytest.raises(torch.GradcheckError):
        gradcheck(WrongLinear.apply, inputs, eps=1e-6, atol=1e-4)
    assert gradcheck(WrongLinear.apply, inputs, raise_exception=False) is False


def test_mul_constant_keeps_python_number_and_dtype():
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    y = MulConstant.apply(x, 5.0)
    assert y.dtype == torch.float32 and y.tolist() == [5.0, -10.0]
    y.sum().backward()
    assert x.grad.tolist() == [5.0, 5.0]
    d = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda t: MulConstant.apply(t, 2.5), (d,))


def test_my_cube_first_and_second_derivatives():
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = my_cube(x)
    np.testing.assert_allclose(y.detach().numpy(), [1.0, 8.0])
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), [3.0, 12.0])  # 3x^2
    (h,) = torch.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), [6.0, 12.0])  # 6x
    # and under the functional transforms (torch.func style)
    np.testing.assert_allclose(torch.grad(lambda t: my_cube(t).sum())(np.array([2.0])), [12.0])
    np.testing.assert_allclose(torch.grad(torch.grad(lambda t: my_cube(t)))(2.0), 12.0)
    assert gradcheck(my_cube, (x,)) and torch.gradgradcheck(my_cube, (np.array([0.5, 1.5]),))


def test_mark_non_differentiable_and_zeros_for_its_gradient():
    got = []

    class SortLike(Function):
        @staticmethod
        def forward(x):
            idx = np.argsort(x.detach().numpy())
            return x[idx], torch.tensor(idx.astype(np.float64))

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.mark_non_differentiable(output[1])
            ctx.save_for_backward(output[1])

        @staticmethod
        def backward(ctx, g_sorted, g_idx):
            got.append(g_idx)
            idx, = ctx.saved_tensors
            out = np.zeros(g_sorted.shape, g_sorted.dtype)
            out[idx.numpy().astype(int)] = g_sorted.numpy()
            return torch.tensor(out)

    x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
    values, idx = SortLike.apply(x)
    assert values.requires_grad and not idx.requires_grad and idx.grad_fn is None
    assert values.tolist() == [1.0, 2.0, 3.0] and idx.tolist() == [1.0, 2.0, 0.0]
    (values * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert x.grad.tolist() == [100.0, 1.0, 10.0]
    assert got[0].tolist() == [0.0, 0.0, 0.0]  # materialised zeros, as in PyTorch


def test_set_materialize_grads_false_gives_none():
    got = []

    class Two(Function):
        @staticmethod
        def forward(x):
            return x.clone(), x.clone()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.set_materialize_grads(False)

        @staticmethod
        def backward(ctx, g1, g2):
            got.append((g1 is None, g2 is None))
            return g1 * 2 if g1 is not None else g2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a, b = Two.apply(x)
    a.sum().backward()
    assert got == [(False, True)] and x.grad.tolist() == [2.0, 2.0]


def test_once_differentiable_backward_and_its_double_backward_error():
    class Square(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            assert not torch.is_grad_enabled()
            return 2 * x * g

    assert torch.once_differentiable is once_differentiable
    x = torch.tensor([3.0], requires_grad=True)
    Square.apply(x).sum().backward()
    assert x.grad.tolist() == [6.0]
    (g,) = torch.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
    assert g.tolist() == [6.0] and not g.requires_grad  # its grad_output did not require grad
    y = Square.apply(x)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)  # d(x^4)/dx = 4x^3
    assert g.tolist() == [108.0] and g.requires_grad
    with pytest.raises(RuntimeError, match="differentiate twice a function that was marked "
                                           "with @once_differentiable"):
        g.sum().backward()


def test_mark_dirty_returns_the_input_with_the_functions_history():
    class AddOneInplace(Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1.0)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3  # deliberately not 1, to see the gradient flow through this node

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = a * 2
    out = AddOneInplace.apply(y)
    assert out is y and y.tolist() == [3.0, 5.0] and y.grad_fn.name() == "AddOneInplaceBackward"
    assert type(y.grad_fn).__name__ == "AddOneInplaceBackward"
    y.sum().backward()
    assert a.grad.tolist() == [6.0, 6.0]
    leaf = torch.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        AddOneInplace.apply(leaf)


def test_each_function_records_nodes_of_its_own_type_named_like_torchs():
    class MyExp(Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y

    class SplitTwice(Function):  # two outputs: one node, one type
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 * 2 + g2 * 3

    class Derived(MyExp):
        pass

    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = MyExp.apply(x)
    node_type = type(y.grad_fn)
    assert node_type.__name__ == "MyExpBackward" and y.grad_fn.name() == "MyExpBackward"
    assert node_type is MyExp._backward_cls and type(MyExp.apply(y).grad_fn) is node_type
    assert isinstance(y.grad_fn, torch.autograd.Node) and repr(y.grad_fn) == "<MyExpBackward>"
    z = Derived.apply(y)
    assert type(z.grad_fn).__name__ == "DerivedBackward" and type(z.grad_fn) is not node_type
    a, b = SplitTwice.apply(z)
    assert type(a.grad_fn).__name__ == "SplitTwiceBackward" and a.grad_fn is b.grad_fn
    assert type((a * b).grad_fn) is torch.autograd.Node  # built-in operations: unchanged
    seen = []
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append("MyExp"))
    (a + b).sum().backward()
    e = np.exp(np.exp(np.array([0.0, 1.0])))  # z = exp(exp(x)); a + b = 5 z
    np.testing.assert_allclose(x.grad.numpy(), 5 * e * np.exp(np.array([0.0, 1.0])), rtol=1e-6)
    assert seen == ["MyExp"]


def test_vmap_over_a_function_and_generate_vmap_rule():
    class Scale(Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x, k):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

        @staticmethod
        def vmap(info, in_dims, x, k):  # accepted; funcgrad vectorises the rules itself
            raise AssertionError("not called")

    xs = np.arange(6.0).reshape(3, 2)
    np.testing.assert_allclose(torch.vmap(lambda x: Scale.apply(x, 2.0))(xs), 2 * xs)
    np.testing.assert_allclose(
        torch.vmap(torch.grad(lambda x: Scale.apply(x, 3.0).sum()))(xs), np.full((3, 2), 3.0))


def test_gradcheck_warns_like_torch_for_float32_tensors():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match="not a double precision"):
        assert gradcheck(lambda t: (t * t).sum(), (x,))


def _scale_function(lib):
    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, g  # a gradient for k, a Python number: an error in PyTorch

    return Scale


def test_function_gradient_for_a_non_tensor_input_raises():
    fg = torch  # funcgrad, as this file spells it
    x = fg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="returned a gradient different than None at "
                                           "position 2, but the corresponding forward input "
                                           "was not a Variable"):
        _scale_function(fg).apply(x, 2.0).sum().backward()


def test_function_gradient_for_a_non_tensor_input_raises_in_torch_too():
    real_torch = pytest.importorskip("torch")
    x = real_torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="position 2, but the corresponding forward "
                                           "input was not a Variable"):
        _scale_function(real_torch).apply(x, 2.0).sum().backward()


def _with_count(lib):
    class WithCount(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, 5

        @staticmethod
        def backward(ctx, g, g_count):
            return g * 3

    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y, count = WithCount.apply(x)
    y.sum().backward()
    return type(count).__name__, count, x.grad.tolist()


def test_function_python_number_output_passes_through():
    # it came back as tensor(5); the Tensor output's gradient is backward's 3 * 1
    assert _with_count(torch) == ("int", 5, [3.0, 3.0])


def test_function_python_number_output_matches_torch():
    real_torch = pytest.importorskip("torch")
    assert _with_count(torch) == _with_count(real_torch)


def _function_under_saved_hooks(lib):
    log = []

    def pack(t):
        log.append("pack")
        return t.detach() * 2  # what backward then reads: the saved values doubled

    def unpack(t):
        log.append("unpack")
        return t

    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 3
            ctx.save_for_backward(x, y)
            return y

        @staticmethod
        def backward(ctx, g):
            ctx.saved_tensors
            x, y = ctx.saved_tensors
            return g * x + g * y

    x = lib.tensor([1.0, 2.0], requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
        out = Scale.apply(x)
    out.sum().backward()
    return log, x.grad.tolist()


def test_function_saved_tensors_go_through_saved_tensors_hooks():
    # x and 3x packed once each, unpacked at each of the two saved_tensors reads; backward
    # reads 2x and 6x: 8x.  The hooks saw only the Function's input, never ctx's values
    log, grad = _function_under_saved_hooks(torch)
    assert log == ["pack", "pack", "unpack", "unpack", "unpack", "unpack"]
    assert grad == [8.0, 16.0]


def test_function_saved_tensors_hooks_match_torch():
    real_torch = pytest.importorskip("torch")
    assert _function_under_saved_hooks(torch) == _function_under_saved_hooks(real_torch)


class SinSavedForForward(Function):
    @staticmethod
    def forward(x):
        return x.sin()

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_forward(x)
        ctx.save_for_backward(output)  # (backward reads this one: a wrong rule on purpose)

    @staticmethod
    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        return g * out

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return t * x.cos()


def test_jvp_reads_what_save_for_forward_kept_and_backward_what_save_for_backward_kept():
    x = np.array([0.5, -1.0, 2.0])
    with torch.forward_ad.dual_level():
        dual = torch.forward_ad.make_dual(torch.tensor(x), torch.ones(3, dtype=torch.float64))
        tangent = torch.forward_ad.unpack_dual(SinSavedForForward.apply(dual)).tangent
    np.testing.assert_allclose(np.asarray(tangent), np.cos(x))
    xt = torch.tensor(x, requires_grad=True)
    SinSavedForForward.apply(xt).sum().backward()
    np.testing.assert_allclose(xt.grad.numpy(), np.sin(x))
