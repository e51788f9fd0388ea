"""Anomaly detection: forward tracebacks on backward errors, NaN detection in the backward
pass (as PyTorch: never in the forward pass), the mode."""
import contextlib
import inspect
import threading

import numpy as np
import pytest

import funcgrad as fg
from funcgrad import core


@contextlib.contextmanager
def failing_backward_primitive():
    """A primitive whose backward rule raises (removed from the registry afterwards)."""
    def vjp(needs, g, out, x):
        raise ValueError("backward rule exploded")
    prim = core.Primitive("test_exploding_backward", lambda x: x * 1.0, vjp=vjp,
                          jvp=lambda p, t: (p[0] * 1.0, t[0]),
                          abstract_eval=lambda a: core.ShapedArray(a.shape, a.dtype))
    try:
        yield lambda x: prim.bind(x)
    finally:
        del core.REGISTRY["test_exploding_backward"]


def _line_of(marker, fn):
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if marker in line)


def test_error_in_backward_rule_reports_the_forward_line(capsys):
    with failing_backward_primitive() as explode:
        def loss(x):
            y = explode(x)  # FORWARD-CALL
            return np.sum(y * y)

        line = _line_of("FORWARD-CALL", loss)
        with fg.detect_anomaly():
            with pytest.raises(ValueError, match="backward rule exploded") as info:
                fg.grad(loss)(np.array([1.0, 2.0]))
    notes = "".join(getattr(info.value, "__notes__", []))
    assert "error detected in the backward rule of 'test_exploding_backward'" in notes
    assert f'{__file__}", line {line}, in loss' in notes
    assert "y = explode(x)  # FORWARD-CALL" in notes
    assert f"line {line}, in loss" in capsys.readouterr().err  # printed too


def test_without_anomaly_mode_no_note_is_attached():
    with failing_backward_primitive() as explode:
        with pytest.raises(ValueError) as info:
            fg.grad(lambda x: np.sum(explode(x)))(np.array([1.0]))
    assert not getattr(info.value, "__notes__", [])


def test_nan_in_backward_names_the_primitive_and_the_line():
    def norm(x):
        squares = x * x  # SQUARE-LINE
        return np.sqrt(np.sum(squares))  # d sqrt(0) = inf, then inf * x = inf * 0 = nan

    line = _line_of("SQUARE-LINE", norm)
    with fg.detect_anomaly(), np.errstate(all="ignore"):
        with pytest.raises(RuntimeError) as info:
            fg.grad(norm)(np.zeros(3))
    message = str(info.value)
    assert message.startswith("Function 'multiply' returned nan values in its 0th output.")
    assert f'{__file__}", line {line}, in norm' in message
    assert "squares = x * x  # SQUARE-LINE" in message
    assert "double-where" in message


def test_nan_check_names_which_argument():
    prim = core.Primitive("test_nan_rule", lambda x, y: x + y,
                          vjp=lambda needs, g, out, x, y: (g, g * np.nan),
                          jvp=lambda p, t: (p[0] + p[1], t[0]),
                          abstract_eval=lambda a, b: core.ShapedArray(a.shape, a.dtype))
    try:
        with fg.detect_anomaly():
            with pytest.raises(RuntimeError, match="Function 'test_nan_rule' returned nan "
                                                   "values in its 1th output"):  # (sic)
                fg.grad(lambda x, y: np.sum(prim.bind(x, y)), argnums=(0, 1))(
                    np.ones(2), np.ones(2))
    finally:
        del core.REGISTRY["test_nan_rule"]


def test_nan_in_the_forward_pass_is_not_an_error():
    # PyTorch's anomaly mode checks gradients only: log(1 - 2) is NaN, but its derivative
    # 1 / (x - 2) = -1 is not, so nothing is reported (it was, before)
    with fg.detect_anomaly(), np.errstate(all="ignore"):
        g = fg.grad(lambda x: np.sum(np.log(x - 2.0)))(np.array([1.0, 3.0]))
    np.testing.assert_array_equal(g, [-1.0, 1.0])


