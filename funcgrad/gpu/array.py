"""The GPU array type and moving data: :class:`GpuArray`, loading the CUDA backend,
:func:`device_put` / :func:`device_get`, uploads, views and copies.

Layout: a GpuArray is a 1-d device buffer plus ``shape``, element ``strides`` and
``offset``, as a NumPy view is.  ``transpose``, ``broadcast_to``, basic slicing,
``split`` and ``reshape`` of contiguous arrays are views (no kernel, no copy); every
kernel reads strided operands directly.  Arrays are immutable, so views are safe to
share.

Importing this module imports neither Numba's CUDA target nor the kernels: the first
:func:`backend` call does (the first :func:`device_put` to ``"cuda"``), and raises
:class:`CudaUnavailableError` saying why when it cannot.
"""
import operator
import threading

import numpy as np

from ..core import Tracer
from ..kernels.cuda._layout import contiguous_strides, is_contiguous, size_of

__all__ = ["GpuArray", "CudaUnavailableError", "backend", "device_put", "device_get", "upload",
           "new", "view", "broadcast_view", "contiguous", "cast", "as_gpu", "run_cast", "to_host"]


class CudaUnavailableError(RuntimeError):
    """The CUDA backend cannot be used here (package, driver or GPU missing)."""


# --- the CUDA backend, loaded on first use -------------------------------------------------

_backend = None
_backend_lock = threading.Lock()


class _Backend:
    def __init__(self, cuda):
        from ..kernels.cuda import (_config, elementwise, fft, index, linalg, matmul, reduce,
                                    scan, sort)
        self.cuda = cuda
        self.config = _config
        self.ew = elementwise
        self.reduce = reduce
        self.scan = scan
        self.matmul = matmul
        self.index = index
        self.sort = sort
        self.linalg = linalg
        self.fft = fft
        self.device_id = 0 if _config.SIM else cuda.get_current_device().id


def backend():
    """The loaded CUDA backend (``numba.cuda`` and the kernel modules); raises
    :class:`CudaUnavailableError` explaining why not.

    >>> backend().cuda.is_available()       # doctest: +SKIP
    True
    """
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

    >>> x = fg.device_put(np.arange(6.0).reshape(2, 3))    # doctest: +SKIP
    >>> x.T.shape, x.T.is_contiguous                       # doctest: +SKIP
    ((3, 2), False)
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
        host = to_host(self)
        return host if dtype is None else host.astype(dtype, copy=False)

    def __repr__(self):
        text = repr(to_host(self))
        text = text[text.index("(") + 1:text.rindex(")")] if "(" in text else text
        return f"GpuArray({text}, device='{self.device}')"

    def __bool__(self):
        return bool(to_host(self))

    def __float__(self):
        return float(to_host(self))

    def __int__(self):
        return int(to_host(self))

    def __complex__(self):
        return complex(to_host(self))

    def __index__(self):
        if self.dtype.kind not in "iu":
            raise TypeError(f"only integer arrays can be used as an index, not {self.dtype}")
        return operator.index(to_host(self)[()])

    def item(self, *args):
        return to_host(self).item(*args)

    def tolist(self):
        return to_host(self).tolist()

    @property
    def __cuda_array_interface__(self):
        """Zero-copy hand-off to CuPy, PyTorch, Numba... (contiguous arrays only)."""
        if not self.is_contiguous:
            raise AttributeError("only contiguous GpuArrays export __cuda_array_interface__ "
                                 "(this one is a strided view)")
        ptr = self.buf.__cuda_array_interface__["data"][0] + self.offset * self.itemsize
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (ptr, True),
                "strides": None, "version": 3}


HOST_METHODS = ("__array__", "__bool__", "__float__", "__int__", "__complex__", "__index__",
                "item", "tolist", "__repr__")
"""GpuArray's own methods that copy to the host (funcgrad.numpy's array methods, attached
to every array type, must not replace them)."""


