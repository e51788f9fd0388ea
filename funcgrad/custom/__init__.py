"""User-defined derivatives: ``custom_jvp``, ``custom_vjp``, ``Function``, ``checkpoint``.

All four become one primitive, ``custom_call``, whose parameter ``rule`` holds
the user's functions on flat lists of arrays:

* ``fun(*xs) -> outs``                      the value;
* ``jvp(primals, tangents) -> (outs, tangent_outs)``    forward mode (optional);
* ``fwd(*xs) -> (outs, residuals)`` and ``bwd(residuals, cotangents) -> cts``
  reverse mode (optional).

When only a JVP is given (``custom_jvp``), reverse mode transposes it: the
user's JVP is linear in the tangents, so its VJP is the VJP of ``t ->
jvp(x, t)`` (computed by funcgrad's own reverse mode at backward time; on the
eager Tensor's ``create_graph=True`` pass the rule runs again on the Tensors, so
its own operations are recorded and second derivatives follow).  When
only a VJP is given (``custom_vjp``), forward mode raises a clear error, as
in JAX.  Rules run under whatever interpreter is current, so they compose with
every transform and differentiate again if written with funcgrad operations.

Modules: ``_call`` (the primitive, its rules, and :class:`CallSite`, which binds it),
``_guard`` (rules may not use traced values they were not given), ``_decorators``
(``custom_jvp``, ``custom_vjp``), ``_function`` (``Function``), ``_eager`` (what
``Function`` needs of the eager Tensor), ``_checkpoint``, ``_gradient``
(``custom_gradient``, a ``custom_vjp`` whose residual is the user's VJP).
"""
from ._call import CustomRule, custom_call_p  # noqa: F401  (importable from here, as before)
from ._checkpoint import checkpoint, checkpoint_name
from ._decorators import custom_jvp, custom_vjp
from ._function import Function, FunctionCtx, once_differentiable
from ._gradient import custom_gradient

__all__ = ["custom_jvp", "custom_vjp", "Function", "FunctionCtx", "checkpoint",
           "checkpoint_name",
           "once_differentiable", "custom_gradient"]