def test_nan_already_in_the_inputs_is_not_blamed_on_an_operation():
    # The forward propagates the input's NaN (no operation produced it); the gradient
    # 2 * ones has none: nothing to report.
    with fg.detect_anomaly():
        g = fg.grad(lambda x: np.sum(x * 2.0))(np.array([np.nan, 1.0]))
    np.testing.assert_array_equal(g, [2.0, 2.0])


def test_check_nan_false_lets_nan_through():
    with fg.detect_anomaly(check_nan=False), np.errstate(all="ignore"):
        g = fg.grad(lambda x: np.sqrt(np.sum(x * x)))(np.zeros(2))
    assert np.isnan(g).all()


def test_results_are_unchanged_under_anomaly_mode():
    f = lambda x: np.sum(np.tanh(x) ** 2 * np.exp(x))  # noqa: E731
    x = np.array([0.1, -0.4, 0.9])
    with fg.detect_anomaly():
        g = fg.grad(f)(x)
        gg = fg.grad(lambda x: np.sum(fg.grad(f)(x)))(x)
    np.testing.assert_allclose(g, fg.grad(f)(x))
    np.testing.assert_allclose(gg, fg.grad(lambda x: np.sum(fg.grad(f)(x)))(x))


def test_mode_is_off_by_default_thread_local_and_restored():
    assert not fg.is_anomaly_enabled()
    assert core._state.instruments == ()
    seen = []
    with fg.detect_anomaly(check_nan=False):
        assert fg.is_anomaly_enabled() and not fg.is_anomaly_check_nan_enabled()
        t = threading.Thread(target=lambda: seen.append(fg.is_anomaly_enabled()))
        t.start()
        t.join()
    assert seen == [False]
    assert not fg.is_anomaly_enabled() and core._state.instruments == ()

    fg.set_detect_anomaly(True)
    try:
        assert fg.is_anomaly_enabled() and fg.is_anomaly_check_nan_enabled()
    finally:
        fg.set_detect_anomaly(False)
    assert not fg.is_anomaly_enabled() and core._state.instruments == ()

    with fg.set_detect_anomaly(True):
        assert fg.is_anomaly_enabled()
    assert not fg.is_anomaly_enabled()


def test_detect_anomaly_as_a_decorator():
    @fg.detect_anomaly()
    def run():
        return fg.is_anomaly_enabled()
    assert run() is True and not fg.is_anomaly_enabled()


# --- the eager Tensor: PyTorch's semantics ------------------------------------------------------

def _masked_log(lib, values, forward_on=True, backward_on=True, check_nan=True):
    """``where(x > 0, log x, 0)`` forward and backward, each inside anomaly mode or not;
    ``("grad", x.grad)`` or ``("raised", message)``."""
    import warnings
    on = lambda: lib.autograd.detect_anomaly(check_nan=check_nan)  # noqa: E731
    off = contextlib.nullcontext
    x = lib.tensor(values, requires_grad=True)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # torch's "Anomaly Detection has been enabled"
        with on() if forward_on else off():
            y = x.log().where(x > 0, 0.0).sum()
        try:
            with on() if backward_on else off():
                y.backward()
        except RuntimeError as error:
            return "raised", str(error)
    return "grad", x.grad.tolist()


def test_tensor_nan_masked_in_the_forward_pass_is_not_an_error():
    # log(-1) is NaN, but where discards it and log's derivative there is 0 / -1 = -0
    assert _masked_log(fg, [-1.0, 2.0]) == ("grad", [0.0, 0.5])


