"""Array behaviour for traced values: operators, methods, ``.at`` and the NumPy
protocols (``__array_ufunc__``, ``__array_function__``) that route plain
``numpy`` calls to :mod:`funcgrad.numpy`."""
import functools
import inspect
import sys

import numpy as np

from ..core import ConcretizationError, Tracer, _special_classes, _state, concrete, is_weak
from ..primitives import elementwise as ew
from ..primitives import indexing as ix
from ..primitives.structural import as_weak
from . import (bits, building, complexfuncs, constructors, emath, fft, floatfuncs, functional,
               histograms, indexing, indextricks, inout, iteration, linalg, stride_tricks,
               manipulation, memory, nanfunctions, padding, polynomial, products, queries, ranges,
               reductions, searching, sets, signal, statistics, ufuncs)
from ._conversions import carried_derivative, derivative_dropped
from ._numpy_calls import NOT_DIFFERENTIABLE, not_differentiable, numpy_call, numpy_fix
from ._scipy_calls import scipy_call, scipy_fix
from . import _ufunc_methods
from ._convert import operand as _operand
from ._ufunc_keywords import call_with_keywords

_EMPTY: dict = {}

# The modules whose ``__all__`` make up ``funcgrad.numpy`` (with ``linalg``).
_FAMILIES = (constructors, ufuncs, manipulation, padding, reductions, indexing, products, ranges,
             statistics, histograms, nanfunctions, signal, polynomial, building, floatfuncs, complexfuncs,
             searching, sets, indextricks, functional)


# --- NumPy protocols ---------------------------------------------------------------------------

def _ufunc_table():
    """NumPy ufunc -> the ``funcgrad.numpy`` function that stands for it, as each function
    declares (``numpy_ufuncs``, see :mod:`funcgrad.numpy.ufuncs`)."""
    table = {}
    for module in _FAMILIES:
        for name in module.__all__:
            fn = getattr(module, name)
            for ufunc in getattr(fn, "numpy_ufuncs", ()):
                if table.setdefault(ufunc, fn) is not fn:
                    raise AssertionError(f"numpy.{ufunc.__name__} is claimed by both "
                                         f"{table[ufunc].__name__} and {fn.__name__}")
    return table


UFUNCS = _ufunc_table()
_REDUCERS = {np.add: reductions.sum, np.multiply: reductions.prod, np.maximum: reductions.max,
             np.minimum: reductions.min, np.logical_and: reductions.all,
             np.logical_or: reductions.any}
_ACCUMULATORS = {np.add: reductions.cumsum, np.multiply: reductions.cumprod}
_SELECTING_REDUCERS = (np.add, np.multiply, np.maximum, np.minimum)  # (take where=, initial=)


_UFUNC_RESOLVERS: list = []  # functions ufunc -> funcgrad function or None (another library's)


def register_ufunc_resolver(resolve):
    """Let the ufuncs of another library reach funcgrad on traced values:
    ``resolve(ufunc)`` returns the function standing for a ufunc it knows (then
    remembered in ``UFUNCS``), else None.  ``funcgrad`` registers SciPy's special functions
    this way, without importing SciPy."""
    _UFUNC_RESOLVERS.append(resolve)


def _resolve_ufunc(ufunc):
    for resolve in _UFUNC_RESOLVERS:
        fn = resolve(ufunc)
        if fn is not None:
            UFUNCS[ufunc] = fn
            return fn
    return None


def _ufunc_label(ufunc):
    """``scipy.special.jv`` for one of SciPy's ufuncs (when SciPy is loaded; its private
    ones, behind a Python function such as ``lambertw``, by their module), else
    ``numpy.<name>``."""
    name = getattr(ufunc, "__name__", repr(ufunc))
    for module in ("scipy.special", "scipy.special._ufuncs", "scipy.special._special_ufuncs"):
        if getattr(sys.modules.get(module), name, None) is ufunc:
            return f"{module}.{name}"
    return f"numpy.{name}"


