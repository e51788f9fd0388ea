"""Arrays on an NVIDIA GPU: :class:`GpuArray`, :func:`device_put`, :func:`device_get`.

>>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp   # doctest: +SKIP
>>> x = fg.device_put(np.linspace(-3, 3, 1_000_000), "cuda")      # doctest: +SKIP
>>> g = fg.grad(lambda x: fnp.sum(fnp.tanh(x) ** 2))(x)          # doctest: +SKIP
>>> np.asarray(g)                              # copied to the host when asked  # doctest: +SKIP

How it fits: :class:`GpuArray` is registered with the root interpreter
(:func:`funcgrad.core.register_special_type`), so every primitive that meets one
is handed to :func:`_dispatch`, which looks the primitive up in :data:`IMPLS`
(primitive name -> GPU implementation built on ``funcgrad.kernels.cuda``).
Transforms need nothing of their own: their rules are written with primitives, and
those dispatch here on the GPU arrays they receive.  Shapes and dtypes of results
come from each primitive's own ``abstract_eval``, so they match the CPU exactly.

Importing funcgrad imports neither Numba's CUDA target nor the kernels; the first
:func:`device_put` to ``"cuda"`` does, and raises :class:`CudaUnavailableError`
saying why when it cannot (no ``numba-cuda``, no driver, no GPU).

Layout: a GpuArray is a 1-d device buffer plus ``shape``, element ``strides`` and
``offset``, as a NumPy view is.  ``transpose``, ``broadcast_to``, basic slicing,
``split`` and ``reshape`` of contiguous arrays are views (no kernel, no copy);
every kernel reads strided operands directly.  Arrays are immutable, so views are
safe to share.

**Mixing devices.**  One operation on a GPU array and a CPU array raises
:class:`DeviceMismatchError`, like PyTorch, when the CPU array is *user data*:
an argument of the funcgrad or NumPy function the user's own code called.
Python scalars, NumPy scalars and 0-d arrays mix freely (they travel as kernel
arguments), and so do integer index arrays in ``x[idx]`` / ``x.at[idx]``.
NumPy arrays that funcgrad itself makes *inside* an operation (the zeros, ones,
``eye`` and ``arange`` that derivative rules build, a Jacobian's basis of
seeds, masks made by ``fnp.triu``) are constants, not user data: the dispatch
copies them to the device.  This keeps the derivative rules device-agnostic
(they need no GPU code and no edits), at the cost of a host-to-device copy of
each such constant when it is used.  The test for "user data" looks at the
arguments of the outermost funcgrad frame below the user's code (by identity,
through lists, tuples, dicts and tracers); it is a heuristic documented here,
not a guarantee: an array the user built and passed in a way funcgrad cannot
see (an attribute of an object, say) is moved rather than refused.
"""
import operator
import os
import sys
import threading

import numpy as np

from . import devices
from .core import REGISTRY, ShapedArray, Tracer, _special_classes, register_special_type
from .primitives import elementwise as _ew
from .primitives import indexing as _ix
from .primitives import linalg as _la
from .primitives import reductions as _red
from .primitives import scalar as sc
from .primitives import structural as _st
from .primitives._elementwise import register_fused_backend
from .kernels.cuda._layout import collapse, contiguous_strides, is_contiguous, size_of

__all__ = ["GpuArray", "device_put", "device_get", "CudaUnavailableError",
           "DeviceMismatchError", "IMPLS", "missing_gpu_primitives"]


class CudaUnavailableError(RuntimeError):
    """The CUDA backend cannot be used here (package, driver or GPU missing)."""


class DeviceMismatchError(RuntimeError):
    """One operation was given arrays on different devices."""


# --- the CUDA backend, loaded on first use -------------------------------------------------

_backend = None
_backend_lock = threading.Lock()


class _Backend:
    def __init__(self, cuda):
        from .kernels.cuda import (_config, elementwise, index, linalg, matmul, reduce, scan,
                                   sort)
        self.cuda = cuda
        self.config = _config
        self.ew = elementwise
        self.reduce = reduce
        self.scan = scan
        self.matmul = matmul
        self.index = index
        self.sort = sort
        self.linalg = linalg
        self.device_id = 0 if _config.SIM else cuda.get_current_device().id


def backend():
    """The loaded CUDA backend; raises :class:`CudaUnavailableError` explaining why not."""
    global _backend
    if _backend is not None:
        return _backend
    with _backend_lock:
        if _backend is None:
            _backend = _Backend(_import_cuda())
    return _backend


_INSTALL = ("Install the CUDA extra: pip install 'funcgrad[cuda]' (it brings numba-cuda, the "
            "maintained CUDA target for Numba; on a machine without a system CUDA toolkit use "
            "pip install 'numba-cuda[cu12]' or 'numba-cuda[cu13]' to match the driver).")


def _import_cuda():
    try:
        from numba import cuda
    except ImportError as e:
        raise CudaUnavailableError(
            f"fg.device_put(x, 'cuda') needs Numba's CUDA target, which could not be imported "
            f"({e}). {_INSTALL}") from None
    if cuda.is_available():
        return cuda
    reason = "numba.cuda.is_available() is False"
    try:
        cuda.get_current_device()
    except Exception as e:  # noqa: BLE001 - the driver's own words say why
        reason = " ".join(f"{type(e).__name__}: {e}".split()).rstrip(":. ")
    raise CudaUnavailableError(
        f"fg.device_put(x, 'cuda'): no usable CUDA GPU ({reason}). funcgrad's GPU arrays need "
        f"an NVIDIA GPU, its driver, and the numba-cuda package. {_INSTALL} Without a GPU, "
        f"everything else in funcgrad works on NumPy arrays; to try the GPU code paths on the "
        f"CPU, set NUMBA_ENABLE_CUDASIM=1 before Numba is first imported (Numba's CUDA "
        f"simulator: correct, and very slow).")