def test_tensor_nan_in_a_gradient_names_the_backward_node_and_the_forward_line():
    # at x = 0 log's derivative is 0 / 0 even where the cotangent is 0
    kind, message = _masked_log(fg, [0.0, 2.0])
    assert kind == "raised"
    assert message.startswith("Function 'LogBackward0' returned nan values in its 0th "
                              "output.")
    line = _line_of("y = x.log().where(x > 0, 0.0).sum()", _masked_log)
    assert f'{__file__}", line {line}, in _masked_log' in message
    assert "Traceback of the forward call that created it:" in message


def test_tensor_nan_check_follows_the_mode_of_the_backward_pass():
    # recorded outside the mode, checked inside it: no forward line to show
    kind, message = _masked_log(fg, [0.0, 2.0], forward_on=False)
    assert kind == "raised" and "'LogBackward0' returned nan values" in message
    assert "No forward pass information available" in message
    # recorded inside it, run outside it, or with check_nan=False: the NaN goes through
    for options in (dict(backward_on=False), dict(check_nan=False)):
        kind, grad = _masked_log(fg, [0.0, 2.0], **options)
        assert kind == "grad" and np.isnan(grad[0]) and grad[1] == 0.5


@pytest.mark.parametrize("options", [dict(), dict(forward_on=False), dict(backward_on=False),
                                     dict(check_nan=False)])
@pytest.mark.parametrize("values", [[-1.0, 2.0], [0.0, 2.0]])
def test_tensor_anomaly_mode_raises_where_torch_raises(values, options):
    torch = pytest.importorskip("torch")
    ours, theirs = _masked_log(fg, values, **options), _masked_log(torch, values, **options)
    assert ours[0] == theirs[0]
    if ours[0] == "raised":
        assert ours[1].startswith(theirs[1])  # funcgrad adds the line and the fix
    else:
        np.testing.assert_array_equal(ours[1], theirs[1])


def test_vjp_fn_checks_nan_if_called_with_the_mode_on():
    # the functional API follows the same rule: the mode while the pullback runs decides
    with np.errstate(all="ignore"):
        _, pullback = fg.vjp(lambda x: np.sqrt(x) * 0.0, np.array([0.0, 1.0]))
        with fg.detect_anomaly():
            with pytest.raises(RuntimeError, match="'sqrt' returned nan values"):
                pullback(np.ones(2))
        with fg.detect_anomaly():
            _, pullback = fg.vjp(lambda x: np.sqrt(x) * 0.0, np.array([0.0, 1.0]))
        assert np.isnan(pullback(np.ones(2))[0][0])


def test_create_graph_nan_names_the_node_that_induced_it():
    """An operation a create_graph pass recorded names, as PyTorch, the node whose
    backward recorded it and that node's forward line."""
    x = fg.tensor([1.0, 2.0], requires_grad=True)
    with fg.detect_anomaly():
        y = x.sqrt().sum()  # SQRT-LINE
        g, = fg.autograd.grad(y, x, create_graph=True)
        with pytest.raises(RuntimeError) as info:
            g.backward(fg.tensor([float("nan"), 1.0]))
    message = str(info.value)
    assert message.startswith("Function 'DivBackward0' returned nan values in its 1th "
                              "output.")  # the division sqrt's rule made: g / (2 sqrt x)
    line = _line_of("SQRT-LINE", test_create_graph_nan_names_the_node_that_induced_it)
    assert "Previous calculation was induced by SqrtBackward0." in message
    assert f"line {line}, in test_create_graph_nan" in message.split("induced by")[1]


def test_tensor_error_in_backward_recorded_outside_the_mode_says_so():
    class Exploding(fg.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1.0

        @staticmethod
        def backward(ctx, g):
            raise ValueError("backward rule exploded")

    y = Exploding.apply(fg.tensor([1.0], requires_grad=True)).sum()
    with fg.detect_anomaly(), pytest.raises(ValueError, match="exploded") as info:
        y.backward()
    notes = "".join(getattr(info.value, "__notes__", []))
    assert "error detected in the backward rule of 'ExplodingBackward'" in notes
    assert "No forward pass information available" in notes
