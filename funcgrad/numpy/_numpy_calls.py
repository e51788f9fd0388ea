"""Which of NumPy's Python-level functions met a traced value, and what funcgrad offers
in its place.

Most of NumPy reaches funcgrad by itself (``__array_function__``, ``__array_ufunc__``),
but ``numpy.polynomial`` (its series functions and classes) and ``np.vectorize`` first
convert their arguments with ``np.array``, which a traced value cannot go through, and
``np.poly1d`` trims its coefficients by their values (not known under vmap or jit);
``np.r_``/``np.c_`` convert their items too, and ``np.lib.stride_tricks.as_strided``
(memory by byte strides: funcgrad offers ``sliding_window_view`` instead).  The
error raised there names the call the user made and funcgrad's twin, found by walking the
stack: only on the error path, so it costs nothing otherwise (as
:mod:`funcgrad.numpy._scipy_calls` does for SciPy).
"""
import sys
from typing import NamedTuple, Optional

import numpy as np

__all__ = ["NumpyCall", "numpy_call", "numpy_fix", "NOT_DIFFERENTIABLE", "not_differentiable"]

_PASS_THROUGH = ("funcgrad", "numpy", "functools", "contextlib")


class NumpyCall(NamedTuple):
    """The NumPy call the user made (``numpy.polynomial.polynomial.polyval``) and
    funcgrad's twin (None when it has none); ``differentiable`` is False for NumPy's
    helpers that only ever work on plain values (np.matrix, numpy.testing...)."""
    function: str
    twin: Optional[str]  # (what to call: the twin, and how, in words)
    differentiable: bool = True


# NumPy's modules whose functions and classes work on plain values only (dates, records,
# C types, files, printing, tests, np.matrix): funcgrad re-exports them as they are
_PLAIN_MODULES = ("numpy.matrixlib", "numpy.testing", "numpy._core.records",
                  "numpy._core.memmap", "numpy.ctypeslib", "numpy.lib._utils_impl",
                  "numpy._core.defchararray", "numpy._core.strings")
# ... and NumPy's functions of that kind that hand a traced value to funcgrad
# (__array_function__, __array_ufunc__): the error names them as not differentiable
NOT_DIFFERENTIABLE = frozenset({
    "busday_count", "busday_offset", "is_busday", "isnat", "datetime_as_string",
    "datetime_data", "nested_iters", "get_include", "info", "show_config", "show_runtime"})


def not_differentiable(function: str) -> str:
    """The error for NumPy's ``function``, which works on plain values only."""
    return (f"{function} is not differentiable: NumPy's own, it works on plain values only, "
            f"and was given a traced value. Call it outside the transform, or on a value "
            f"whose derivative you drop on purpose (fg.stop_gradient(x), x.item()).")


def numpy_call() -> Optional[NumpyCall]:
    """The outermost call into ``numpy.polynomial``, ``np.poly1d`` or ``np.vectorize``
    next to the failure (a frame of the user's code ends the walk), or None."""
    found = None
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.startswith("numpy.polynomial"):
            found = _polynomial_call(frame, module) or found
        elif module.startswith("numpy.lib") and frame.f_code.co_name == "as_strided":
            found = NumpyCall("np.lib.stride_tricks.as_strided (memory read by byte strides)",
                              "np.lib.stride_tricks.sliding_window_view(x, window_shape, "
                              "axis=...) for sliding windows, or gather with an index array "
                              "(fnp.take(x.ravel(), index)): both keep values traced")
        elif module.startswith("numpy.") and isinstance(frame.f_locals.get("self"),
                                                        (type(np.r_), type(np.c_))):
            which = "r_" if isinstance(frame.f_locals["self"], type(np.r_)) else "c_"
            found = NumpyCall(f"np.{which}[...]", f"funcgrad.numpy.{which}[...] (the same "
                                                  f"items), which keeps values traced")
        elif module.startswith("numpy.") and isinstance(frame.f_locals.get("self"), np.poly1d):
            found = NumpyCall("np.poly1d(c) (which drops c's leading zeros)",
                              "funcgrad.numpy.poly1d(c), whose coefficients may be traced, "
                              "or np.polyval(c, x) instead of np.poly1d(c)(x), which keeps "
                              "them and works under vmap and jit too")
        elif module.startswith("numpy.") and isinstance(frame.f_locals.get("self"),
                                                        np.vectorize):
            found = NumpyCall("np.vectorize(f)(...)", "funcgrad.numpy.vectorize(f)(...) (or "
                              "fg.vmap(f)), which keeps values traced")
        elif module.startswith(_PLAIN_MODULES):
            found = _plain_call(frame, module) or found
        elif module.split(".")[0] not in _PASS_THROUGH:
            break
        frame = frame.f_back
    del frame  # (a frame in a local keeps the whole stack alive)
    return found