# --- the array type --------------------------------------------------------------------------

class GpuArray:
    """An immutable n-d array in GPU memory (a strided view of a numba.cuda device buffer).

    Behaves like a NumPy array under ``funcgrad.numpy``, plain ``numpy`` functions,
    operators and every transform; ``np.asarray(x)`` copies it to the host.  Make one
    with :func:`device_put`.
    """

    __slots__ = ("buf", "shape", "strides", "offset", "dtype", "__weakref__")
    __array_priority__ = 1000

    def __init__(self, buf, shape, dtype, strides=None, offset=0):
        self.buf = buf
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.strides = contiguous_strides(self.shape) if strides is None else tuple(strides)
        self.offset = offset

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return size_of(self.shape)

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    @property
    def device(self):
        """``'cuda:<id>'``: where the data lives."""
        return f"cuda:{backend().device_id}"

    @property
    def is_contiguous(self):
        return is_contiguous(self.shape, self.strides)

    def __array__(self, dtype=None, copy=None):
        host = _to_host(self)
        return host if dtype is None else host.astype(dtype, copy=False)

    def __repr__(self):
        text = repr(_to_host(self))
        text = text[text.index("(") + 1:text.rindex(")")] if "(" in text else text
        return f"GpuArray({text}, device='{self.device}')"

    def __bool__(self):
        return bool(_to_host(self))

    def __float__(self):
        return float(_to_host(self))

    def __int__(self):
        return int(_to_host(self))

    def __complex__(self):
        return complex(_to_host(self))

    def __index__(self):
        if self.dtype.kind not in "iu":
            raise TypeError(f"only integer arrays can be used as an index, not {self.dtype}")
        return operator.index(_to_host(self)[()])

    def item(self, *args):
        return _to_host(self).item(*args)

    def tolist(self):
        return _to_host(self).tolist()

    @property
    def __cuda_array_interface__(self):
        """Zero-copy hand-off to CuPy, PyTorch, Numba... (contiguous arrays only)."""
        if not self.is_contiguous:
            raise AttributeError("only contiguous GpuArrays export __cuda_array_interface__ "
                                 "(this one is a strided view)")
        ptr = self.buf.__cuda_array_interface__["data"][0] + self.offset * self.itemsize
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (ptr, True),
                "strides": None, "version": 3}


def _new(buf, shape, dtype):
    return GpuArray(buf, shape, dtype)


def _view(x, shape, strides, offset):
    return GpuArray(x.buf, shape, x.dtype, strides, offset)


def _to_host(x):
    n = x.size
    if n == 0:
        return np.empty(x.shape, x.dtype)
    x = contiguous(x)
    return x.buf[x.offset:x.offset + n].copy_to_host().reshape(x.shape)


def _run_cast(operands, shape, dtype, out=None):
    """A copy of ``operands[0]`` converted to ``dtype`` (into ``out`` when given)."""
    ew = backend().ew
    return ew.run(ew.CAST, [ew.compute_dtype(dtype)], operands, shape, dtype, out=out)


def contiguous(x):
    """``x`` itself when it is contiguous, else a contiguous copy."""
    if x.is_contiguous:
        return x
    return _new(_run_cast([x], x.shape, x.dtype), x.shape, x.dtype)


def _upload(value):
    """A NumPy array (any layout) as a new contiguous GpuArray."""
    value = np.asarray(value)
    if not value.flags.c_contiguous:
        value = value.copy()  # (np.ascontiguousarray would make a 0-d array 1-d)
    if value.dtype.kind in "OSUVMmc":
        raise TypeError(f"GPU arrays hold real numbers and booleans; got dtype {value.dtype}")
    cuda = backend().cuda
    if value.size == 0:
        buf = cuda.device_array(0, value.dtype)
    else:
        buf = cuda.to_device(value.reshape(-1))
    return GpuArray(buf, value.shape, value.dtype)


# --- moving data ---------------------------------------------------------------------------------

_GPU_NAMES = ("cuda", "gpu")


def _is_gpu_device(device):
    name = str(device).lower()
    base, _, index = name.partition(":")
    if base in _GPU_NAMES:
        if index not in ("", "0") and index != str(backend().device_id):
            raise ValueError(f"device_put: {device!r}: funcgrad uses the current CUDA device "
                             f"only (cuda:{backend().device_id}); select another one with "
                             f"numba.cuda.select_device before the first device_put")
        return True
    if base == "cpu":
        return False
    raise ValueError(f"device_put: unknown device {device!r}; use 'cuda' or 'cpu'")


def device_put(x, device="cuda"):
    """Copy ``x`` (an array, number, list, or pytree of them) to ``device``.

    ``device="cuda"`` returns :class:`GpuArray` leaves; ``"cpu"`` is
    :func:`device_get`.  Values already there are returned as they are.

    >>> x = fg.device_put(np.arange(3.0), "cuda")     # doctest: +SKIP
    >>> x.device                                      # doctest: +SKIP
    'cuda:0'
    """
    from . import tree
    if not _is_gpu_device(device):
        return device_get(x)
    backend()  # raise CudaUnavailableError here, once, saying why

    def put(leaf):
        if isinstance(leaf, GpuArray):
            return leaf
        if isinstance(leaf, Tracer):
            raise TypeError("device_put of a traced value is not supported: move inputs to the "
                            "GPU before calling the transformed function")
        if leaf is None:
            return None
        return _upload(np.asarray(leaf))
    return tree.tree_map(put, x)


