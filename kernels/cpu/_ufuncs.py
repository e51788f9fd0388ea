"""NumPy ufuncs whose float inner loops are Numba cfuncs (imported only when one is built).

A NumPy ufunc is the cheapest way to run compiled code from Python: NumPy's C dispatch
(~0.25 us) resolves dtypes, broadcasting, strides, ``out=``, 0-d and size-0 arrays, checks
the shapes and the memory overlap, and then calls one *inner loop* per run of elements,
``loop(char **args, npy_intp *dims, npy_intp *steps, void *data)``.  Here that inner loop
is a Numba ``cfunc`` written for it, and ``numba.np.ufunc._internal.fromfunc`` (what
``numba.vectorize`` itself uses) makes the ufunc from its address.  Compared with
``numba.vectorize``:

* the loop sees the whole run, not one element: the sin/cos kernels check a block of
  arguments at once and compute it with the vectorised polynomial when every argument is
  in its range, or with the C library's function otherwise, so no second pass or NumPy
  recomputation is needed;
* building one from the disk cache takes a few milliseconds (a cfunc loads like any
  cached function); ``numba.vectorize`` compiles a NumPy wrapper in every process
  (~0.2 s per ufunc);
* the loop is vectorised when every operand is contiguous, and correct (one element at a
  time) for every other layout NumPy hands it.

The inner loop only touches the memory NumPy passes it, at the strides NumPy gives, for
the count NumPy gives: no input can make it read or write elsewhere.
"""
import ctypes

import numpy as np
from numba import carray, cfunc, types
from numba.core.extending import intrinsic, register_jitable
from numba.np.ufunc import _internal

from .vmath import TRIG_BOUND
from .._numba_stamp import install

install()  # (before the cached functions: see .._numba_stamp)

_LOOP = types.void(types.CPointer(types.intp), types.CPointer(types.intp),
                   types.CPointer(types.intp), types.voidptr)
# Elements per block of a checked kernel: one block is checked, then computed, while it
# is still in the L1 cache.
BLOCK = 512


@intrinsic
def _pointer(typingctx, address, like):
    """The integer ``address`` as a pointer to values of ``like``'s type (touches nothing)."""
    ptr_type = types.CPointer(like)

    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], context.get_value_type(ptr_type))
    return ptr_type(types.intp, like), codegen


@register_jitable(inline="always")
def _ptr(address, like):
    # The loops' helper closures call this, not the intrinsic: a module-level function
    # pickles by reference, so the loops' cache keys are the same in every process.
    return _pointer(address, like)


@register_jitable(inline="always")
def _in_range(v, m):
    """Do all ``m`` values of ``v`` satisfy ``|v| <= TRIG_BOUND`` (False for NaN)?"""
    good = 0
    for j in range(m):  # an integer count, not an early exit: it vectorises
        good += np.int64(abs(v[j]) <= TRIG_BOUND)
    return good == m


_jitable = {}


def _jit(fn):
    # The closures below hold plain Python functions (pickled by reference), so the disk
    # cache of the loops hits in the next process.
    if fn not in _jitable:
        _jitable[fn] = register_jitable(fn)
    return _jitable[fn]