def _ufunc_keywords(ufunc, kwargs):
    """Check and remove the ufunc keywords traced arrays allow; returns ``dtype``."""
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
    return dtype


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    if not kwargs and method == "__call__":  # np.tanh(x), x @ w: the commonest call,
        fn = UFUNCS.get(ufunc)                # past the keyword handling below
        if fn is not None:
            return fn(*inputs)
    if kwargs and method == "__call__" and ufunc.signature is None:  # elementwise, keywords
        fn = UFUNCS.get(ufunc)
        if fn is None:
            fn = _resolve_ufunc(ufunc)
        if fn is None:
            raise TypeError(_unsupported(_ufunc_label(ufunc), kwargs))
        label = _ufunc_label(ufunc)  # (what the errors name: scipy.special.gammaln, fnp.sin)
        return call_with_keywords(ufunc, fn, inputs, **kwargs,
                                  label=None if label.startswith("numpy.") else label)
    if method != "__call__" and ufunc not in UFUNCS:  # (scipy.special.beta.outer(x, y))
        _resolve_ufunc(ufunc)
    # where= and initial= of a reduction select and seed what it combines (np.sum(x,
    # where=m) arrives here as np.add.reduce, also when only the mask is traced)
    selection = {k: kwargs.pop(k) for k in ("where", "initial")
                 if method == "reduce" and k in kwargs and ufunc in _SELECTING_REDUCERS}
    dtype = _ufunc_keywords(ufunc, kwargs) if kwargs else None  # (np.sin(x), x * y: none)
    if method == "__call__":
        fn = UFUNCS.get(ufunc)
        if fn is None:
            fn = _resolve_ufunc(ufunc)
        # (without axes=/axis=/keepdims= the core dimensions are already last, where fn
        # takes them: ``x @ w`` with a plain x arrives here, and moving its axes nowhere
        # cost a fifth of a small MLP's gradient)
        if fn is not None and ufunc.signature and kwargs \
                and kwargs.keys() <= {"axes", "axis", "keepdims"}:
            result = _ufunc_methods.with_core_axes(ufunc, fn, inputs, **kwargs)  # (vecdot...)
        elif fn is None or kwargs:
            raise TypeError(_unsupported(_ufunc_label(ufunc), kwargs))
        else:
            result = fn(*inputs)
    elif method == "reduce" and ufunc in _REDUCERS:
        if ufunc in _ACCUMULATORS:  # sum and prod compute in dtype=, not just cast to it
            selection["dtype"], dtype = dtype, None
        result = _REDUCERS[ufunc](inputs[0], axis=kwargs.pop("axis", 0),
                                  keepdims=kwargs.pop("keepdims", False), **selection)
    elif method == "accumulate" and ufunc in _ACCUMULATORS:
        result = _ACCUMULATORS[ufunc](inputs[0], axis=kwargs.pop("axis", 0), dtype=dtype)
        dtype = None
    elif method in ("outer", "reduce", "accumulate") and UFUNCS.get(ufunc) is not None \
            and kwargs.keys() <= ({"axis", "keepdims"} if method == "reduce" else
                                  {"axis"} if method == "accumulate" else set()):
        result = getattr(_ufunc_methods, method)(ufunc, UFUNCS[ufunc], *inputs, **kwargs)
    elif method == "reduceat" and UFUNCS.get(ufunc) is not None and kwargs.keys() <= {"axis"}:
        result = _ufunc_methods.reduceat(ufunc, UFUNCS[ufunc], *inputs, **kwargs,
                                         reduce_slice=_REDUCERS.get(ufunc))
    elif method == "at":
        update = {np.add: "add", np.multiply: "multiply", np.minimum: "min",
                  np.maximum: "max"}.get(ufunc)
        raise TypeError(f"numpy.{ufunc.__name__}.at writes into its array argument, and "
                        f"arrays traced by funcgrad are immutable; use the returned copy of "
                        + (f"a = a.at[indices].{update}(b)" if update else
                           f"a = a.at[indices].set(np.{ufunc.__name__}(a[indices], ...)) "
                           f"(indices without repeats)"))
    else:
        raise TypeError(_unsupported(f"numpy.{ufunc.__name__}.{method}", {}))
    return result if dtype is None else constructors.astype(result, dtype)


_ufunc_methods.attach(UFUNCS, _array_ufunc)  # fnp.add.reduce(x), fnp.multiply.outer(a, b)...


# NumPy's public namespaces, to name a function that is not np.<name> (np.emath.sqrt is not
# np.sqrt), and what to say of some of them
_NAMESPACES = ("linalg", "fft", "emath", "lib.stride_tricks", "char", "strings", "rec", "ma")
_NAMESPACE_HINTS: dict = {}


def _numpy_name(func):
    name = getattr(func, "__name__", repr(func))
    if getattr(np, name, None) is func:
        return f"numpy.{name}"
    for namespace in _NAMESPACES:
        module = np
        for part in namespace.split("."):
            module = getattr(module, part, None)
        if getattr(module, name, None) is func:
            return f"numpy.{namespace}.{name}" + _NAMESPACE_HINTS.get(namespace, "")
    return f"{getattr(func, '__module__', 'numpy')}.{name}"