# --- views and copies ----------------------------------------------------------------------------

def new(buf, shape, dtype):
    """A contiguous GpuArray over a whole new device buffer."""
    return GpuArray(buf, shape, dtype)


def view(x, shape, strides, offset):
    """Another layout of ``x``'s buffer (no copy)."""
    return GpuArray(x.buf, shape, x.dtype, strides, offset)


def broadcast_view(x, shape):
    """``x`` broadcast to ``shape`` as a view (zero strides on the broadcast axes)."""
    shape = tuple(shape)
    if x.shape == shape:
        return x
    lead = len(shape) - x.ndim
    strides = [0] * lead + [0 if (d == 1 and s != 1) else st
                            for d, s, st in zip(x.shape, shape[lead:], x.strides)]
    return view(x, shape, strides, x.offset)


def run_cast(operands, shape, dtype, out=None):
    """A copy of ``operands[0]`` converted to ``dtype``: a new buffer, or written into
    ``out`` (a GpuArray view) when given."""
    ew = backend().ew
    source = getattr(operands[0], "dtype", None)
    if source is not None and source.kind == "c" and np.dtype(dtype).kind not in "cb":
        # complex to real keeps the real part, as funcgrad's cast does on the CPU
        return ew.run(ew.CAST_REAL, [source], operands, shape, dtype, out=out)
    return ew.run(ew.CAST, [ew.compute_dtype(dtype)], operands, shape, dtype, out=out)


def contiguous(x):
    """``x`` itself when it is contiguous, else a contiguous copy."""
    if x.is_contiguous:
        return x
    return new(run_cast([x], x.shape, x.dtype), x.shape, x.dtype)


def cast(x, dtype):
    """``x`` in ``dtype`` (``x`` itself when it has it already)."""
    dtype = np.dtype(dtype)
    if x.dtype == dtype:
        return x
    return new(run_cast([x], x.shape, dtype), x.shape, dtype)


def as_gpu(x, dtype=None):
    """A GpuArray for an operand that may be a scalar, optionally cast to ``dtype``."""
    if not isinstance(x, GpuArray):
        x = upload(np.asarray(x, dtype))
    return x if dtype is None else cast(x, dtype)


# --- moving data ---------------------------------------------------------------------------------

def to_host(x):
    """A NumPy copy of GpuArray ``x``."""
    n = x.size
    if n == 0:
        return np.empty(x.shape, x.dtype)
    x = contiguous(x)
    return x.buf[x.offset:x.offset + n].copy_to_host().reshape(x.shape)


def upload(value):
    """A NumPy array (any layout) as a new contiguous GpuArray."""
    value = np.asarray(value)
    if value.dtype.kind in "OSUVMm" or value.dtype.kind == "c" and value.dtype.itemsize > 16:
        raise TypeError(f"GPU arrays hold booleans, integers, real and complex numbers "
                        f"(complex64, complex128); got dtype {value.dtype}")
    if not value.flags.c_contiguous:
        value = value.copy()  # (np.ascontiguousarray would make a 0-d array 1-d)
    cuda = backend().cuda
    if value.size == 0:
        buf = cuda.device_array(0, value.dtype)
    else:
        buf = cuda.to_device(value.reshape(-1))
    return GpuArray(buf, value.shape, value.dtype)


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
    from .. import tree
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
        return upload(np.asarray(leaf))
    return tree.tree_map(put, x)


def device_get(x):
    """Copy GPU arrays in ``x`` (an array or pytree) to the host as NumPy arrays; other
    leaves are returned as they are.

    >>> fg.device_get({"w": fg.device_put(np.ones(2)), "n": 3})     # doctest: +SKIP
    {'n': 3, 'w': array([1., 1.])}
    """
    from .. import tree
    return tree.tree_map(lambda leaf: to_host(leaf) if isinstance(leaf, GpuArray) else leaf, x)
