"""The errors of tracing, and what they say: a traced value used after its transform
returned (:class:`EscapedTracerError`), a value needed where only a shape exists
(:class:`ConcretizationError`), a derivative that would be dropped
(:class:`DerivativeDroppedError`), a shape that had to match and did not
(:class:`ShapeMismatchError`), and where in the user's code it happened.

:mod:`funcgrad.core` raises them and exports them under its own name too.
"""
import os
import traceback

__all__ = ["EscapedTracerError", "ConcretizationError", "TrigRangeError",
           "DerivativeDroppedError", "ShapeMismatchError", "ArgumentMismatchError",
           "MissingRuleError", "ForwardModeUndefinedError", "FREED_MESSAGE", "user_code",
           "escaped_message", "user_frame_summary"]


class EscapedTracerError(RuntimeError):
    """A traced value was used after the transform that made it returned."""


class ConcretizationError(TypeError):
    """A concrete value was needed where only an abstract one exists."""


class TrigRangeError(ArithmeticError):
    """Internal to ``fg.jit``: raised by a generated loop written without the C library's
    pass for sin/cos arguments beyond the vector maths' range when it meets one
    (:func:`funcgrad.jit.lower.lower_graph`); the compiled function then switches to the
    code written with that pass and calls it (the user never sees this error)."""


class DerivativeDroppedError(TypeError):
    """A value that carries a derivative was turned into a plain number or array, which
    would have dropped the derivative silently."""


class IndexOutOfBoundsError(IndexError, RuntimeError):
    """An index outside an axis (past its end, or negative where PyTorch refuses one) in a
    Tensor's ``gather`` / ``scatter`` / ``index_*``: NumPy raises ``IndexError`` and
    PyTorch ``RuntimeError`` (``IndexError`` for ``index_copy``); this is both."""


class ShapeMismatchError(RuntimeError, ValueError):
    """A value given for another (a tangent for its primal, a custom backward's gradient
    for its input) has the wrong shape or count.  PyTorch raises ``RuntimeError`` there and
    funcgrad's functional API ``ValueError``: it is both, so either ``except`` catches it."""


class ArgumentMismatchError(ValueError, TypeError):
    """Arguments of a transform that do not fit the function or each other (``argnums``
    past the positional arguments, tangents or cotangents whose structure differs from the
    primals' or outputs', ``in_axes`` that are no axes, a rule's tangent of the wrong
    shape, an unhashable static argument).  funcgrad raised ``ValueError`` for most of
    these and JAX raises ``TypeError`` (or the other way round): this is both, so code
    written for either catches it."""


class MissingRuleError(TypeError, AttributeError):
    """A ``custom_jvp`` (``custom_vjp``) function called before its rule was defined with
    ``.defjvp`` (``.defvjp``).  funcgrad raised ``TypeError`` and JAX raises
    ``AttributeError``: this is both, so code written for either catches it.

    >>> import funcgrad as fg
    >>> f = fg.custom_jvp(lambda x: x * 2)
    >>> try:
    ...     f(1.0)
    ... except AttributeError as e:
    ...     print(type(e).__name__, isinstance(e, TypeError))
    MissingRuleError True
    """


class ForwardModeUndefinedError(TypeError, NotImplementedError):
    """Forward mode (``jvp``, ``jacfwd``, ``hessian``, ``forward_ad``) met a custom rule
    that defines a VJP only.  JAX raises ``TypeError`` there, and PyTorch (a Function
    without ``jvp``) and HIPS autograd (a primitive without ``defjvp``)
    ``NotImplementedError``: it is both, so code written for any of them catches it."""


# PyTorch's words for a second backward pass through freed saved values (the eager
# Tensor's nodes, a Function's ctx.saved_tensors)
FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.")


class user_code:
    """Context for running the user's function inside a transform.

    NumPy reports a failed conversion inside ``out[i] = v`` as "setting an array element
    with a sequence" (a ``ValueError``; traced values have ``__getitem__``), keeping the
    reason only as its cause.  When the reason is a :class:`DerivativeDroppedError`, that
    error, which names the rewrite, is what the user gets.
    """

    __slots__ = ()

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if kind is not None and issubclass(kind, ValueError) and isinstance(
                error.__cause__, DerivativeDroppedError):
            raise error.__cause__.with_traceback(traceback) from None
        return False


def escaped_message(tracer):
    return (f"a traced value ({type(tracer).__name__} of {tracer._trace.transform}, "
            f"interpreter #{tracer._trace.tag}) was used after the transform that created "
            f"it returned. This happens when a value computed inside a transformed "
            f"function is stored in a global, a closure or an attribute and used later. "
            f"Return it from the function instead, or use fg.stop_gradient / a plain "
            f"array for values meant to outlive the transform.")


def user_frame_summary():
    """``File "...", line N, in f`` of the innermost frame outside funcgrad."""
    here = os.path.dirname(os.path.abspath(__file__))
    for frame in reversed(traceback.extract_stack()[:-1]):
        if not os.path.abspath(frame.filename).startswith(here):
            return f'File "{frame.filename}", line {frame.lineno}, in {frame.name}' + (
                f"\n    {frame.line}" if frame.line else "")
    return "(location unknown)"