def device_get(x):
    """Copy GPU arrays in ``x`` (an array or pytree) to the host as NumPy arrays.

    Other leaves are returned as they are.
    """
    from . import tree
    return tree.tree_map(lambda leaf: _to_host(leaf) if isinstance(leaf, GpuArray) else leaf, x)


# --- dispatch ------------------------------------------------------------------------------------

IMPLS = {}
"""GPU implementation of each primitive (keyed by the primitive): ``impl(*args,
**params)`` on GpuArrays (and Python/NumPy scalars where the primitive is elementwise)."""

_ELEMENTWISE = set()
# operands from this position on are index arrays, which may stay on the host
_INDEX_OPERANDS = {_ix.gather_p: 1, _ix.scatter_p: 2}
_SCALARS = (bool, int, float)


def missing_gpu_primitives():
    """Names of registered primitives that have no GPU implementation (should be empty)."""
    return sorted(name for name, prim in REGISTRY.items()
                  if prim not in IMPLS and prim not in devices.GPU)


def _dispatch(prim, args, params):
    on_gpu = False
    for a in args:
        t = type(a)
        if t is GpuArray:
            on_gpu = True
        elif t in _special_classes:
            return NotImplemented  # a tracer (escaped) or another special type's operation
    if not on_gpu:
        return NotImplemented
    impl = IMPLS.get(prim) or devices.GPU.get(prim)
    if impl is None:
        raise NotImplementedError(
            f"the primitive {prim.name!r} has no GPU implementation yet, so it cannot run on "
            f"GpuArrays. Copy its operands to the host with fg.device_get(x) for this step, or "
            f"add an entry to funcgrad.gpu.IMPLS.")
    first_index = _INDEX_OPERANDS.get(prim, len(args))
    elementwise = prim in _ELEMENTWISE
    placed = None
    for i, a in enumerate(args):
        t = type(a)
        if t is GpuArray or t in _SCALARS or i >= first_index:
            continue
        if placed is None:
            placed = list(args)
        placed[i] = _place(prim, a, elementwise)
    return impl(*(args if placed is None else placed), **params)


def _place(prim, value, elementwise):
    """A non-GPU operand of a GPU operation: a scalar stays, a constant moves, user data raises."""
    if isinstance(value, complex) or np.iscomplexobj(value):
        raise TypeError(f"{prim.name}: complex numbers are not supported on the GPU")
    if isinstance(value, np.generic):
        return value if elementwise else _upload(np.asarray(value))
    if not isinstance(value, np.ndarray):
        value = np.asarray(value)
    if value.ndim == 0:
        return value[()] if elementwise else _upload(value)
    if _user_supplied(value):
        raise DeviceMismatchError(
            f"{prim.name}: one operation got a GPU array and a NumPy array (shape "
            f"{value.shape}, dtype {value.dtype}) that lives on the CPU. funcgrad does not move "
            f"your data between devices behind your back: copy it first with "
            f"fg.device_put(a, 'cuda') (or bring the GPU array back with fg.device_get(x)). "
            f"Python scalars, NumPy scalars and 0-d arrays may be mixed with GPU arrays freely.")
    return _upload_constant(value)


def _upload_constant(value):
    """Upload a NumPy constant; a broadcast view (zero strides) travels compact and is
    broadcast again on the device (a rule's ``broadcast_to`` of a scalar seed stays one
    element, not a full-size copy)."""
    if 0 in value.strides and value.size > 1:
        compact = value[tuple(slice(0, 1) if s == 0 else slice(None) for s in value.strides)]
        return _broadcast_view(_upload(compact), value.shape)
    return _upload(value)


def _package_dirs():
    from . import kernels
    return (os.path.dirname(os.path.abspath(__file__)) + os.sep,
            os.path.dirname(os.path.abspath(kernels.__file__)) + os.sep)


_INTERNAL = _package_dirs()
_CO_VARARGS, _CO_VARKEYWORDS = 0x04, 0x08


def _user_supplied(array):
    """Is ``array`` the user's data, as opposed to a constant funcgrad made?

    Walks the stack outwards in alternating segments of funcgrad frames and user
    frames.  Where user code calls into funcgrad (the *entry* frame), an array that is
    not among the entry's arguments was made by funcgrad inside that call: a constant.
    One that is came from the user's code; if that code is itself a callback funcgrad
    called (a function being transformed, a custom rule) and received the array as an
    argument, funcgrad handed it over, and the search goes on where funcgrad got it.
    """
    frame = sys._getframe(2)
    while True:
        entry = None
        while frame is not None and frame.f_code.co_filename.startswith(_INTERNAL):
            entry = frame
            frame = frame.f_back
        if frame is None or entry is None or not _in_arguments(entry, array):
            return False
        callback = None
        while frame is not None and not frame.f_code.co_filename.startswith(_INTERNAL):
            callback = frame
            frame = frame.f_back
        if frame is None or not _in_arguments(callback, array):
            return True


def _in_arguments(frame, array):
    code = frame.f_code
    n = code.co_argcount + code.co_kwonlyargcount
    n += bool(code.co_flags & _CO_VARARGS) + bool(code.co_flags & _CO_VARKEYWORDS)
    f_locals = frame.f_locals
    return any(_holds(f_locals.get(name), array, 4) for name in code.co_varnames[:n])


def _holds(value, array, depth):
    if value is array or (isinstance(value, np.ndarray) and array.base is value):
        return True
    if isinstance(value, Tracer):
        from .core import concrete
        try:
            return _holds(concrete(value), array, depth)
        except Exception:  # noqa: BLE001 - an abstract tracer holds no user array
            return False
    if depth and isinstance(value, (list, tuple)):
        return any(_holds(v, array, depth - 1) for v in value[:256])
    if depth and isinstance(value, dict):
        return any(_holds(v, array, depth - 1) for v in list(value.values())[:256])
    return False