def _unsupported(what, kwargs):
    if what.startswith("numpy.") and what[6:] in NOT_DIFFERENTIABLE or what.startswith(
            ("numpy.char.", "numpy.strings.", "numpy.rec.", "numpy.testing.")):
        return not_differentiable(what)
    extra = f" with arguments {sorted(kwargs)}" if kwargs else ""
    call = scipy_call()
    if call is not None:  # (met inside SciPy's code: name what the user called)
        return (f"{call.function} calls {what}{extra}, which is not supported on arrays "
                f"traced by funcgrad. " + scipy_fix(call))
    if what.startswith("scipy.special."):
        return (f"{what}{extra} is not supported on arrays traced by funcgrad: "
                "funcgrad.scipy.special has the differentiable special functions (see its "
                "__all__); rewrite the computation with them, or give it its own derivative "
                "with fg.custom_vjp.")
    return (f"{what}{extra} is not supported on arrays traced by funcgrad. The supported NumPy "
            "functions are those in funcgrad.numpy (see funcgrad.numpy.__all__); rewrite the "
            "computation with them, or give it its own derivative with fg.custom_vjp.")


def _build_function_table(namespaces=None):
    """NumPy function -> the ``funcgrad.numpy`` function of the same name.

    (NumPy's own functions that funcgrad.numpy re-exports -- linspace, meshgrid... -- are
    left out: mapped to themselves, they would dispatch back here forever; on traced values
    they raise the "not supported" error instead.)"""
    table = {}
    if namespaces is None:
        namespaces = [(module, np) for module in _FAMILIES] + [
            (linalg, np.linalg), (fft, np.fft), (emath, np.emath),
            (stride_tricks, np.lib.stride_tricks)]
    for ours_ns, theirs_ns in namespaces:
        for name in ours_ns.__all__:
            ours = getattr(ours_ns, name)
            theirs = getattr(theirs_ns, name, None)
            if not (callable(ours) and callable(theirs)) or isinstance(theirs, type) \
                    or ours is theirs:
                continue
            # NumPy's aliases (np.permute_dims is np.transpose) go to our function of the
            # NumPy function's own name.
            if theirs not in table or name == theirs.__name__:
                table[theirs] = ours
    return table


_FUNCTIONS = _build_function_table()

# NumPy functions whose funcgrad twins act on traced values only (bits, memory, inout,
# iteration: a write into a traced array or a save of one raises naming the rewrite,
# printing shows the value where known) and call NumPy's own on anything else.  Apart
# from _FUNCTIONS, which the eager Tensor's __array_function__ also reads: for a Tensor
# the twin would call NumPy's function, which would dispatch back to it forever.
_TRACED_ONLY = _build_function_table([(bits, np), (memory, np), (inout, np), (iteration, np)])


def _traced_only_table():
    return _TRACED_ONLY


def _function_table():
    return _FUNCTIONS


def _array_function(self, func, types, args, kwargs):
    fn = _FUNCTIONS.get(func)
    if fn is None:
        fn = queries.ANSWERS.get(func)  # questions about dtypes and memory
    if fn is None:
        fn = _TRACED_ONLY.get(func)  # writes, files, printing, bits
    if fn is None:
        raise TypeError(_unsupported(_numpy_name(func), {}))
    if getattr(fn, "numpy_mutates", False):
        name = fn.__name__
        raise TypeError(f"numpy.{name} writes into its array argument and returns None, but "
                        f"arrays traced by funcgrad are immutable. Use the returned copy: "
                        f"a = funcgrad.numpy.{name}(a, ...) (or a = a.at[idx].set(v)).")
    if kwargs and not _INERT_NAMES.isdisjoint(kwargs):  # (axis=, keepdims=: none to drop)
        kwargs = _without_inert_keywords(func, fn, kwargs)
    return fn(*args, **kwargs)


# NumPy keywords that cannot change the values of a result made from immutable traced
# arrays (where it is written to, its memory layout, whether it is a copy, a subclass, on
# the CPU), with the values that say so: dropped where funcgrad's function has no such
# parameter, so that np.cumsum(x, out=None) or np.reshape(x, s, copy=False) run.
_INERT = {"out": (None,), "order": ("K", "A", "C", "F"), "subok": (True, False),
          "copy": (None, True, False), "device": (None, "cpu"), "like": (None,)}
