"""NumPy twins of the generated kernels: the same bits, with no Numba at all.

While Numba loads in the background (:mod:`._lazy`), a generated kernel runs as its
*twin*: its own generated source, executed by Python on whole NumPy arrays, with
``V.<leaf>`` computed by :mod:`.vbodies` on NumPy (the text the Numba kernels compile)
and the exactly rounded ``F.<leaf>`` (sqrt, floor, copysign...) by NumPy's, which are
exact too.  Each line of a kernel is one IEEE operation per element in the same order as
the compiled loop, so the twin gives the kernel's bits; ``tests/test_kernel_loading.py``
checks that on every twin, at special values too.

Only straight-line kernels have a twin (no ``if``/``while``: the vector maths and the
fused first-order rules; not the series of the special functions), and only on
arguments a checked kernel computes with the vector maths (``|x| <= TRIG_BOUND`` for
sin/cos; beyond it the kernel calls the C library, which NumPy does not).  Elsewhere
:func:`twin` gives None, or the twin returns None, and the caller waits for the kernel.

The floating-point errors a twin's operations raise are reported once per kind after
it ran, as NumPy reports a kernel's, naming the kernel's operation.
"""
import ast

import numpy as np

from .._broadcast import broadcast_shapes
from . import vbodies
from ._fpstatus import report
from .leaves import INLINE

__all__ = ["twin", "V"]


class _NumpyEmit:
    """:mod:`.vbodies`' emitter on NumPy values (float64 and int64 arrays)."""

    f = staticmethod(np.float64)
    i = staticmethod(np.int64)
    rint = staticmethod(np.rint)
    fabs = staticmethod(np.abs)

    @staticmethod
    def sel(cond, a, b):
        return np.where(cond, a, b)

    def clamp(self, x, lo, hi):  # as vbodies' emitter: NaN stays NaN
        x = np.where(x < lo, lo, x)
        return np.where(x > hi, hi, x)

    @staticmethod
    def to_int(x):
        return np.asarray(x).astype(np.int64)  # truncation, as LLVM's fptosi

    @staticmethod
    def to_float(n):
        return np.asarray(n).astype(np.float64)

    @staticmethod
    def bits(x):
        return np.asarray(x, np.float64).view(np.int64)

    @staticmethod
    def from_bits(n):
        return np.asarray(n, np.int64).view(np.float64)


_M = _NumpyEmit()


def _leaf(body):
    def fn(x):
        # float32 arguments are widened first and the result stays float64, as in vmath
        return body(_M, np.asarray(x, np.float64))
    fn.__name__ = body.__name__.lstrip("_")
    return fn


class V:
    """``V.<leaf>`` of generated kernels, computed with NumPy."""
    exp = staticmethod(_leaf(vbodies._exp))
    log = staticmethod(_leaf(vbodies._log))
    log1p = staticmethod(_leaf(vbodies._log1p))
    sin = staticmethod(_leaf(vbodies._sin))
    cos = staticmethod(_leaf(vbodies._cos))
    tanh = staticmethod(_leaf(vbodies._tanh))


class F:
    """The ``F.<leaf>`` a twin may call: those NumPy computes exactly, as the C library."""
    sqrt, floor, ceil, trunc = np.sqrt, np.floor, np.ceil, np.trunc
    copysign, isinf, isfinite = np.copysign, np.isinf, np.isfinite


_NP_CALLS = {"float32", "float64", "int64", "bool_", "nan", "inf"}
_V_NAMES = {"exp", "log", "log1p", "sin", "cos", "tanh"}


def _straight_line(tree):
    """Is the module's ``kernel`` function assignments of arithmetic on allowed names?"""
    fns = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "kernel"]
    if len(fns) != 1:
        return False
    for stmt in fns[0].body:
        if not isinstance(stmt, (ast.Assign, ast.Return)):
            return False
    for node in ast.walk(fns[0]):
        if isinstance(node, (ast.If, ast.IfExp, ast.While, ast.For, ast.Pow, ast.BoolOp,
                             ast.Not, ast.Lambda, ast.Subscript)) or (
                isinstance(node, ast.Compare) and len(node.ops) > 1):
            return False  # (`and`, `not`, chained comparisons do not act elementwise)
        if isinstance(node, ast.Attribute):
            if not isinstance(node.value, ast.Name):
                return False
            allowed = {"V": _V_NAMES, "F": INLINE, "np": _NP_CALLS}.get(node.value.id)
            if allowed is None or node.attr not in allowed:
                return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id != "abs":
            return False
    return True


class _TypedLiterals(ast.NodeTransformer):
    """Numba types a literal ``1.0`` as float64 (and ``2`` as int64), so that
    ``float32 - 1.0`` is computed in float64; NumPy would keep a Python number weak and
    compute in float32.  Writing each as a NumPy scalar gives Numba's promotion."""

    def visit_Constant(self, node):
        value = node.value
        if type(value) not in (int, float):
            return node
        kind = "float64" if type(value) is float else "int64"
        # Each new node takes the literal's place in the source (a walk over the whole
        # tree by ast.fix_missing_locations took most of a twin's build time).
        name = ast.copy_location(ast.Name("np", ast.Load()), node)
        attr = ast.copy_location(ast.Attribute(name, kind, ast.Load()), node)
        return ast.copy_location(ast.Call(attr, [node], []), node)


def twin(source, nin, dtype, checked_arg=None, display="kernel"):
    """The NumPy twin of generated kernel ``source`` (its function ``kernel`` of ``nin``
    inputs) for ``dtype``, or None where it has none (see the module docstring).

    The twin takes what the kernel's ufunc takes (arrays of ``dtype``, Python scalars)
    and returns a new array of ``dtype`` and the broadcast shape, or None when an
    argument ``checked_arg`` lies beyond the vector maths' range (sin/cos).
    """
    tree = ast.parse(source)
    if not _straight_line(tree):
        return None
    tree.body = [n for n in tree.body if not isinstance(n, (ast.Import, ast.ImportFrom))]
    tree = _TypedLiterals().visit(tree)
    namespace = {"np": np, "V": V, "F": F}
    exec(compile(tree, f"<twin of {display}>", "exec"), namespace)
    kernel = namespace["kernel"]
    dtype = np.dtype(dtype)
    bound = vbodies.TRIG_BOUND

    def run(*args):
        if len(args) != nin:
            raise TypeError(f"{display} takes {nin} arguments, got {len(args)}")
        arrays = [a if type(a) is np.ndarray and a.dtype == dtype else np.asarray(a, dtype)
                  for a in args]
        if checked_arg is not None and not (
                np.abs(arrays[checked_arg]) <= bound).all():
            return None
        shape = broadcast_shapes(*[a.shape for a in arrays])
        errors = []
        with np.errstate(all="call", call=lambda kind, flag: errors.append((kind, flag))):
            r = kernel(*arrays)
        out = np.empty(shape, dtype)
        out[...] = r  # (a float64 result of a float32 kernel is already rounded: r = f32(..))
        if errors:
            report({kind for kind, _ in errors}, display)
        return out
    run.__name__ = f"twin_{display}"
    return run