register_special_type(GpuArray, _dispatch)


# --- helpers for implementations -----------------------------------------------------------------

def _aval(x):
    if isinstance(x, GpuArray):
        return ShapedArray(x.shape, x.dtype)
    if isinstance(x, np.ndarray):
        return ShapedArray(x.shape, x.dtype)
    return x


def _abstract(prim, args, params):
    return prim.abstract_eval(*[_aval(a) for a in args], **params)


def _broadcast_view(x, shape):
    shape = tuple(shape)
    if x.shape == shape:
        return x
    lead = len(shape) - x.ndim
    strides = [0] * lead + [0 if (d == 1 and s != 1) else st
                            for d, s, st in zip(x.shape, shape[lead:], x.strides)]
    return _view(x, shape, strides, x.offset)


def _cast(x, dtype):
    dtype = np.dtype(dtype)
    if x.dtype == dtype:
        return x
    return _new(_run_cast([x], x.shape, dtype), x.shape, dtype)


def _as_gpu(x, dtype=None):
    """A GpuArray for an operand that may be a scalar."""
    if not isinstance(x, GpuArray):
        x = _upload(np.asarray(x, dtype))
    return x if dtype is None else _cast(x, dtype)


# --- elementwise ---------------------------------------------------------------------------------

_ew_dtypes = {}


def _ew_key(a):
    t = type(a)
    if t is GpuArray:
        return a.dtype
    if t in _SCALARS:
        return t
    return np.dtype(type(a))  # NumPy scalar: a strong dtype


def _cuda_code():
    """A writer of CUDA scalar code (leaves ``F.<name>``: kernels/cuda/_scalar.py)."""
    return sc.Emitter(lambda name, dtype: f"F.{name}", sc.literal, sc.cast)


_ew_lines = {}  # (primitive, compute dtypes) -> the lines of its CUDA kernel


def _lines(prim, dtypes):
    """The CUDA lines of ``prim``'s scalar definition for operands in ``dtypes``."""
    key = (prim,) + tuple(dtypes)
    lines = _ew_lines.get(key)
    if lines is None:
        decl = prim.elementwise
        body_dtype = dtypes[-1] if decl.compute == "select" else dtypes[0]
        body = sc.body_for(decl.scalar, body_dtype)
        if body is None:
            raise TypeError(f"{prim.name} has no GPU kernel for dtype {body_dtype}")
        lines = _ew_lines[key] = tuple(_cuda_code().statements(
            body, [f"x{k}" for k in range(len(dtypes))], "r", body_dtype))
    return lines


def _elementwise_impl(prim):
    decl = prim.elementwise

    def impl(*args):
        key = (prim,) + tuple(_ew_key(a) for a in args)
        dtype = _ew_dtypes.get(key)
        # (a Python int's range errors depend on its value: no caching then)
        if dtype is None or any(type(a) is int for a in args):
            dtype = _ew_dtypes[key] = prim.abstract_eval(*[_aval(a) for a in args]).dtype
        shape = np.broadcast_shapes(*[a.shape for a in args if type(a) is GpuArray])
        dtypes = [backend().ew.compute_dtype(d) for d in decl.compute_dtypes(
            [a.dtype if type(a) is GpuArray else a for a in args], dtype)]
        return _new(backend().ew.run(_lines(prim, dtypes), dtypes, args, shape, dtype),
                    shape, dtype)
    impl.__name__ = f"gpu_{prim.name}"
    return impl


def _register_elementwise():
    for prim in REGISTRY.values():
        if prim.elementwise is not None:
            IMPLS[prim] = _elementwise_impl(prim)
            _ELEMENTWISE.add(prim)


_fused = {}  # (primitive, argument, dtype) -> (lines, reads), or None: no fused kernel


def fused_vjp(prim, i, g, args, out):
    """The cotangent of argument ``i`` of elementwise ``prim`` on GPU arrays by one
    generated kernel (its first-order rule, captured once: the GPU twin of the CPU's
    fused kernels), or None where the rule should run as it is."""
    dt = g.dtype
    if dt.kind != "f" or dt.itemsize not in (4, 8):
        return None
    key = (prim, i, dt)
    built = _fused.get(key, False)
    if built is False:
        built = _fused[key] = _build_fused(prim, i, dt)
    if built is None:
        return None
    lines, reads = built
    everything = (g, *args, out)
    operands = []
    for k in reads:
        v = everything[k]
        if type(v) is GpuArray:
            if v.dtype != dt:
                return None
        elif type(v) not in (float, int):
            return None
        operands.append(v)
    shape = np.broadcast_shapes(*[v.shape for v in operands if type(v) is GpuArray])
    return _new(backend().ew.run(lines, [dt] * len(reads), operands, shape, dt), shape, dt)


def _build_fused(prim, i, dtype):
    decl = prim.elementwise
    lin = decl.lins[i]
    if lin is None:
        return None
    graph = sc.capture(lin, len(decl.lins) + 2, dtype)
    if len(graph.eqns) < 2 or len(graph.outvars) != 1 or not all(
            eqn.prim.elementwise is not None and not eqn.outvars[0].aval.shape
            and all(hasattr(x, "aval") or not np.ndim(x) for x in eqn.inputs)
            and sc.body_for(eqn.prim.elementwise.scalar, sc.eqn_compute(eqn)[1]) is not None
            for eqn in graph.eqns):
        return None
    ids = {id(v): k for k, v in enumerate(graph.invars)}
    reads = sorted({ids[id(x)] for e in graph.eqns for x in e.inputs if id(x) in ids})
    params = {id(graph.invars[k]): f"x{j}" for j, k in enumerate(reads)}
    lines, result = _cuda_code().graph(graph, [params.get(id(v), "None") for v in graph.invars],
                                     dtype)
    return tuple(lines) + (f"r = {result}",), tuple(reads)


