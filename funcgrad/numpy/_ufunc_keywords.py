"""NumPy's ufunc keywords on ``funcgrad.numpy``'s elementwise functions: ``out=``,
``where=``, ``casting=``, ``order=``, ``dtype=``, ``subok=`` and ``signature=``.

An elementwise function takes them as NumPy's ufunc does, and only a call that gives one
comes here (the positional call is the hot path: see
:func:`funcgrad.numpy._ufunc_wrappers.unary`).

- ``dtype=``/``signature=`` choose the loop as NumPy does (``ufunc.resolve_dtypes``, which
  refuses a cast that ``casting=`` does not allow, with NumPy's own error): the inputs are
  cast to the loop's dtypes (differentiably) and the function computes in them;
- ``out=`` writes into a plain NumPy array and returns it.  A traced value cannot be
  written into one (its derivative would be dropped) and is immutable itself: that raises a
  TypeError naming the rewrite ``y = f(x)``, as jax.numpy refuses ``out=``;
- ``where=`` keeps ``out``'s values where it is False.  Without ``out=`` NumPy leaves those
  elements uninitialised (and warns): funcgrad refuses, naming ``out=`` and ``fnp.where``;
- ``order=`` and ``subok=`` cannot change values (memory layout, subclasses): checked as
  NumPy checks them, then ignored.
"""
import inspect
from typing import Any

import numpy as np

from ..kernels._broadcast import broadcast_shapes
from ._convert import OUT_TYPES, asarray, operand, out_type_error, write_out
from .constructors import astype
from ..typing import ArrayLike, DTypeLike

# NumPy's defaults, compared by identity on the fast path (a keyword given with the default
# value, casting="same_kind", just takes this slower path to the same answer)
SAME_KIND = "same_kind"
ORDER_K = "K"

_PLAIN = (np.ndarray, np.generic, bool, int, float, complex)

_P = inspect.Parameter
_KEYWORDS = [_P("out", _P.KEYWORD_ONLY, default=None, annotation=Any),
             _P("where", _P.KEYWORD_ONLY, default=True, annotation=Any),
             _P("casting", _P.KEYWORD_ONLY, default=SAME_KIND, annotation=str),
             _P("order", _P.KEYWORD_ONLY, default=ORDER_K, annotation=str),
             _P("dtype", _P.KEYWORD_ONLY, default=None, annotation=DTypeLike | None),
             _P("subok", _P.KEYWORD_ONLY, default=True, annotation=bool),
             _P("signature", _P.KEYWORD_ONLY, default=None, annotation=Any)]


def presented_signature(operands, return_annotation):
    """The signature an elementwise function shows (``inspect.signature``, the docs, and
    ``custom_vjp``/``checkpoint``, which fill in the defaults of positional parameters):
    its operands by position, NumPy's keywords by keyword.  (Its ``def`` takes them by
    position too, where CPython's call of a function with defaults is fastest, and NumPy's
    ``out`` may come second.)"""
    return inspect.Signature([_P(name, _P.POSITIONAL_ONLY, annotation=ArrayLike)
                              for name in operands] + _KEYWORDS,
                             return_annotation=return_annotation)


def call_with_keywords(ufunc, fn, inputs, out=None, where=True, casting=SAME_KIND,
                       order=ORDER_K, dtype=None, subok=True, signature=None, *, label=None):
    """``fn(*inputs)`` as ``ufunc(*inputs, out=..., where=..., ...)`` computes it
    (``label``: the function the errors name, ``fnp.<name>`` by default)."""
    nin, nout = ufunc.nin, ufunc.nout
    label = label or f"fnp.{ufunc.__name__}"
    inputs = [operand(x) for x in inputs]
    outs = _outputs(ufunc, out, label)
    # NumPy's own checks of the keywords, on empty arrays of the inputs' dtypes: its errors
    # for a bad casting=/order=/subok=, dtype= with signature=, a refused cast, an integer
    # that does not fit the loop's type
    given = {k: v for k, v in (("dtype", dtype), ("signature", signature)) if v is not None}
    ufunc(*[_probe(x) for x in inputs], casting=casting, order=order, subok=subok, **given)
    if dtype is not None:
        signature = (None,) * nin + (np.dtype(dtype),) * nout
    loop = ufunc.resolve_dtypes(
        tuple(_loop_operand(x) for x in inputs) + tuple(None if o is None else o.dtype
                                                        for o in outs),
        casting=casting, **({} if signature is None else {"signature": signature}))
    inputs = [_cast(x, d) for x, d in zip(inputs, loop[:nin])]
    if where is not True and any(o is None for o in outs):
        raise TypeError(f"{ufunc.__name__}(..., where=mask) without out= leaves the elements "
                        f"where mask is False uninitialised (NumPy warns); pass out= (the "
                        f"array whose values stay there), or write fnp.where(mask, "
                        f"{label}(...), fill)")
    results = fn(*inputs)
    results = results if nout > 1 else (results,)
    results = tuple(r if getattr(r, "dtype", None) == d else astype(r, d)
                    for r, d in zip(results, loop[nin:]))
    if all(o is None for o in outs):
        return results if nout > 1 else results[0]
    shapes = [np.shape(x) for x in inputs]
    for result, o in zip(results, outs):
        if o is not None:
            _write(ufunc, o, result, where, shapes, label)
    written = tuple(o if o is not None else r for o, r in zip(outs, results))
    return written if nout > 1 else written[0]


