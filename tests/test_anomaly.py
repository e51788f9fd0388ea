"""Anomaly detection: forward tracebacks on backward errors, NaN detection, the mode."""
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
                                                   "values in its 1st output"):
                fg.grad(lambda x, y: np.sum(prim.bind(x, y)), argnums=(0, 1))(
                    np.ones(2), np.ones(2))
    finally:
        del core.REGISTRY["test_nan_rule"]


def test_nan_in_forward_names_the_primitive():
    def loss(x):
        return np.sum(np.log(x - 2.0))  # LOG-LINE

    line = _line_of("LOG-LINE", loss)
    with fg.detect_anomaly(), np.errstate(all="ignore"):
        with pytest.raises(RuntimeError, match="Function 'log' returned nan values in its "
                                               "output during the forward pass") as info:
            fg.grad(loss)(np.array([1.0, 3.0]))
    assert f"line {line}, in loss" in str(info.value)


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