# --- structural ----------------------------------------------------------------------------------

def _reshape(x, *, shape):
    shape = tuple(shape)
    if size_of(shape) != x.size:
        raise ValueError(f"cannot reshape array of size {x.size} into shape {shape}")
    x = contiguous(x)
    return _view(x, shape, contiguous_strides(shape), x.offset)


def _transpose(x, *, perm):
    return _view(x, tuple(x.shape[p] for p in perm), tuple(x.strides[p] for p in perm), x.offset)


def _broadcast_to(x, *, shape):
    np.broadcast_shapes(x.shape, tuple(shape))
    return _broadcast_view(x, shape)


def _convert(x, *, dtype):
    return _cast(x, dtype)


def _concatenate(*xs, axis):
    aval = _abstract(_st.concatenate_p, xs, {"axis": axis})
    xs = [_as_gpu(x) for x in xs]
    cuda = backend().cuda
    out = GpuArray(cuda.device_array(size_of(aval.shape), aval.dtype), aval.shape, aval.dtype)
    start = 0
    for x in xs:
        width = x.shape[axis]
        if x.size:
            target = _view(out, x.shape, out.strides, out.offset + start * out.strides[axis])
            _run_cast([x], x.shape, aval.dtype, out=target)
        start += width
    return out


def _split(x, *, bounds, axis):
    edges = (0,) + tuple(bounds) + (x.shape[axis],)
    outs = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        shape = list(x.shape)
        shape[axis] = hi - lo
        outs.append(_view(x, tuple(shape), x.strides, x.offset + lo * x.strides[axis]))
    return outs


# --- reductions ----------------------------------------------------------------------------------

def _rows_layout(x, axes):
    """``(x, M, K, sm, sk)``: ``x``'s kept axes as M rows, the ``axes`` as K columns."""
    kept = [i for i in range(x.ndim) if i not in axes]
    M = size_of([x.shape[i] for i in kept])
    K = size_of([x.shape[i] for i in axes])
    kshape, (kstr,) = collapse([x.shape[i] for i in kept], [[x.strides[i] for i in kept]])
    rshape, (rstr,) = collapse([x.shape[i] for i in axes], [[x.strides[i] for i in axes]])
    if len(kshape) <= 1 and len(rshape) <= 1:
        return x, M, K, (kstr[0] if kstr else 0), (rstr[0] if rstr else 0)
    perm = kept + list(axes)
    xt = contiguous(_transpose(x, perm=perm))
    return xt, M, K, K, 1


def _reduce(op, x, axes, keepdims, out_dtype, reduced_shape):
    x, M, K, sm, sk = _rows_layout(x, axes)
    buf = backend().reduce.rows(op, x.buf, x.offset, M, K, sm, sk, out_dtype)
    return _new(buf, reduced_shape, out_dtype)


def _reduction_impl(prim, op, check_empty=False):
    def impl(x, *, axes, keepdims):
        if check_empty:
            _red._check_nonempty(prim.name, x, axes)
        aval = _abstract(prim, (x,), {"axes": axes, "keepdims": keepdims})
        if not axes:
            return _cast(x, aval.dtype)
        return _reduce(op, x, axes, keepdims, aval.dtype, aval.shape)
    return impl


def _logsumexp(x, *, axes, keepdims):
    _red._check_nonempty("logsumexp", x, axes)
    aval = _abstract(_red.logsumexp_p, (x,), {"axes": axes, "keepdims": keepdims})
    x = _cast(x, aval.dtype)
    if not axes:
        return x
    ew = IMPLS
    kept_shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    m = _reduce("max", x, axes, True, aval.dtype, kept_shape)
    m = ew[_ew.where_p](ew[_ew.isfinite_p](m), m, 0.0)  # an all -inf (or inf) row: shift by 0
    xr, M, K, sm, sk = _rows_layout(x, axes)
    s = backend().reduce.rows("lse", xr.buf, xr.offset, M, K, sm, sk, aval.dtype, shift=m.buf)
    out = ew[_ew.add_p](ew[_ew.log_p](_new(s, kept_shape, aval.dtype)), m)
    return _reshape(out, shape=aval.shape)


def _arg_impl(prim, largest):
    def impl(x, *, axis, keepdims):
        _red._check_nonempty(prim.name, x, (axis,))
        aval = _abstract(prim, (x,), {"axis": axis, "keepdims": keepdims})
        xr, M, K, sm, sk = _rows_layout(x, (axis,))
        buf = backend().reduce.argrows("argmax" if largest else "argmin", xr.buf, xr.offset,
                                       M, K, sm, sk)
        return _cast(_new(buf, aval.shape, np.int64), aval.dtype)
    return impl


def _move_last_back(flat, x_shape, axis, dtype):
    """A (kept..., N) contiguous result as a view in ``x``'s axis order."""
    kept = [d for i, d in enumerate(x_shape) if i != axis]
    y = _new(flat, tuple(kept) + (x_shape[axis],), dtype)
    perm = list(range(len(kept)))
    perm.insert(axis, len(kept))
    return _transpose(y, perm=perm)


def _cumsum(x, *, axis):
    aval = _abstract(_red.cumsum_p, (x,), {"axis": axis})
    xr, M, N, sm, sk = _rows_layout(x, (axis,))
    buf = backend().scan.cumsum_rows(xr.buf, xr.offset, M, N, sm, sk, aval.dtype)
    return _move_last_back(buf, x.shape, axis, aval.dtype)


