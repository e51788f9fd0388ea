"""Integrands that capture values being differentiated, for the ``custom_vjp`` rules of
``quad`` and ``solve_ivp``: those values are made explicit arguments
(``fg.closure_convert``), so that the rule's derivative reaches them.  Left captured, the
rule would be differentiated through its adaptive loop -- the derivative of the step
choices, not of the integral."""
import numpy as np

from .. import tree
from ..closures import closure_convert
from ..core import Tracer, is_special
from ..lax import stop_gradient
from ..numpy._convert import asarray


def lift_captures(func, examples, name):
    """``(func, [])``, or ``(converted, consts)`` with ``converted(*args, *consts)`` equal
    to ``func(*args)`` where ``func`` (called on values shaped as ``examples``) captures
    traced values or eager Tensors."""
    with np.errstate(all="ignore"):
        probe = func(*[stop_gradient(x) for x in examples])
    if not any(isinstance(x, Tracer) or is_special(x) for x in tree.flatten(probe)[0]):
        return func, []
    try:
        converted, consts = closure_convert(func, *examples)
    except Exception as error:
        raise TypeError(
            f"{name}: the function captures a value being differentiated (or traced), and "
            f"tracing it to make that value an argument failed ({type(error).__name__}: "
            f"{error}); pass the value through args= instead") from error
    return (converted, [asarray(c) for c in consts]) if consts else (func, [])
