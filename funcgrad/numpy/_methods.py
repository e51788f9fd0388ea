"""Array behaviour for traced values: operators, methods, ``.at`` and the NumPy
protocols (``__array_ufunc__``, ``__array_function__``) that route plain
``numpy`` calls to :mod:`funcgrad.numpy`."""
import numpy as np

from ..core import ConcretizationError, _state, concrete
from ..primitives import elementwise as ew
from ..primitives import indexing as ix

_EMPTY = {}


def _fnp():
    from .. import numpy as fnp
    return fnp


from ._convert import operand as _operand  # noqa: E402


# --- NumPy protocols ---------------------------------------------------------------------------

_UFUNC_NAMES = {
    "absolute": "abs", "fabs": "abs", "true_divide": "divide", "remainder": "mod",
    "conjugate": "conj",
}
_REDUCERS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
             "logical_and": "all", "logical_or": "any"}
_ACCUMULATORS = {"add": "cumsum", "multiply": "cumprod"}


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    fnp = _fnp()
    out = kwargs.pop("out", None)
    if out is not None and any(o is not None for o in (out if isinstance(out, tuple) else (out,))):
        raise TypeError(f"numpy.{ufunc.__name__}(..., out=...) would write into an array, but "
                        "arrays traced by funcgrad are immutable. Use the returned value: "
                        "y = np.{0}(...) instead of np.{0}(..., out=y).".format(ufunc.__name__))
    if kwargs.pop("where", True) is not True:
        raise TypeError(f"numpy.{ufunc.__name__}(..., where=...) is not supported on traced "
                        "arrays; select with np.where(mask, a, b) afterwards")
    dtype = kwargs.pop("dtype", None)
    for k in ("casting", "order", "subok", "signature"):
        kwargs.pop(k, None)
    name = _UFUNC_NAMES.get(ufunc.__name__, ufunc.__name__)
    if method == "__call__":
        fn = getattr(fnp, name, None)
        if fn is None or kwargs:
            raise TypeError(_unsupported(f"numpy.{ufunc.__name__}", kwargs))
        result = fn(*inputs)
    elif method == "reduce" and name in _REDUCERS:
        result = getattr(fnp, _REDUCERS[name])(inputs[0], axis=kwargs.pop("axis", 0),
                                               keepdims=kwargs.pop("keepdims", False))
    elif method == "accumulate" and name in _ACCUMULATORS:
        result = getattr(fnp, _ACCUMULATORS[name])(inputs[0], axis=kwargs.pop("axis", 0))
    else:
        raise TypeError(_unsupported(f"numpy.{ufunc.__name__}.{method}", {}))
    return result if dtype is None else fnp.astype(result, dtype)


def _unsupported(what, kwargs):
    extra = f" with arguments {sorted(kwargs)}" if kwargs else ""
    return (f"{what}{extra} is not supported on arrays traced by funcgrad. The supported NumPy "
            "functions are those in funcgrad.numpy (see funcgrad.numpy.__all__); rewrite the "
            "computation with them, or give it its own derivative with fg.custom_vjp.")


_FUNCTIONS = None


def _function_table():
    global _FUNCTIONS
    if _FUNCTIONS is None:
        fnp = _fnp()
        table = {}
        # (NumPy's own functions that funcgrad.numpy re-exports -- linspace, meshgrid,
        # result_type... -- are left out: mapped to themselves, they would dispatch back
        # here forever; on traced values they raise the "not supported" error instead)
        for name in fnp.__all__:
            ours = getattr(fnp, name)
            theirs = getattr(np, name, None)
            if callable(ours) and callable(theirs) and not isinstance(theirs, type) \
                    and ours is not theirs:
                table[theirs] = ours
        for name in fnp.linalg.__all__:
            theirs = getattr(np.linalg, name, None)
            if theirs is not None and getattr(fnp.linalg, name) is not theirs:
                table[theirs] = getattr(fnp.linalg, name)
        table[np.round] = table[np.around] = fnp.round
        _FUNCTIONS = table
    return _FUNCTIONS


def _array_function(self, func, types, args, kwargs):
    fn = _function_table().get(func)
    if fn is None:
        raise TypeError(_unsupported(f"numpy.{getattr(func, '__name__', func)}", {}))
    return fn(*args, **kwargs)


