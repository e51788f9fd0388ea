"""The operators, methods and NumPy protocols of :class:`~funcgrad.numpy.ma.MaskedArray`,
attached here because they are the functions of the other modules (which import the
class)."""
import numpy as _np

from .. import ufuncs as _u
from .._methods import defer_operators_to
from ..constructors import astype
from . import _extras, _reductions, _ufuncs
from ._core import MaskedArray, nomask
from ...tree import register_pytree_node

_REDUCTIONS = ("sum", "prod", "product", "cumsum", "cumprod", "mean", "var", "std", "min",
               "max", "ptp", "argmin", "argmax", "argsort", "anom", "all", "any")


def _operator(fn, reflected):
    def op(self, other):
        if getattr(type(other), "__array_ufunc__", True) is None:
            return NotImplemented
        return fn(other, self) if reflected else fn(self, other)
    return op


def _unary(fn):
    def op(self):
        return fn(self)
    return op


def _comparison(compare):
    def op(self, other):
        return _ufuncs._comparison(self, other, compare)
    return op


def _method(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


def _sort_in_place(self, axis=-1, kind=None, order=None, endwith=True, fill_value=None, *,
                   stable=None):
    """Sort in place, as NumPy's method (the entries are rebound; masked ones last)."""
    out = _reductions.sort(self, axis, endwith=endwith, fill_value=fill_value)
    self._data, self._mask = out._data, out._mask


def _ufunc_table():
    """ufunc name -> the masked operation whose ``wrapped`` path NumPy's ufunc takes (the
    domained ones, and the rest made on first use)."""
    table = {}
    for name in dir(_ufuncs):
        fn = getattr(_ufuncs, name)
        if isinstance(fn, (_ufuncs._Unary, _ufuncs._Binary)):
            table[fn.fn.__name__] = fn
    return table


_UFUNCS = _ufunc_table()
_NAMESPACE: dict = {}
_OPERATOR_UFUNCS = {"add": _ufuncs.add, "subtract": _ufuncs.subtract,
                    "multiply": _ufuncs.multiply, "divide": _ufuncs.true_divide,
                    "floor_divide": _ufuncs.floor_divide, "power": _ufuncs.power}


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NumPy's ufuncs on a masked array mask as ``np.ma``'s: a domained ufunc (``np.log``)
    masks outside its domain, any other the union of its inputs' masks; the arithmetic
    ones act as the masked array's operators (``np.add(a, m)`` is ``a + m``)."""
    if method != "__call__" or kwargs.get("out") is not None:
        return NotImplemented
    kwargs.pop("out", None)
    if ufunc.__name__ in _OPERATOR_UFUNCS and len(inputs) == 2:
        # (ndarray - m reaches here: NumPy's own MaskedArray, a subclass, would have
        # answered with its reflected operator, which these keep)
        return _OPERATOR_UFUNCS[ufunc.__name__](*inputs)
    fn = _UFUNCS.get(ufunc.__name__)
    if fn is None:
        ours = getattr(_u, ufunc.__name__, None)
        if ours is None or ufunc.nout != 1 or ufunc.nin > 2:
            return NotImplemented
        fn = (_ufuncs._Unary if ufunc.nin == 1 else _ufuncs._Binary)(ours)
    return fn.wrapped(*inputs, **kwargs)


def _array_function(self, func, types, args, kwargs):
    if func in (_np.shape, _np.ndim, _np.size) and len(args) == 1:
        return func(args[0]._data)
    fn = _NAMESPACE.get(func.__name__)
    if fn is None or not callable(fn):
        raise TypeError(f"numpy.{func.__name__} is not supported on funcgrad's masked arrays: "
                        f"use the funcgrad.numpy.ma function of that name where there is one, "
                        f"or work on x.filled(value) or x.compressed()")
    return fn(*args, **kwargs)


def attach_methods(cls, namespace):
    """Give ``cls`` its operators and methods; NumPy's functions called on it find the
    function of their name in ``namespace`` (funcgrad.numpy.ma's public names)."""
    _NAMESPACE.update(namespace)
    for name, fn in _ufuncs.OPERATORS.items():
        setattr(cls, f"__{name}__", _operator(fn, False))
        setattr(cls, f"__r{name}__", _operator(fn, True))
    for name, compare in _ufuncs.COMPARISONS.items():
        setattr(cls, f"__{name}__", _comparison(compare))
    for name, fn in _ufuncs.UNARY_OPERATORS.items():
        setattr(cls, f"__{name}__", _unary(fn))
    cls.__pos__ = lambda self: self
    cls.__matmul__ = lambda self, other: _extras.dot(self, other)
    cls.__rmatmul__ = lambda self, other: _extras.dot(other, self)
    for name in _REDUCTIONS:
        setattr(cls, name, _method(getattr(_reductions, name)))
    # (NumPy's methods that are funcgrad.numpy.ma functions of the same name)
    for name in ("diagonal", "trace", "squeeze", "swapaxes", "harden_mask", "soften_mask"):
        setattr(cls, name, _method(namespace[name]))
    cls.dot = _method(_extras.dot)
    cls.clip = _method(_extras.clip)
    cls.round = _method(_extras.round_)
    cls.sort = _sort_in_place
    cls.astype = lambda self, dtype: self._same_mask(astype(self._data, dtype), self._mask)
    cls.copy = lambda self: self._same_mask(self._data, self._mask if self._mask is nomask
                                            or not isinstance(self._mask, _np.ndarray)
                                            else self._mask.copy())
    cls.__array_ufunc__ = _array_ufunc
    cls.__array_function__ = _array_function
    defer_operators_to(cls)
    # a pytree (the data and the mask its leaves), so that transforms take and return it
    register_pytree_node(cls, _flatten, _unflatten)


def _flatten(x):
    if x._mask is nomask:
        return (x._data,), (False, x._fill_value, x._hardmask)
    return (x._data, x._mask), (True, x._fill_value, x._hardmask)


def _unflatten(aux, children):
    masked_, fill_value, hard = aux
    out = MaskedArray.__new__(MaskedArray)
    out._data = children[0]
    out._mask = children[1] if masked_ else nomask
    out._fill_value, out._hardmask = fill_value, hard
    return out
