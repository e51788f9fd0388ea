"""Arrays on an NVIDIA GPU: :class:`GpuArray`, :func:`device_put`, :func:`device_get`.

>>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp   # doctest: +SKIP
>>> x = fg.device_put(np.linspace(-3, 3, 1_000_000), "cuda")      # doctest: +SKIP
>>> g = fg.grad(lambda x: fnp.sum(fnp.tanh(x) ** 2))(x)          # doctest: +SKIP
>>> np.asarray(g)                              # copied to the host when asked  # doctest: +SKIP

Every primitive that meets a GPU array runs its GPU implementation; transforms need
nothing of their own.  Importing funcgrad imports neither Numba's CUDA target nor the
kernels; the first :func:`device_put` to ``"cuda"`` does, and raises
:class:`CudaUnavailableError` saying why when it cannot (no ``numba-cuda``, no driver,
no GPU).  An operation that mixes a GPU array with the user's NumPy array raises
:class:`DeviceMismatchError` (see :mod:`.dispatch` for how funcgrad tells the user's
arrays from its own constants).

Modules, one job each:

``array``        the array type, loading the backend, moving data, views and copies
``dispatch``     the table of implementations (:data:`IMPLS`), placing operands, devices
``elementwise``  kernels generated from each elementwise primitive, and fused VJPs
``complex_code`` the complex element code of those kernels (complex64, complex128)
``structural``   reshape, transpose, broadcast, cast, concatenate, split
``reductions``   reductions along axes, cumsum, argsort
``matmul``       matmul and einsum
``indexing``     gather and scatter
``linalg``       inv, solve, det, slogdet, cholesky
``decompositions``  svd, svdvals, eigh, eigvalsh, qr, pinv (Jacobi, Householder); eig refused
``fft``          fft, rfft, irfft along an axis, any length (radix-2 Stockham, Bluestein)
``register``     fills the table; NumPy's methods and protocols on GpuArray
"""
from .array import CudaUnavailableError, GpuArray, device_get, device_put
from .dispatch import IMPLS, DeviceMismatchError, missing_gpu_primitives
from .elementwise import fused_vjp
from .register import register as _register

__all__ = ["GpuArray", "device_put", "device_get", "CudaUnavailableError",
           "DeviceMismatchError", "IMPLS", "missing_gpu_primitives", "fused_vjp"]

_register()