def _array(self, dtype=None, copy=None):
    if not self._trace.active and self._trace.outlives:  # e.g. a dual value after its level
        return np.asarray(concrete(self), dtype=dtype)
    self._check_alive()  # an escaped tracer: EscapedTracerError naming its transform
    if self.dtype.kind in "iub":  # no derivative to lose: the concrete value, if one exists
        try:
            return np.asarray(concrete(self), dtype=dtype)
        except ConcretizationError as e:
            reason = e
        raise TypeError(
            f"a traced {self.dtype} array (an index or a mask computed under vmap or jit) "
            f"cannot be turned into a plain NumPy array: its values are a batch, or not known "
            f"yet. This happens when a plain NumPy array is indexed by it (a[i]), which NumPy "
            f"does without asking funcgrad. Index through funcgrad instead: fnp.take(a, i, "
            f"axis=...) or fnp.at(a)[i].get().") from reason
    raise TypeError(
        "a value traced by funcgrad cannot be turned into a plain NumPy array: that would "
        "silently drop its derivative. This happens with np.array/np.asarray of a traced value, "
        "or a NumPy function given a Python list that holds traced values. Use "
        "funcgrad.numpy.stack/array to build arrays from traced values, or fg.stop_gradient(x) "
        "if the derivative should be dropped.")


# --- operators -----------------------------------------------------------------------------------

def _binary(fn):
    prim = getattr(fn, "primitive", None)
    if prim is not None:  # a primitive: bind it directly (the hot path of x * y)
        def op(self, other):
            if type(other) is not float:
                other = _operand(other)
            return _state.interpreter.process(prim, (self, other), _EMPTY)

        def rop(self, other):
            if type(other) is not float:
                other = _operand(other)
            return _state.interpreter.process(prim, (other, self), _EMPTY)
        return op, rop

    def op(self, other):
        return fn(self, _operand(other))

    def rop(self, other):
        return fn(_operand(other), self)
    return op, rop


def _setitem(self, key, value):
    raise TypeError(
        "arrays traced by funcgrad are immutable, so x[idx] = v is not allowed. Write "
        "x = x.at[idx].set(v) instead (also .add, .multiply, .min, .max).")


def _getitem(self, key):
    return ix.index(self, key)


def _len(self):
    if not self.shape:
        raise TypeError("len() of unsized object (a 0-d array)")
    return self.shape[0]


def _iter(self):
    if not self.shape:
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))


def _bool(self):
    return bool(concrete(self))


def _float(self):
    return float(concrete(self))


def _int(self):
    return int(concrete(self))


def _index(self):
    value = concrete(self)
    if np.asarray(value).dtype.kind not in "iu":
        raise TypeError(f"only integer arrays can be used as an index, not {self.dtype}")
    return int(value)


def _item(self, *args):
    return np.asarray(concrete(self)).item(*args)


def _tolist(self):
    return np.asarray(concrete(self)).tolist()


def _floordiv(x, y):
    return _fnp().floor_divide(x, y)


def _matmul(x, y):
    return _fnp().matmul(x, y)


def _and(x, y):
    return ew.logical_and(x, y)


def _or(x, y):
    return ew.logical_or(x, y)


def _xor(x, y):
    return ew.logical_xor(x, y)


def _invert(self):
    if self.dtype.kind != "b":
        raise TypeError("~ is only supported on boolean arrays (logical not)")
    return ew.logical_not(self)


# --- methods ---------------------------------------------------------------------------------------

def _method(name):
    def method(self, *args, **kwargs):
        return getattr(_fnp(), name)(self, *args, **kwargs)
    method.__name__ = name
    return method


def _reshape_method(self, *shape, order="C"):
    if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
        shape = shape[0]
    return _fnp().reshape(self, shape, order=order)


def _transpose_method(self, *axes):
    if len(axes) == 1 and not isinstance(axes[0], (int, np.integer)):
        axes = axes[0]
    return _fnp().transpose(self, axes or None)


def _sort_method(self, *args, **kwargs):
    raise TypeError("x.sort() sorts in place, and traced arrays are immutable; use "
                    "x = np.sort(x) (or fnp.sort) instead")