def _argsort(x, *, axis):
    aval = _abstract(_ix.argsort_p, (x,), {"axis": axis})
    xr, M, N, sm, sk = _rows_layout(x, (axis,))
    buf = backend().sort.argsort_rows(xr.buf, xr.offset, M, N, sm, sk)
    return _cast(_move_last_back(buf, x.shape, axis, np.int64), aval.dtype)


# --- matmul and einsum ---------------------------------------------------------------------------

def _matmul(a, b):
    aval = _abstract(_la.matmul_p, (a, b), {})
    a = _as_gpu(a)
    b = _as_gpu(b)
    a2 = a if a.ndim > 1 else _view(a, (1,) + a.shape, (0,) + a.strides, a.offset)
    b2 = b if b.ndim > 1 else _view(b, b.shape + (1,), b.strides + (0,), b.offset)
    batch = np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    M, K = a2.shape[-2:]
    N = b2.shape[-1]
    a_batch = _broadcast_view(_view(a2, a2.shape[:-2], a2.strides[:-2], a2.offset), batch).strides
    b_batch = _broadcast_view(_view(b2, b2.shape[:-2], b2.strides[:-2], b2.offset), batch).strides
    if -(-M // backend().config.TILE) > 65535:
        raise ValueError(f"matmul on the GPU: {M} rows is more than the grid allows "
                         f"({65535 * backend().config.TILE}); split the product")
    buf = backend().matmul.matmul(a2.buf, a2.offset, a2.strides[-2:], b2.buf, b2.offset,
                                  b2.strides[-2:], batch, a_batch, b_batch, M, N, K, aval.dtype)
    return _new(buf, aval.shape, aval.dtype)


def _einsum(*operands, subscripts):
    """A contraction as a chain of pairwise batched matmuls (operands' letters are unique
    within each operand: the primitive's wrapper took diagonals and lonely sums first)."""
    aval = _abstract(_la.einsum_p, operands, {"subscripts": subscripts})
    ins, out = subscripts.split("->")
    specs = ins.split(",")
    arrays = [_as_gpu(o) for o in operands]
    while True:
        later = set(out) | set("".join(specs[2:]))
        a, sa = arrays[0], specs[0]
        if len(arrays) == 1:
            lonely = tuple(i for i, c in enumerate(sa) if c not in out)
            if lonely:
                a = IMPLS[_st.reduce_sum_p](a, axes=lonely, keepdims=False)
                sa = "".join(c for c in sa if c not in out)
            result = _transpose(a, perm=tuple(sa.index(c) for c in out))
            return _cast(result, aval.dtype)
        b, sb = arrays[1], specs[1]
        a, sa = _sum_lonely(a, sa, sb, later)
        b, sb = _sum_lonely(b, sb, sa, later)
        batch = [c for c in sa if c in sb and c in later]
        contract = [c for c in sa if c in sb and c not in later]
        free_a = [c for c in sa if c not in sb]
        free_b = [c for c in sb if c not in sa]
        size = {c: d for s, x in ((sa, a), (sb, b)) for c, d in zip(s, x.shape)}
        nb = size_of([size[c] for c in batch])
        nm = size_of([size[c] for c in free_a])
        nk = size_of([size[c] for c in contract])
        nn = size_of([size[c] for c in free_b])
        a3 = _reshape(_transpose(a, perm=[sa.index(c) for c in batch + free_a + contract]),
                      shape=(nb, nm, nk))
        b3 = _reshape(_transpose(b, perm=[sb.index(c) for c in batch + contract + free_b]),
                      shape=(nb, nk, nn))
        c3 = _matmul(a3, b3)
        spec = "".join(batch + free_a + free_b)
        arrays = [_reshape(c3, shape=tuple(size[c] for c in spec))] + arrays[2:]
        specs = [spec] + specs[2:]


def _sum_lonely(x, s, other, later):
    lonely = tuple(i for i, c in enumerate(s) if c not in other and c not in later)
    if not lonely:
        return x, s
    return (IMPLS[_st.reduce_sum_p](x, axes=lonely, keepdims=False),
            "".join(c for i, c in enumerate(s) if i not in lonely))


# --- indexing ------------------------------------------------------------------------------------

def _basic_view(x, spec):
    shape, strides, offset, axis = [], [], x.offset, 0
    for e in spec:
        kind = e[0]
        if kind == "s":
            start, stop, step = e[1:]
            n = len(range(start, stop, step))
            shape.append(n)
            strides.append(step * x.strides[axis])
            if n:
                offset += start * x.strides[axis]
            axis += 1
        elif kind == "i":
            offset += e[1] * x.strides[axis]
            axis += 1
        elif kind == "n":
            shape.append(1)
            strides.append(0)
    return _view(x, tuple(shape), tuple(strides), offset)


def _index_plan(x, spec, arrays):
    """Region shape and the kernel's addressing of ``x[spec]`` (see kernels.cuda.index)."""
    from .primitives.indexing import _adjacent
    ishape = np.broadcast_shapes(*[np.shape(a) for a in arrays])
    istrides = contiguous_strides(ishape)
    dims = []  # (size, coef, istr)
    base, axis, placed = x.offset, 0, False
    isrc, idim = [], []
    adjacent = _adjacent(spec)
    if not adjacent:
        dims += [(d, 0, s) for d, s in zip(ishape, istrides)]
        placed = True
    for e in spec:
        kind = e[0]
        if kind == "s":
            start, stop, step = e[1:]
            n = len(range(start, stop, step))
            dims.append((n, step * x.strides[axis], 0))
            if n:
                base += start * x.strides[axis]
            axis += 1
        elif kind == "i":
            base += e[1] * x.strides[axis]
            axis += 1
        elif kind == "n":
            dims.append((1, 0, 0))
        elif kind == "a":
            if not placed:
                dims += [(d, 0, s) for d, s in zip(ishape, istrides)]
                placed = True
            isrc.append(x.strides[axis])
            idim.append(x.shape[axis])
            axis += 1
    return ishape, dims, base, tuple(isrc), tuple(idim)


def _index_rows(arrays, ishape, idim):
    """The index arrays broadcast to ``ishape`` as the int64 rows of one device array;
    returns it and whether any came from the device (then bounds are checked there)."""
    P = max(size_of(ishape), 1)
    on_device = any(isinstance(a, GpuArray) for a in arrays)
    if not on_device:
        rows = np.empty((len(arrays), P), np.int64)
        for k, (a, n) in enumerate(zip(arrays, idim)):
            a = np.asarray(a)
            if a.dtype.kind not in "iub":
                raise IndexError(f"arrays used as indices must be of integer type, got {a.dtype}")
            if a.size and (a.min() < -n or a.max() >= n):
                bad = a[(a < -n) | (a >= n)].flat[0]
                raise IndexError(f"index {bad} is out of bounds for axis with size {n}")
            rows[k, :size_of(ishape)] = np.broadcast_to(a, ishape).reshape(-1)
        return backend().cuda.to_device(rows), False
    cuda = backend().cuda
    rows = cuda.device_array((len(arrays), P), np.int64)
    flat = GpuArray(rows.reshape(len(arrays) * P), (len(arrays) * P,), np.int64)
    for k, a in enumerate(arrays):
        a = _as_gpu(a)
        if a.dtype.kind not in "iub":
            raise IndexError(f"arrays used as indices must be of integer type, got {a.dtype}")
        if size_of(ishape):
            target = _view(flat, ishape, contiguous_strides(ishape), k * P)
            _run_cast([_broadcast_view(a, ishape)], ishape, np.int64, out=target)
    return rows, True


def _no_index():
    cuda = backend().cuda
    return cuda.to_device(np.zeros((1, 1), np.int64)), (0,), (1,)


def _check_index_error(err):
    if err.copy_to_host()[0]:
        raise IndexError("an index is out of bounds for the axis it indexes (found on the GPU)")


def _gather(x, *arrays, spec):
    aval = _abstract(_ix.gather_p, (x,) + arrays, {"spec": spec})
    if not arrays:
        return _basic_view(x, spec)
    ishape, dims, base, isrc, idim = _index_plan(x, spec, arrays)
    rshape = tuple(d[0] for d in dims)
    assert rshape == tuple(aval.shape), (rshape, aval.shape)
    idx, check = _index_rows(arrays, ishape, idim)
    err = backend().cuda.to_device(np.zeros(1, np.int32))
    buf = backend().index.gather(x.buf, base, rshape, tuple(d[1] for d in dims),
                                 tuple(d[2] for d in dims), idx, isrc, idim, err, x.dtype)
    if check:
        _check_index_error(err)
    return _new(buf, rshape, x.dtype)


def _scatter(operand, updates, *arrays, spec, mode):
    aval = _abstract(_ix.scatter_p, (operand, updates) + arrays, {"spec": spec, "mode": mode})
    operand = _as_gpu(operand)
    # a fresh contiguous copy in the result dtype, then write into it
    out = GpuArray(_run_cast([operand], operand.shape, aval.dtype),
                   operand.shape, aval.dtype)
    updates = _as_gpu(updates, aval.dtype)
    err = backend().cuda.to_device(np.zeros(1, np.int32))
    if arrays:
        ishape, dims, base, isrc, idim = _index_plan(out, spec, arrays)
        idx, check = _index_rows(arrays, ishape, idim)
    else:
        region = _basic_view(out, spec)
        dims = list(zip(region.shape, region.strides, [0] * region.ndim))
        base = region.offset
        idx, isrc, idim = _no_index()
        check = False
    rshape = tuple(d[0] for d in dims)
    try:
        fits = np.broadcast_shapes(updates.shape, rshape) == rshape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"shape mismatch: value array of shape {updates.shape} could not be "
                         f"broadcast to indexing result of shape {rshape}")
    u = _broadcast_view(updates, rshape)
    backend().index.scatter(out.buf, base, rshape, tuple(d[1] for d in dims),
                            tuple(d[2] for d in dims), idx, isrc, idim, err, u.buf, u.offset,
                            u.strides, mode, bool(arrays))
    if check:
        _check_index_error(err)
    return out