def _outputs(ufunc, out, label):
    """``out=`` as a tuple of one entry per output (None: a new array), checked as NumPy."""
    if out is None:
        return (None,) * ufunc.nout
    if isinstance(out, tuple):
        if len(out) != ufunc.nout:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    elif ufunc.nout > 1:
        raise TypeError("'out' must be a tuple of arrays")
    else:
        out = (out,)
    for o in out:
        if o is not None and type(o) not in OUT_TYPES:
            raise out_type_error(ufunc.__name__, o, label)
    return out


def _number(x):
    """Whether ``x`` is a Python number (np.float64 is a float too, but typed strongly)."""
    return isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic)


def _probe(x):
    if _number(x):
        return x
    if getattr(x, "weak", False):  # a traced Python number: as NumPy takes a number
        return x.dtype.type(0).item()
    return np.empty(0, x.dtype)


def _loop_operand(x):
    """What ``ufunc.resolve_dtypes`` takes for ``x``: Python's int, float or complex for a
    number (weakly typed, NEP 50), else its dtype."""
    if isinstance(x, bool):
        return np.dtype(bool)
    if _number(x):
        return type(x)
    if getattr(x, "weak", False):
        return {"b": np.dtype(bool), "i": int, "u": int, "f": float, "c": complex}[x.dtype.kind]
    return x.dtype


def _cast(x, dtype):
    if _number(x):
        return np.asarray(x, dtype)[()]  # (NumPy's OverflowError for 300 in int8 came first)
    return x if x.dtype == dtype and not getattr(x, "weak", False) else astype(x, dtype)


def _write(ufunc, out, result, where, shapes, label):
    if not isinstance(result, _PLAIN) or not isinstance(where, _PLAIN + (list, tuple)):
        raise TypeError(
            f"{ufunc.__name__}(..., out=y) would write a traced value (one that carries a "
            f"derivative, or is not known yet) into the plain array y, which drops it; use the "
            f"returned value: y = {label}(...)"
            + ("" if where is True else f", and fnp.where(mask, {label}(...), y) for "
               f"where=mask"))
    try:
        shape = broadcast_shapes(*shapes, out.shape)
    except ValueError:
        raise ValueError("operands could not be broadcast together with shapes "
                         + " ".join(str(s).replace(" ", "") for s in shapes + [out.shape])
                         + " ") from None
    if shape != out.shape:
        raise ValueError(f"non-broadcastable output operand with shape "
                         f"{str(out.shape).replace(' ', '')} doesn't match the broadcast shape "
                         f"{str(shape).replace(' ', '')}")
    # (the output cast was checked under casting= when the loop was chosen)
    np.copyto(out, result, casting="unsafe", where=True if where is True else where)


def gufunc_keywords(ufunc, fn, x1, x2, out, dtype, casting, order, subok, signature):
    """``fn(x1, x2)`` as the generalized ufunc ``ufunc`` computes it with NumPy's keywords:
    the loop NumPy resolves (``dtype=``/``signature=``, refused casts in its own words), the
    operands cast to it, the result written into a plain ``out=``.  (``order=`` and
    ``subok=`` cannot change values: checked by NumPy on empty operands, then ignored.)"""
    x1, x2 = asarray(x1), asarray(x2)
    if dtype is not None:
        signature = (None, None, np.dtype(dtype))
    ufunc(np.empty((1,) * 2, x1.dtype), np.empty((1,) * 2, x2.dtype), order=order,
          subok=subok, casting=casting, **({} if signature is None else {"signature": signature}))
    written = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    loop = ufunc.resolve_dtypes(  # (out's dtype too: NumPy's error for a refused cast)
        (x1.dtype, x2.dtype, written.dtype if type(written) is np.ndarray else None),
        casting=casting, **({} if signature is None else {"signature": signature}))
    result = fn(x1 if x1.dtype == loop[0] else astype(x1, loop[0]),
                x2 if x2.dtype == loop[1] else astype(x2, loop[1]))
    result = result if result.dtype == loop[2] else astype(result, loop[2])
    return result if out is None else write_out(ufunc.__name__, out, result, casting)