# numpy.polynomial's classes that funcgrad.numpy.polynomial has twins of
_CLASSES = ("Polynomial", "Chebyshev", "Legendre", "Hermite", "HermiteE", "Laguerre")


def _polynomial_call(frame, module):
    # (read from the loaded module: importing it here would make an import cycle)
    power_series = getattr(sys.modules.get("funcgrad.numpy.power_series"), "__all__", ())
    code = frame.f_code
    owner = frame.f_locals.get("self")
    kind = type(owner) if owner is not None else frame.f_locals.get("cls")
    if isinstance(kind, type) and issubclass(kind, np.polynomial._polybase.ABCPolyBase):
        name = f"numpy.polynomial.{kind.__name__}"
        twin = f"funcgrad.numpy.polynomial.{kind.__name__}" if kind.__name__ in _CLASSES \
            else None
        if code.co_name == "__init__":
            return NumpyCall(f"{name}(coef)", twin and f"{twin}(coef) (the same arguments)")
        if code.co_name == "__call__":
            return NumpyCall(f"calling a {name} p", twin and f"{twin}(p.coef, p.domain, "
                                                             f"p.window)(x) instead of p(x)")
        if code.co_name.startswith("_"):
            return None
        return NumpyCall(f"{name}.{code.co_name}",
                         twin and f"{twin}.{code.co_name} (the same arguments)")
    if code.co_name.startswith("_") or module.split(".")[-1].startswith("_"):
        return None
    label = f"{module}.{code.co_name}"
    if module == "numpy.polynomial.polynomial" and code.co_name in power_series or \
            module != "numpy.polynomial.polynomial" and _has_orthogonal_twin(module, code):
        return NumpyCall(label, f"funcgrad.numpy.polynomial.{module.split('.')[-1]}."
                                f"{code.co_name} (the same arguments)")
    return NumpyCall(label, None)


def _has_orthogonal_twin(module, code):
    # (funcgrad.numpy.polynomial makes its series on first use: the attribute loads them)
    polynomial = sys.modules.get("funcgrad.numpy.polynomial")
    family = module.split(".")[-1]
    if polynomial is None or family not in polynomial._SERIES:
        return False
    return code.co_name in getattr(polynomial, family).__dict__


def _plain_call(frame, module):
    name = frame.f_code.co_name
    if name in ("__new__", "__init__", "__call__"):
        owner = frame.f_locals.get("subtype") or frame.f_locals.get("cls") or \
            type(frame.f_locals.get("self"))
        name = getattr(owner, "__name__", None)
    if not name or name.startswith("_"):
        return None
    public = module.replace("._core", "").replace(".matrixlib", "").replace(".lib._utils_impl", "")
    public = {"numpy.records": "numpy.rec", "numpy.defchararray": "numpy.char",
              "numpy.defmatrix": "numpy", "numpy.memmap": "numpy"}.get(
                  public.rsplit(".", 1)[0] if public.count(".") > 1 else public, public)
    if public.startswith("numpy.testing"):
        public = "numpy.testing"
    return NumpyCall(f"{public}.{name}", None, differentiable=False)


def numpy_fix(call: NumpyCall) -> str:
    """The sentence that tells what to call instead of ``call.function``."""
    if not call.differentiable:
        return not_differentiable(call.function)
    if call.twin is not None:
        return f"Call {call.twin}."
    return ("funcgrad has no twin of it: write the series with the power series of "
            "funcgrad.numpy.polynomial.polynomial (or funcgrad.numpy.polynomial.Polynomial), "
            "or with funcgrad.numpy functions.")
