"""The quickstart in README.md runs, and what it prints is right.

The first ```python block of README.md is executed in a fresh namespace. Its gradients of the
tanh loss are checked against central finite differences computed here from the snippet's own
W and x, and the other results it prints are checked against closed forms.
"""
import math
import re
from pathlib import Path

import numpy as np
import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def _first_python_block(text):
    match = re.search(r"^```python[ \t]*\n(.*?)^```[ \t]*$", text, re.DOTALL | re.MULTILINE)
    if match is None:
        pytest.fail("README.md has no ```python block")
    return match.group(1)


def _loss(W, x):
    return np.sum(np.tanh(x @ W) ** 2)


def _central_difference(f, a, eps=1e-6):
    a = np.array(a, dtype=np.float64)
    grad = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        up, down = a.copy(), a.copy()
        up[i] += eps
        down[i] -= eps
        grad[i] = (f(up) - f(down)) / (2 * eps)
    return grad


@pytest.fixture(scope="module")
def snippet():
    return _first_python_block(README.read_text(encoding="utf-8"))


def test_readme_quickstart(snippet, capsys):
    namespace = {"__name__": "__readme__"}
    exec(compile(snippet, str(README), "exec"), namespace)
    out = capsys.readouterr().out

    assert out.strip(), "the quickstart printed nothing"
    for name in ("W", "x", "dW", "dx", "value", "g", "dy", "f_vjp"):
        assert name in namespace, f"the quickstart no longer defines {name!r}"

    W = np.asarray(namespace["W"], dtype=np.float64)
    x = np.asarray(namespace["x"], dtype=np.float64)
    dW, dx = namespace["dW"], namespace["dx"]

    # The printed gradient is the one checked below.
    assert f"dW = {dW}" in out

    ref_dW = _central_difference(lambda w: _loss(w, x), W)
    ref_dx = _central_difference(lambda v: _loss(W, v), x)
    assert np.shape(dW) == W.shape and np.shape(dx) == x.shape
    np.testing.assert_allclose(np.asarray(dW), ref_dW, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(np.asarray(dx), ref_dx, rtol=1e-5, atol=1e-7)

    # value_and_grad agrees with the loss and with grad.
    np.testing.assert_allclose(float(namespace["value"]), _loss(W, x), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(namespace["g"]), ref_dW, rtol=1e-5, atol=1e-7)

    # jvp of sin at 1 is cos(1); the vjp of exp at 2 is exp(2); d2/dx2 sin at 0.5 is -sin(0.5).
    np.testing.assert_allclose(float(namespace["dy"]), math.cos(1.0), rtol=1e-12)
    (cotangent,) = namespace["f_vjp"](1.0)
    np.testing.assert_allclose(float(cotangent), math.exp(2.0), rtol=1e-12)
    last_line = out.strip().splitlines()[-1]
    np.testing.assert_allclose(float(last_line), -math.sin(0.5), rtol=1e-12)