class IndexUpdateHelper:
    """``x.at[idx]``: functional index updates (``set``, ``add``, ``multiply``,
    ``divide``, ``power``, ``min``, ``max``, ``get``), each returning a new array and
    differentiable.

    Where indices repeat, ``set`` keeps the last write (as NumPy's ``x[idx] = v``) and
    ``add``/``multiply``/``min``/``max`` apply every update (as ``np.add.at`` and friends);
    ``divide`` and ``power`` need distinct indices and say so otherwise.

    >>> import numpy as np, funcgrad as fg
    >>> fg.grad(lambda x: x.at[np.array([0, 0])].add(x[1]).sum())(np.ones(2))
    array([1., 3.])
    """

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, idx):
        return IndexUpdateRef(self.array, idx)


class IndexUpdateRef:
    __slots__ = ("array", "idx")

    def __init__(self, array, idx):
        self.array = array
        self.idx = idx

    def _update(self, values, mode):
        x = self.array
        spec, arrays = ix.normalize_index(self.idx, x.shape)
        values = _operand(values)
        if getattr(values, "dtype", x.dtype) != x.dtype and x.dtype.kind == "f":
            values = _fnp().astype(values, x.dtype)
        return ix.scatter(x, values, arrays, spec, mode)

    def _elementwise(self, fn, values, what):
        spec, arrays = ix.normalize_index(self.idx, self.array.shape)
        if ix.repeats(self.array.shape, spec, arrays):
            raise ValueError(f"x.at[idx].{what}(v) needs distinct indices, and this index "
                             f"reaches an element more than once. Combine the updates of "
                             f"each position first, or use .multiply (repeats combine).")
        return self.set(fn(self.get(), _operand(values)))

    def get(self):
        return ix.index(self.array, self.idx)  # plain arrays with traced indices too

    def set(self, values):
        return self._update(values, "set")

    def add(self, values):
        return self._update(values, "add")

    def multiply(self, values):
        return self._update(values, "multiply")

    def divide(self, values):
        return self._elementwise(ew.divide, values, "divide")

    def power(self, values):
        return self._elementwise(ew.power, values, "power")

    def min(self, values):
        return self._update(values, "min")

    def max(self, values):
        return self._update(values, "max")


def _at(self):
    return IndexUpdateHelper(self)


def attach_array_methods(cls):
    """Give ``cls`` (tracers, the eager Tensor) NumPy's operators and methods."""
    fnp = _fnp()
    ops = {
        "add": ew.add, "sub": ew.subtract, "mul": ew.multiply, "truediv": ew.divide,
        "pow": ew.power, "mod": ew.mod, "floordiv": _floordiv, "matmul": _matmul,
        "and": _and, "or": _or, "xor": _xor,
    }
    for name, fn in ops.items():
        op, rop = _binary(fn)
        setattr(cls, f"__{name}__", op)
        setattr(cls, f"__r{name}__", rop)
    for name, fn in {"lt": ew.less, "le": ew.less_equal, "gt": ew.greater,
                     "ge": ew.greater_equal, "eq": ew.equal, "ne": ew.not_equal}.items():
        setattr(cls, f"__{name}__", _binary(fn)[0])
    cls.__hash__ = None
    cls.__neg__ = lambda self: ew.negative(self)
    cls.__pos__ = lambda self: self
    cls.__abs__ = lambda self: ew.abs(self)
    cls.__invert__ = _invert
    cls.__getitem__ = _getitem
    cls.__setitem__ = _setitem
    cls.__len__ = _len
    cls.__iter__ = _iter
    cls.__bool__ = _bool
    cls.__float__ = _float
    cls.__int__ = _int
    cls.__index__ = _index
    cls.__complex__ = lambda self: complex(concrete(self))
    cls.__array__ = _array
    cls.__array_ufunc__ = _array_ufunc
    cls.__array_function__ = _array_function
    cls.item = _item
    cls.tolist = _tolist
    cls.reshape = _reshape_method
    cls.transpose = _transpose_method
    cls.sort = _sort_method
    cls.T = property(lambda self: fnp.transpose(self))
    cls.mT = property(lambda self: fnp.swapaxes(self, -1, -2))
    cls.real = property(lambda self: self)
    cls.at = property(_at)
    cls.flatten = _method("ravel")
    cls.astype = lambda self, dtype, **kw: fnp.astype(self, dtype)
    cls.copy = lambda self: self
    for name in ("sum", "mean", "prod", "max", "min", "var", "std", "cumsum", "cumprod",
                 "argmax", "argmin", "argsort", "ravel", "squeeze", "swapaxes", "clip", "dot",
                 "round", "repeat", "diagonal", "trace", "all", "any", "conj", "conjugate",
                 "take", "nonzero"):
        setattr(cls, name, _method(name))