def inner_loop(fn, nin, dtype, exact=None, checked_arg=0):
    """The cfunc inner loop applying scalar ``fn`` to ``nin`` inputs of ``dtype``.

    With ``exact``, ``fn`` is trusted only where input ``checked_arg`` satisfies
    ``|x| <= TRIG_BOUND``; elsewhere (and for NaN/inf) ``exact``, built on the C
    library, gives the result.
    """
    if nin not in (1, 2, 3, 4, 5):  # pragma: no cover - no such kernel
        raise ValueError(f"no inner loop for {nin} inputs")
    kernel = _jit(fn)
    fallback = _jit(exact if exact is not None else fn)  # unused when not checked
    like = np.dtype(dtype).type(0)  # selects the pointer type; a closure value that pickles
    size = np.dtype(dtype).itemsize  # the same in every process, so the disk cache hits
    checked = exact is not None
    c = checked_arg

    # One body per arity: Numba cannot index a run-time list of arrays.  ``vs`` is a tuple
    # of arrays (the contiguous case) or of values (the strided case, at index 0).
    @register_jitable(inline="always")
    def apply(f, vs, j):
        if nin == 1:
            return f(vs[0][j])
        if nin == 2:
            return f(vs[0][j], vs[1][j])
        if nin == 3:
            return f(vs[0][j], vs[1][j], vs[2][j])
        if nin == 4:
            return f(vs[0][j], vs[1][j], vs[2][j], vs[3][j])
        return f(vs[0][j], vs[1][j], vs[2][j], vs[3][j], vs[4][j])

    @register_jitable(inline="always")
    def views(args, steps, i, n):
        # n elements from element i: contiguous arrays (steps[k] == size, so the pointer
        # arithmetic stays within what NumPy passed), or 1-element views at any stride.
        if nin == 1:
            return (carray(_ptr(args[0] + i * steps[0], like), n),)
        if nin == 2:
            return (carray(_ptr(args[0] + i * steps[0], like), n),
                    carray(_ptr(args[1] + i * steps[1], like), n))
        if nin == 3:
            return (carray(_ptr(args[0] + i * steps[0], like), n),
                    carray(_ptr(args[1] + i * steps[1], like), n),
                    carray(_ptr(args[2] + i * steps[2], like), n))
        if nin == 4:
            return (carray(_ptr(args[0] + i * steps[0], like), n),
                    carray(_ptr(args[1] + i * steps[1], like), n),
                    carray(_ptr(args[2] + i * steps[2], like), n),
                    carray(_ptr(args[3] + i * steps[3], like), n))
        return (carray(_ptr(args[0] + i * steps[0], like), n),
                carray(_ptr(args[1] + i * steps[1], like), n),
                carray(_ptr(args[2] + i * steps[2], like), n),
                carray(_ptr(args[3] + i * steps[3], like), n),
                carray(_ptr(args[4] + i * steps[4], like), n))

    def loop(args, dims, steps, data):
        n = dims[0]
        dense = True
        for k in range(nin + 1):
            dense = dense and steps[k] == size
        if not dense:  # any other layout: one element at a time
            for i in range(n):
                vs = views(args, steps, i, 1)
                if checked and not abs(vs[c][0]) <= TRIG_BOUND:
                    r = apply(fallback, vs, 0)
                else:
                    r = apply(kernel, vs, 0)
                _ptr(args[nin] + i * steps[nin], like)[0] = r
            return
        i = 0
        while i < n:  # one block at a time, so the check reads what the kernel then uses
            m = min(n - i, BLOCK) if checked else n - i
            vs = views(args, steps, i, m)
            out = carray(_ptr(args[nin] + i * size, like), m)
            if not checked or _in_range(vs[c], m):
                for j in range(m):  # vectorised
                    out[j] = apply(kernel, vs, j)
            else:
                for j in range(m):
                    out[j] = apply(fallback, vs, j)
            i += m

    loop.__qualname__ = f"inner_loop.{fn.__module__}.{fn.__name__}.{np.dtype(dtype).name}"
    # error_model="numpy": x / 0 gives inf/nan as in NumPy, and sets the flag NumPy turns
    # into its usual RuntimeWarning after the loop.
    return cfunc(_LOOP, cache=True, error_model="numpy")(loop)


def make_ufunc(name, loops, nin, base=None):
    """A NumPy ufunc ``name`` from ``loops``: {dtype: cfunc inner loop}.

    With ``base`` (a NumPy ufunc of the same arity), the result has all of ``base``'s
    loops, in its order, with those of ``loops``' dtypes replaced: every other dtype
    (integers, float16, longdouble, complex, object) keeps NumPy's own loop and result
    type.  Returns None when ``base``'s loop table cannot be read safely.
    """
    ours = {np.dtype(dt).num: loop for dt, loop in loops.items()}
    if base is None:
        table = [([num] * (nin + 1), None, None) for num in ours]
    else:
        table = _loop_table(base, nin)
        if table is None:
            return None
    types_, pointers, data = [], [], []
    for numbers, pointer, datum in table:
        if len(set(numbers)) == 1 and numbers[0] in ours:
            pointer, datum = ours[numbers[0]].address, None
        types_.append(numbers)
        pointers.append(pointer)
        data.append(datum)
    doc = f"funcgrad's {name}: a NumPy ufunc with Numba inner loops (see kernels/cpu/_ufuncs.py)."
    return _internal.fromfunc(name, doc, pointers, types_, nin, 1, data,
                              [list(loops.values()), base], _internal.PyUFunc_None)


class _UFuncHead(ctypes.Structure):
    # The leading, long-stable fields of NumPy's public ``PyUFuncObject`` (ufuncobject.h).
    _fields_ = [("ob_refcnt", ctypes.c_ssize_t), ("ob_type", ctypes.c_void_p),
                ("nin", ctypes.c_int), ("nout", ctypes.c_int), ("nargs", ctypes.c_int),
                ("identity", ctypes.c_int), ("functions", ctypes.c_void_p),
                ("data", ctypes.c_void_p), ("ntypes", ctypes.c_int),
                ("reserved1", ctypes.c_int), ("name", ctypes.c_char_p),
                ("types", ctypes.c_void_p)]


def _loop_table(base, nin):
    """[(type numbers, loop address, data address)] of NumPy ufunc ``base``, or None.

    Read only after the header's fields agree with what the ufunc reports through Python
    (arity, loop count, name, type signatures), so a different layout is never trusted.
    """
    if type(base) is not np.ufunc or base.nin != nin or base.nout != 1:
        return None
    head = _UFuncHead.from_address(id(base))
    if (head.nin, head.nout, head.nargs, head.ntypes) != (nin, 1, nin + 1, base.ntypes):
        return None
    if head.name != base.__name__.encode() or not head.functions or not head.types:
        return None
    n, width = base.ntypes, nin + 1
    numbers = list(ctypes.string_at(head.types, n * width))
    if numbers != [np.dtype(ch).num for t in base.types for ch in t.replace("->", "")]:
        return None
    functions = (ctypes.c_void_p * n).from_address(head.functions)
    data = (ctypes.c_void_p * n).from_address(head.data) if head.data else [None] * n
    return [(numbers[k * width:(k + 1) * width], functions[k], data[k]) for k in range(n)]