# --- linear algebra ------------------------------------------------------------------------------

def _stack_copy(a, batch, dtype):
    """``a`` broadcast to ``batch + a.shape[-2:]`` as a new contiguous array of ``dtype``."""
    shape = tuple(batch) + a.shape[-2:]
    buf = _run_cast([_broadcast_view(a, shape)], shape, dtype)
    return GpuArray(buf, shape, dtype)


def _lu(a, dtype):
    batch = a.shape[:-2]
    lu = _stack_copy(a, batch, dtype)
    n = a.shape[-1]
    B = size_of(batch)
    piv, info, sign = backend().linalg.lu_factor(lu.buf, n, B)
    return lu, piv, info, sign, n, B


def _singular(info, B):
    return B and bool(info.copy_to_host()[:B].any())


def _solve_into(lu, piv, rhs, n, B):
    r = rhs.shape[-1]
    backend().linalg.lu_solve(lu.buf, piv, rhs.buf, n, r, B)
    return rhs


def _inv(a):
    aval = _abstract(_la.inv_p, (a,), {})
    lu, piv, info, sign, n, B = _lu(a, aval.dtype)
    if _singular(info, B):
        raise np.linalg.LinAlgError("Singular matrix")
    eye = _upload(np.eye(n, dtype=aval.dtype))
    rhs = _stack_copy(eye, a.shape[:-2], aval.dtype)
    return _solve_into(lu, piv, rhs, n, B)


