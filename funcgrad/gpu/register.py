"""Registration: fills :data:`~funcgrad.gpu.dispatch.IMPLS` with every GPU implementation,
plugs the fused VJP kernels into elementwise reverse mode, and gives
:class:`~funcgrad.gpu.array.GpuArray` NumPy's operators, methods and protocols (those
of ``funcgrad.numpy``, so a GPU array behaves like a traced one)."""
import threading

import numpy as np

from .. import tree
from ..numpy._convert import register_array_type
from ..numpy._methods import _array_function, attach_array_methods
from ..primitives import reductions as _red
from ..primitives import structural as _st
from ..primitives._elementwise import register_fused_backend
from .array import HOST_METHODS, GpuArray, device_get, upload
from .decompositions import decomposition_impls
from .dispatch import register_kernels
from .elementwise import elementwise_impls, fused_vjp
from .fft import fft_impls
from .host import host_impls
from .indexing import indexing_impls
from .linalg import linalg_impls
from .matmul import matmul_impls
from .reductions import reduction_impls
from .structural import structural_impls

__all__ = ["register"]

# functions whose result's shape depends on the values: they run on a host copy
_HOST_FUNCTIONS = {np.nonzero, np.argwhere, np.flatnonzero, np.array_equal}


def register():
    """Fill the table and attach the array methods (once, when funcgrad.gpu is imported)."""
    register_kernels(elementwise_impls(), elementwise=True)
    for impls in (structural_impls(), matmul_impls(), indexing_impls(), fft_impls()):
        register_kernels(impls, takes_complex=impls)
    reductions = reduction_impls()
    register_kernels(reductions, takes_complex=[_st.reduce_sum_p, _red.reduce_prod_p,
                                                _red.cumsum_p])
    for impls in (linalg_impls(), decomposition_impls()):  # real numbers only
        register_kernels(impls)
    register_kernels(host_impls(), takes_complex=host_impls())
    register_fused_backend(GpuArray, fused_vjp)
    _attach_methods()


def _attach_methods():
    own = {name: GpuArray.__dict__[name] for name in HOST_METHODS}
    attach_array_methods(GpuArray)
    for name, method in own.items():
        setattr(GpuArray, name, method)
    register_array_type(GpuArray)
    active = threading.local()

    def __array_function__(self, func, types, args, kwargs):
        if func in _HOST_FUNCTIONS:
            return func(*device_get(list(args)), **device_get(kwargs))
        running = active.__dict__.setdefault("funcs", set())
        if func in running:
            # funcgrad.numpy handed a plain (untraced) array back to NumPy itself, as
            # fnp.cumprod does: compute that on a host copy and bring the result back.
            result = func(*device_get(list(args)), **device_get(kwargs))
            return tree.tree_map(lambda v: upload(v) if isinstance(v, np.ndarray) else v, result)
        running.add(func)
        try:
            return _array_function(self, func, types, args, kwargs)
        finally:
            running.discard(func)
    GpuArray.__array_function__ = __array_function__
