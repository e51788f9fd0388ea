"""How ``funcgrad.numpy``'s elementwise functions are made: :func:`unary` and
:func:`binary` turn an elementwise primitive into NumPy's ufunc (its keywords, its
docstring, ``fn.primitive`` and ``fn.numpy_ufuncs``, from which ``__array_ufunc__``'s table
is built); :func:`stands_for` marks a composite as a NumPy ufunc, :func:`binds` as the
front of a primitive.  The functions themselves, one line each, are
:mod:`funcgrad.numpy.ufuncs`.
"""
import functools
import inspect
from typing import Any, Callable

import numpy as _np

from ..core import _special_classes, _state, _tracer_classes
from ._convert import operand
from ._ufunc_keywords import ORDER_K, SAME_KIND, call_with_keywords, presented_signature
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["unary", "binary", "ufunc_dtype", "stands_for", "binds"]

_EMPTY: dict = {}

_EXAMPLE_X = "np.array([0.25, 0.5, 0.75])"
_EXAMPLE_Y = "np.array([1.5, -0.5, 2.0])"


def unary(prim: Any, *numpy_ufuncs: Any, example: str = _EXAMPLE_X) -> Callable[[ArrayLike], Array]:
    """The ``funcgrad.numpy`` function of the unary elementwise primitive ``prim``
    (``example``: arguments in its domain, for the docstring)."""
    name = _numpy_name(prim, numpy_ufuncs)
    ufunc = numpy_ufuncs[0]

    def f(x: ArrayLike, /, out: Any = None, where: Any = True, casting: str = SAME_KIND,
          order: str = ORDER_K, dtype: DTypeLike | None = None, subok: bool = True,
          signature: Any = None) -> Array:
        # (keywords as parameters with defaults, not **kwargs: the positional call keeps
        # CPython's specialised call of a function with defaults; **kwargs would cost ~0.1 us)
        if out is not None or where is not True or dtype is not None or \
                casting is not SAME_KIND or order is not ORDER_K or subok is not True or \
                signature is not None:
            return call_with_keywords(ufunc, f, (x,), out, where, casting, order, dtype,
                                      subok, signature)
        t = type(x)
        if t in _tracer_classes:  # the current interpreter of its thread (Interpreter.local)
            return x._trace.local["interpreter"].process1(prim, x)
        if t not in _special_classes:
            x = operand(x)
        return _state.interpreter.process(prim, (x,), _EMPTY)
    return _declare(f, prim, numpy_ufuncs, f"""Elementwise ``np.{name}``, {_kind(prim)}.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> x = {example}
    >>> np.allclose(fnp.{prim.name}(x), np.{name}(x))
    True
    """)


def binary(prim: Any, *numpy_ufuncs: Any, examples: tuple[str, str] = (_EXAMPLE_X, _EXAMPLE_Y)
           ) -> Callable[[ArrayLike, ArrayLike], Array]:
    """The ``funcgrad.numpy`` function of the binary elementwise primitive ``prim``
    (``examples``: arguments in its domain, for the docstring)."""
    name = _numpy_name(prim, numpy_ufuncs)
    ufunc = numpy_ufuncs[0]

    def f(x1: ArrayLike, x2: ArrayLike, /, out: Any = None, where: Any = True,
          casting: str = SAME_KIND, order: str = ORDER_K, dtype: DTypeLike | None = None,
          subok: bool = True, signature: Any = None) -> Array:
        if out is not None or where is not True or dtype is not None or \
                casting is not SAME_KIND or order is not ORDER_K or subok is not True or \
                signature is not None:
            return call_with_keywords(ufunc, f, (x1, x2), out, where, casting, order, dtype,
                                      subok, signature)
        return _state.interpreter.process(prim, (operand(x1), operand(x2)), _EMPTY)
    return _declare(f, prim, numpy_ufuncs, f"""Elementwise ``np.{name}`` with broadcasting,
    {_kind(prim)}.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> x, y = {examples[0]}, {examples[1]}
    >>> np.allclose(fnp.{prim.name}(x, y), np.{name}(x, y))
    True
    """)


