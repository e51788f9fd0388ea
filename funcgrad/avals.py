"""Abstract values and NumPy 2's weak typing: what graph tracing sees of an array.

:class:`ShapedArray` is an array's shape and dtype without values; a Python number (and a
traced value standing for one) is *weakly* typed, as NEP 50 and JAX type it, so
``float32 * 2.5`` stays float32 (:func:`is_weak`, :func:`weak_result_type`).  The tracing
core (:mod:`funcgrad.core`) re-exports every name here.
"""
import numpy as np

__all__ = ["ShapedArray", "WEAK_TYPES", "is_weak", "weak_operand", "weak_result_type",
           "dtype_of", "aval_of"]

# Exact classes the root interpreter cannot compute with (every Tracer subclass registers
# itself, and the eager Tensor and GPU arrays): a set lookup keeps the root's fast path
# cheap, and a traced value of one may be weakly typed (its ``weak`` flag).
_special_classes: set = set()


def _dtype_str(dtype):
    dtype = np.dtype(dtype)
    return {"f": "f", "i": "i", "u": "u", "b": "bool", "c": "c"}.get(dtype.kind, dtype.kind) + (
        "" if dtype.kind == "b" else str(dtype.itemsize * 8))



class ShapedArray:
    """An abstract array: a shape and a dtype, no values (what graph tracing sees).

    ``weak``: it stands for a Python number (int, float or complex), which NumPy 2 (NEP 50)
    and JAX type *weakly*: ``x * s`` keeps ``x``'s dtype where ``s`` is a Python float, as
    it does for ``x * 2.5`` (see :func:`is_weak`).

    >>> ShapedArray((3, 2), np.float32)
    f32[3,2]
    """

    __slots__ = ("shape", "dtype", "weak")

    def __init__(self, shape, dtype, weak=False):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.weak = weak

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def weak_type(self):
        return self.weak  # (JAX's name, as fg.typeof's users read it)

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def __eq__(self, other):
        return (isinstance(other, ShapedArray) and self.shape == other.shape
                and self.dtype == other.dtype and self.weak == other.weak)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.weak))

    def str_short(self):
        return (f"{'~' if self.weak else ''}{_dtype_str(self.dtype)}"
                f"[{','.join(map(str, self.shape))}]")

    __repr__ = str_short


WEAK_TYPES = (int, float, complex)
"""The Python numbers NumPy 2 types weakly (``bool`` is not one of them here: a boolean
argument is a mask, and ``True * x`` is ``x``'s dtype either way)."""


def is_weak(x):
    """Is ``x`` weakly typed: a Python int, float or complex, or a traced value that stands
    for one (a Python number passed as an argument of a transform)?  NumPy's promotion
    lets such a value take the other operand's dtype (``float32 * 2.5`` is float32);
    funcgrad keeps that for arguments too, as JAX does for its weak types.

    >>> is_weak(2.5), is_weak(True), is_weak(np.float64(2.5)), is_weak(np.array(2.5))
    (True, False, False, False)
    """
    t = type(x)
    return t is float or t is int or t is complex or (t in _special_classes and getattr(
        x, "weak", False))


def weak_operand(x):
    """``x`` as ``np.result_type`` should see it: a weak value as a Python number of its
    kind (so it stays weak), anything else as its dtype (or itself: a Python number, a
    dtype).

    >>> np.result_type(np.float32, weak_operand(ShapedArray((), np.float64, weak=True)))
    dtype('float32')
    """
    t = type(x)
    if t is float or t is int or t is complex or t is bool:
        return x
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        return x
    if getattr(x, "weak", False):
        return _WEAK_SAMPLES[dtype.kind]
    return dtype


_WEAK_SAMPLES = {"i": 0, "u": 0, "f": 0.0, "c": 0j}


def weak_result_type(*operands):
    """NumPy's result dtype of ``operands`` (arrays, avals, tracers, dtypes, Python
    numbers), weak values weakly typed (see :func:`is_weak`).

    >>> weak_result_type(np.ones(2, np.float32), 2.5)
    dtype('float32')
    """
    return np.result_type(*[weak_operand(x) for x in operands])


def dtype_of(x):
    """``x``'s dtype; a Python number's is NumPy's (float64 for a float).

    >>> dtype_of(2.5), dtype_of(np.ones(2, np.float32))
    (dtype('float64'), dtype('float32'))
    """
    dtype = getattr(x, "dtype", None)
    return np.result_type(x) if dtype is None else dtype


def aval_of(x):
    """The ShapedArray of a concrete value, tracer or Python scalar (a Python int, float
    or complex is weakly typed: :func:`is_weak`).

    >>> aval_of(np.ones((2, 3))), aval_of(2.5)
    (f64[2,3], ~f64[])
    """
    if isinstance(x, ShapedArray):
        return x
    if isinstance(x, (bool, int, float, complex)):
        return ShapedArray((), np.result_type(x), is_weak(x))
    return ShapedArray(x.shape, x.dtype, getattr(x, "weak", False))