_INERT_NAMES = frozenset(_INERT)


@functools.lru_cache(maxsize=None)
def _parameters(fn):
    try:
        return frozenset(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return frozenset()


def _without_inert_keywords(func, fn, kwargs):
    named = _parameters(fn)
    dropped = [k for k, v in kwargs.items()
               if k in _INERT and k not in named and any(v is d or (isinstance(v, str) and v == d)
                                                          for d in _INERT[k])]
    if kwargs.get("out") is not None:  # (said here, in the words of the NumPy call written)
        raise TypeError(f"numpy.{func.__name__}(..., out=...) would write into an array, but "
                        f"arrays traced by funcgrad are immutable. Use the returned value: "
                        f"y = np.{func.__name__}(...) instead of np.{func.__name__}(..., out=y).")
    return {k: v for k, v in kwargs.items() if k not in dropped} if dropped else kwargs


def _array(self, dtype=None, copy=None):
    if not self._trace.active and self._trace.outlives:  # e.g. a dual value after its level
        return np.asarray(concrete(self), dtype=dtype)
    self._check_alive()  # an escaped tracer: EscapedTracerError naming its transform
    transform = carried_derivative(self)
    # An integer or boolean copy has no derivative to lose (as int(x) and x.astype(int)):
    # np.int64(x), np.asarray(x, dtype=int).
    if transform is not None and (dtype is None or np.dtype(dtype).kind not in "iub"):
        call = numpy_call()  # (NumPy's helpers for plain values: name the one called)
        if call is not None and not call.differentiable:
            raise TypeError(numpy_fix(call))
        raise derivative_dropped(
            "Converting it to a plain NumPy array (np.asarray, np.array, or a NumPy function "
            "given a list holding it)", "a plain NumPy array", transform)
    try:  # no derivative to lose: the concrete value, if one exists
        return np.asarray(concrete(self), dtype=dtype)
    except ConcretizationError as e:
        reason = e
    if self.dtype.kind in "iub":
        raise TypeError(
            f"a traced {self.dtype} array (an index or a mask computed under vmap or jit) "
            f"cannot be turned into a plain NumPy array: its values are a batch, or not known "
            f"yet. This happens when a plain NumPy array is indexed by it (a[i]), which NumPy "
            f"does without asking funcgrad. Index through funcgrad instead: fnp.take(a, i, "
            f"axis=...) or fnp.at(a)[i].get().") from reason
    for find, fix in ((scipy_call, scipy_fix), (numpy_call, numpy_fix)):
        call = find()
        if call is not None:
            raise TypeError(
                f"{call.function} converts its input to a plain NumPy array, which a traced "
                f"value cannot become: under vmap its values are a batch, under jit they are "
                f"not known yet. " + fix(call)) from reason
    raise TypeError(
        "a traced value cannot be turned into a plain NumPy array: under vmap its values are "
        "a batch, under jit they are not known yet. Use funcgrad.numpy functions on it "
        "(np.stack, fnp.array, np.where...), which keep it traced.") from reason


# --- operators -----------------------------------------------------------------------------------

_DEFERRED_TO: tuple = ()  # (funcgrad.numpy.ma's MaskedArray: x * m masks as NumPy's)


def defer_operators_to(cls):
    """Let ``cls``'s reflected operators answer ``x + m`` for a traced ``x``."""
    global _DEFERRED_TO
    _DEFERRED_TO = _DEFERRED_TO + (cls,)


def _defers(other):
    """Whether ``other`` opts out of NumPy's operators (``__array_ufunc__ = None``, as a
    SciPy LinearOperator or a NumPy Polynomial): as an ndarray does, the operator then
    returns NotImplemented, so that Python calls ``other``'s reflected one
    (``s * A`` is ``A.__rmul__(s)``, not an object array)."""
    return getattr(type(other), "__array_ufunc__", True) is None or \
        isinstance(other, _DEFERRED_TO)


def _binary(fn, numeric=False, weak_attr=False, traced=False):
    """``(op, rop)`` of ``fn``.  ``numeric``: an arithmetic operator, whose result on weakly
    typed operands (Python numbers passed to a transform) is weak again, as Python's
    arithmetic on numbers gives a number: ``x * (s * 2.0)`` keeps float32 ``x``'s dtype
    for a Python float ``s``, as in NumPy (where ``np.multiply(s, 2.0)`` is float64).
    ``weak_attr``: the class has a ``weak`` attribute (tracers), read directly; a class
    without one (the eager Tensor, GPU arrays) is never weak.  ``traced``: the class is a
    tracer's, whose interpreter holds its thread's state (``Interpreter.local``)."""
    prim = getattr(fn, "primitive", None)
    numeric_weak = numeric and weak_attr
    if prim is not None:  # a primitive: bind it directly (the hot path of x * y)
        # A Python float or int or a tracer (the usual operands) needs no conversion:
        # skipping operand()'s call saves about a tenth of a recorded operation, and so
        # does finding the current interpreter through the tracer's interpreter (a dict)
        # rather than the threading.local; process2 records without an argument tuple.
        def op(self, other):
            t = type(other)
            if t is not float and t is not int and t not in _special_classes:
                if _defers(other):
                    return NotImplemented
                other = _operand(other)
            if traced:
                out = self._trace.local["interpreter"].process2(prim, self, other)
            else:
                out = _state.interpreter.process(prim, (self, other), _EMPTY)
            if numeric_weak and self.weak and is_weak(other):
                return as_weak(out)
            return out

        def rop(self, other):
            t = type(other)
            if t is not float and t is not int and t not in _special_classes:
                if _defers(other):
                    return NotImplemented
                other = _operand(other)
            if traced:
                out = self._trace.local["interpreter"].process2(prim, other, self)
            else:
                out = _state.interpreter.process(prim, (other, self), _EMPTY)
            if numeric_weak and self.weak and is_weak(other):
                return as_weak(out)
            return out
        return op, rop

    def op(self, other):
        if _defers(other):
            return NotImplemented
        other = _operand(other)
        out = fn(self, other)
        if numeric_weak and self.weak and is_weak(other):
            return as_weak(out)
        return out

    def rop(self, other):
        if _defers(other):
            return NotImplemented
        other = _operand(other)
        out = fn(other, self)
        if numeric_weak and self.weak and is_weak(other):
            return as_weak(out)
        return out
    return op, rop


def _unary(fn, weak_attr=False):
    """The unary operator of ``fn``: weak on a weak operand, as ``_binary``'s."""
    if not weak_attr:
        return fn

    def op(self):
        out = fn(self)
        return as_weak(out) if self.weak else out
    return op


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


def _invert(self):
    return ew.invert(self)  # NumPy's ~: logical not of booleans, bitwise of integers


# --- methods -------------------------------------------------------------------------------------

def _method(name, fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = name
    return method


def _reshape_method(self, *newshape, order="C"):
    if len(newshape) == 1 and not isinstance(newshape[0], (int, np.integer)):
        newshape = newshape[0]
    return manipulation.reshape(self, newshape, order=order)


def _transpose_method(self, *axes):
    if len(axes) == 1 and not isinstance(axes[0], (int, np.integer)):
        axes = axes[0]
    return manipulation.transpose(self, axes or None)


def _sort_method(self, *args, **kwargs):
    raise TypeError("x.sort() sorts in place, and traced arrays are immutable; use "
                    "x = np.sort(x) (or fnp.sort) instead")


def _in_place(name, rewrite):
    """ndarray's methods that write into the array and return None."""
    def method(self, *args, **kwargs):
        raise TypeError(f"x.{name}(...) writes into x, and arrays traced by funcgrad are "
                        f"immutable; use the returned copy instead: {rewrite}")
    method.__name__ = name
    return method


_IN_PLACE = {
    "partition": "x = np.partition(x, kth)", "fill": "x = np.full_like(x, value)",
    "put": "x = fnp.put(x, ind, v)", "resize": "x = np.resize(x, new_shape)",
    "itemset": "x = x.at[idx].set(v)",
}


def _compress_method(self, condition, axis=None, out=None):
    return building.compress(condition, self, axis=axis, out=out)


def _at(self):
    return indexing.IndexUpdateHelper(self)


_METHODS = {
    "sum": reductions.sum, "mean": reductions.mean, "prod": reductions.prod,
    "max": reductions.max, "min": reductions.min, "var": reductions.var, "std": reductions.std,
    "cumsum": reductions.cumsum, "cumprod": reductions.cumprod, "argmax": reductions.argmax,
    "argmin": reductions.argmin, "all": reductions.all, "any": reductions.any,
    "ravel": manipulation.ravel, "flatten": manipulation.ravel, "squeeze": manipulation.squeeze,
    "swapaxes": manipulation.swapaxes, "repeat": manipulation.repeat, "clip": ufuncs.clip,
    "round": ufuncs.round, "conj": ufuncs.conj, "conjugate": ufuncs.conj,
    "argsort": indexing.argsort, "diagonal": indexing.diagonal, "take": indexing.take,
    "nonzero": indexing.nonzero, "dot": products.dot, "trace": products.trace,
    "argpartition": searching.argpartition, "searchsorted": searching.searchsorted,
    "choose": building.choose,
}


# The operators that give a number on Python numbers, so a weak value on weak operands (@
# takes no numbers, comparisons give a bool, and &, | and ^ on traced values are logical).
_ARITHMETIC = frozenset({"add", "sub", "mul", "truediv", "pow", "mod", "floordiv"})


def _dlpack(self, **kwargs):
    """DLPack export (``np.from_dlpack(x)``): a Tensor's value as PyTorch exports it; a
    traced value has no memory to export."""
    if isinstance(self, Tracer):
        raise TypeError("a value traced by funcgrad has no memory to export through DLPack "
                        "(np.from_dlpack, another library's from_dlpack): use fnp.asarray "
                        "inside the transform, or export the value the function returns")
    if getattr(self, "requires_grad", False):
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    return np.asarray(self).__dlpack__(**kwargs)


def _dlpack_device(self):
    if isinstance(self, Tracer):
        _dlpack(self)
    return np.asarray(self).__dlpack_device__()


def attach_array_methods(cls):
    """Give ``cls`` (tracers, the eager Tensor) NumPy's operators and methods."""
    ops = {
        "add": ufuncs.add, "sub": ufuncs.subtract, "mul": ufuncs.multiply,
        "truediv": ufuncs.divide, "pow": ufuncs.power, "mod": ufuncs.mod,
        "floordiv": ufuncs.floor_divide, "matmul": products.matmul, "and": ufuncs.bitwise_and,
        "or": ufuncs.bitwise_or, "xor": ufuncs.bitwise_xor, "lshift": ufuncs.left_shift,
        "rshift": ufuncs.right_shift,
    }
    weak_attr, traced = hasattr(cls, "weak"), issubclass(cls, Tracer)
    for name, fn in ops.items():
        op, rop = _binary(fn, numeric=name in _ARITHMETIC, weak_attr=weak_attr, traced=traced)
        setattr(cls, f"__{name}__", op)
        setattr(cls, f"__r{name}__", rop)
    # divmod(x, y): NumPy's pair (floor_divide, remainder); (a pair is never weak)
    cls.__divmod__, cls.__rdivmod__ = _binary(floatfuncs.divmod)
    for name, fn in {"lt": ufuncs.less, "le": ufuncs.less_equal, "gt": ufuncs.greater,
                     "ge": ufuncs.greater_equal, "eq": ufuncs.equal,
                     "ne": ufuncs.not_equal}.items():
        setattr(cls, f"__{name}__", _binary(fn)[0])
    cls.__hash__ = None
    cls.__neg__ = _unary(ew.negative, weak_attr)
    cls.__pos__ = lambda self: self
    cls.__abs__ = _unary(ew.abs, weak_attr)
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
    cls.__dlpack__, cls.__dlpack_device__ = _dlpack, _dlpack_device
    cls.__array_ufunc__ = _array_ufunc
    cls.__array_function__ = _array_function
    cls.item = _item
    cls.tolist = _tolist
    cls.reshape = _reshape_method
    cls.transpose = _transpose_method
    cls.sort = _sort_method
    if issubclass(cls, Tracer):  # (the eager Tensor is mutable: it keeps its own, or none)
        for name, rewrite in _IN_PLACE.items():
            setattr(cls, name, _in_place(name, rewrite))
    cls.compress = _compress_method
    if not hasattr(cls, "itemsize"):
        cls.itemsize = property(lambda self: self.dtype.itemsize)
        cls.nbytes = property(lambda self: self.size * self.dtype.itemsize)
    cls.T = property(lambda self: manipulation.transpose(self))
    cls.mT = property(lambda self: manipulation.swapaxes(self, -1, -2))
    # (a Python number's .real, .imag and .conjugate() are Python numbers: weak)
    cls.real = property(_unary(ufuncs.real, weak_attr))
    cls.imag = property(_unary(ufuncs.imag, weak_attr))
    cls.at = property(_at)
    cls.astype = lambda self, dtype, **kw: constructors.astype(self, dtype)
    cls.copy = lambda self: self
    for name, fn in _METHODS.items():
        setattr(cls, name, _method(name, fn))
    cls.conjugate = _unary(ufuncs.conj, weak_attr)