def _kind(prim):
    """How the docstring says what the derivative is."""
    return "differentiable" if prim.differentiable else "on integers and booleans (no derivative)"


def _numpy_name(prim, numpy_ufuncs):
    if not numpy_ufuncs:
        raise TypeError(f"{prim.name}: name the NumPy ufunc(s) this function stands for")
    return numpy_ufuncs[0].__name__


def _declare(f, prim, numpy_ufuncs, doc):
    f.__signature__ = presented_signature(("x",) if numpy_ufuncs[0].nin == 1 else ("x1", "x2"),
                                          Array)
    f.__name__ = f.__qualname__ = prim.name
    f.__module__ = "funcgrad.numpy.ufuncs"  # (where each is declared, on one line: the docs
    f.__doc__ = doc                          # and the doctests look for it there)
    f.primitive = prim
    f.numpy_ufuncs = numpy_ufuncs
    return f


def ufunc_dtype(ufunc: Any, *operands: Any) -> Any:
    """The dtype NumPy's ``ufunc`` gives for ``operands`` (Python numbers, and traced
    values standing for them, weakly typed), asked of NumPy on empty arrays: for ufuncs
    whose loops are float-only (``fabs`` of integers is float64, of int8 float16).

    >>> import numpy as np
    >>> ufunc_dtype(np.fabs, np.ones(2, np.int8))
    dtype('float16')
    >>> ufunc_dtype(np.heaviside, np.ones(2, np.float32), 0.5)
    dtype('float32')
    """
    probes = [x if isinstance(x, (bool, int, float, complex)) else
              x.dtype.type(0).item() if getattr(x, "weak", False) else
              _np.empty(0, getattr(x, "dtype", None) or _np.asarray(x).dtype)
              for x in operands]
    out = ufunc(*probes)
    return _np.asarray(out[0] if isinstance(out, tuple) else out).dtype


def stands_for(*numpy_ufuncs):
    """Mark a composite as what ``numpy_ufuncs`` dispatch to on traced values; one that
    stands for an elementwise ufunc takes its keywords too (``out=``, ``dtype=``...)."""
    def mark(f):
        if numpy_ufuncs[0].signature is None:  # (not generalized: matmul, vecdot...)
            f = _with_keywords(numpy_ufuncs[0], f)
        f.numpy_ufuncs = numpy_ufuncs
        return f
    return mark


def _with_keywords(ufunc, composite):
    """``composite`` taking ``ufunc``'s keywords: one more call on the positional path
    (a composite binds several primitives: that call is a small part of its cost)."""
    if ufunc.nin == 1:
        def f(x, /, out=None, where=True, casting=SAME_KIND, order=ORDER_K, dtype=None,
              subok=True, signature=None):
            if out is not None or where is not True or dtype is not None or \
                    casting is not SAME_KIND or order is not ORDER_K or subok is not True or \
                    signature is not None:
                return call_with_keywords(ufunc, composite, (x,), out, where, casting, order,
                                          dtype, subok, signature)
            return composite(x)
    else:
        def f(x1, x2, /, out=None, where=True, casting=SAME_KIND, order=ORDER_K, dtype=None,
              subok=True, signature=None):
            if out is not None or where is not True or dtype is not None or \
                    casting is not SAME_KIND or order is not ORDER_K or subok is not True or \
                    signature is not None:
                return call_with_keywords(ufunc, composite, (x1, x2), out, where, casting,
                                          order, dtype, subok, signature)
            return composite(x1, x2)
    functools.update_wrapper(f, composite)
    del f.__wrapped__  # (its signature is f's own: the keywords are there)
    shown = inspect.signature(composite)
    f.__signature__ = presented_signature(list(shown.parameters), shown.return_annotation)
    return f


def binds(prim):
    """Mark a function with a signature of its own as the front of elementwise ``prim``."""
    def mark(f):
        f.primitive = prim
        return f
    return mark
