"""Calls that must type-check against funcgrad's annotations (mypy reads this file; see
[mypy] in setup.cfg and tests/test_typing.py, which also runs it).  The lines marked
``# type: ignore[...]`` are mistakes mypy must catch: with ``warn_unused_ignores`` an
ignore that no longer matches an error fails the check, so the annotations are shown to
reject them."""
import numpy as np

import funcgrad as fg
import funcgrad.forward_ad as fwAD
from funcgrad.typing import Array


def loss(w: Array, x: Array) -> Array:
    return np.sum(np.tanh(x @ w) ** 2)


w, x = np.ones((3, 2)), np.ones((4, 3))
dw: Array = fg.grad(loss)(w, x)
value, g = fg.value_and_grad(loss, argnums=(0, 1))(w, x)
out, vjp_fn = fg.vjp(np.sin, 1.0)
cotangents: tuple[Array, ...] = vjp_fn(1.0)
out, vjp_fn, aux = fg.vjp(lambda v: (v, 2.0), 1.0, has_aux=True)
y, dy = fg.jvp(np.sin, (1.0,), (1.0,))
y, f_jvp = fg.linearize(np.exp, 0.0)
jac = fg.jacobian(loss, strategy="reverse-mode")(w, x)
h = fg.hessian(loss)(w, x)
value, product = fg.hvp(lambda v: np.sum(v ** 3), (np.ones(2),), (np.ones(2),))
batched = fg.vmap(np.sin, in_axes=0)(np.ones((2, 3)))
compiled = fg.jit(loss)
with fwAD.dual_level():
    primal, tangent = fwAD.unpack_dual(fwAD.make_dual(np.ones(2), np.ones(2)))
leaves, treedef = fg.tree.flatten({"a": 1.0})
seconds: float = fg.warmup(dtypes=())

# the eager Tensor
t = fg.tensor([1.0, 2.0], requires_grad=True)
loss_t: fg.Tensor = (2 * t).exp().sum(dim=0) + fg.randn(2).mean()
loss_t.backward(retain_graph=True)
t_grad: fg.Tensor | None = t.grad
(dt,) = fg.autograd.grad(loss_t, t)
number: float = loss_t.item()
shape: tuple[int, ...] = fg.zeros(2, 3).view(3, -1).unsqueeze(0).shape
frozen: bool = t.detach().requires_grad

# --- mistakes the annotations catch ---
fg.grad(loss, argnums=1.5)  # type: ignore[arg-type]
fg.grad(loss, has_aux="yes")  # type: ignore[arg-type]
fg.jacobian(loss, strategy="sideways")  # type: ignore[arg-type]
out, vjp_fn = fg.vjp(np.sin, 1.0, has_aux=True)  # type: ignore[misc]
fg.vmap(loss, axis_size="3")  # type: ignore[arg-type]
fg.tree.unflatten([1.0], treedef)  # type: ignore[arg-type]
t.backward(retain_graph="yes")  # type: ignore[arg-type]
t.softmax()  # type: ignore[call-arg]
fg.zeros(2, requires_grad="no")  # type: ignore[arg-type]
t.no_such_method()  # type: ignore[attr-defined]