def _solve(a, b):
    aval = _abstract(_la.solve_p, (a, b), {})
    a, b = _as_gpu(a), _as_gpu(b)
    vector = b.ndim == 1
    b2 = _view(b, b.shape + (1,), b.strides + (0,), b.offset) if vector else b
    if b2.ndim < 2 or b2.shape[-2] != a.shape[-1]:
        raise ValueError(f"solve: a of shape {a.shape} and b of shape {b.shape} do not match: "
                         f"b needs {a.shape[-1]} rows (its {'only' if vector else 'second-to-last'}"
                         f" axis)")
    batch = np.broadcast_shapes(a.shape[:-2], b2.shape[:-2])
    a_full = _broadcast_view(a, batch + a.shape[-2:])
    lu, piv, info, sign, n, B = _lu(a_full, aval.dtype)
    if _singular(info, B):
        raise np.linalg.LinAlgError("Singular matrix")
    rhs = _stack_copy(b2, batch, aval.dtype)
    x = _solve_into(lu, piv, rhs, n, B)
    return _reshape(x, shape=aval.shape)


def _det_parts(a, prim):
    aval = _abstract(prim, (a,), {})
    dtype = (aval[0] if isinstance(aval, (list, tuple)) else aval).dtype
    batch = a.shape[:-2]
    if a.shape[-1] == 0:
        ones = _upload(np.ones(batch, dtype))
        return ones, ones, _upload(np.zeros(batch, dtype))
    lu, piv, info, sign, n, B = _lu(a, dtype)
    det, sgn, logdet = backend().linalg.lu_det(lu.buf, sign, n, B, dtype)
    return _new(det, batch, dtype), _new(sgn, batch, dtype), _new(logdet, batch, dtype)


def _det(a):
    return _det_parts(a, _la.det_p)[0]


def _slogdet(a):
    _, sign, logdet = _det_parts(a, _la.slogdet_p)
    return sign, logdet


def _cholesky(a):
    aval = _abstract(_la.cholesky_p, (a,), {})
    batch = a.shape[:-2]
    low = _stack_copy(a, batch, aval.dtype)
    B = size_of(batch)
    info = backend().linalg.cholesky(low.buf, a.shape[-1], B)
    if _singular(info, B):
        raise np.linalg.LinAlgError(
            "cholesky: the matrix is not positive definite (Matrix is not positive definite). "
            "Cholesky needs a symmetric positive-definite matrix; add a small multiple of the "
            "identity if it is only semi-definite.")
    return low


# --- the table -----------------------------------------------------------------------------------

def _register():
    _register_elementwise()
    register_fused_backend(GpuArray, fused_vjp)
    IMPLS.update({
        _st.reshape_p: _reshape,
        _st.transpose_p: _transpose,
        _st.broadcast_to_p: _broadcast_to,
        _st.convert_element_type_p: _convert,
        _st.stop_gradient_p: lambda x: x,
        _st.concatenate_p: _concatenate,
        _st.split_p: _split,
        _st.reduce_sum_p: _reduction_impl(_st.reduce_sum_p, "sum"),
        _red.reduce_prod_p: _reduction_impl(_red.reduce_prod_p, "prod"),
        _red.reduce_max_p: _reduction_impl(_red.reduce_max_p, "max", check_empty=True),
        _red.reduce_min_p: _reduction_impl(_red.reduce_min_p, "min", check_empty=True),
        _red.logsumexp_p: _logsumexp,
        _red.argmax_p: _arg_impl(_red.argmax_p, True),
        _red.argmin_p: _arg_impl(_red.argmin_p, False),
        _red.cumsum_p: _cumsum,
        _ix.argsort_p: _argsort,
        _la.matmul_p: _matmul,
        _la.einsum_p: _einsum,
        _ix.gather_p: _gather,
        _ix.scatter_p: _scatter,
        _la.inv_p: _inv,
        _la.solve_p: _solve,
        _la.det_p: _det,
        _la.slogdet_p: _slogdet,
        _la.cholesky_p: _cholesky,
    })
    # (primitives that only evaluate others register themselves: funcgrad.devices.GPU)


def _attach_methods():
    from . import tree
    from .numpy._convert import register_array_type
    from .numpy._methods import _array_function, attach_array_methods
    saved = {name: GpuArray.__dict__[name] for name in (
        "__array__", "__bool__", "__float__", "__int__", "__complex__", "__index__", "item",
        "tolist", "__repr__")}
    attach_array_methods(GpuArray)
    for name, fn in saved.items():
        setattr(GpuArray, name, fn)
    register_array_type(GpuArray)

    # functions whose result's shape depends on the values run on a host copy
    host_functions = {np.nonzero, np.argwhere, np.flatnonzero, np.array_equal}
    active = threading.local()

    def __array_function__(self, func, types, args, kwargs):
        if func in host_functions:
            return func(*device_get(list(args)), **device_get(kwargs))
        running = active.__dict__.setdefault("funcs", set())
        if func in running:
            # funcgrad.numpy handed a plain (untraced) array back to NumPy itself, as
            # fnp.cumprod does: compute that on a host copy and bring the result back.
            result = func(*device_get(list(args)), **device_get(kwargs))
            return tree.tree_map(lambda v: _upload(v) if isinstance(v, np.ndarray) else v,
                                 result)
        running.add(func)
        try:
            return _array_function(self, func, types, args, kwargs)
        finally:
            running.discard(func)
    GpuArray.__array_function__ = __array_function__


_register()
_attach_methods()
