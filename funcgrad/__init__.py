"""funcgrad: composable automatic differentiation for Python and NumPy.

>>> import numpy as np, funcgrad as fg
>>> fg.grad(lambda x: np.sum(np.tanh(x) ** 2))(np.zeros(3))
array([0., 0., 0.])

Transforms (``grad``, ``jvp``, ``vjp``, ``vmap``, ``jacfwd``, ``hessian``...)
are tracing interpreters that compose to any depth; ``funcgrad.numpy``
mirrors NumPy, and plain ``numpy`` code works on traced values too.
"""
import sys as _sys
from typing import TYPE_CHECKING as _TYPE_CHECKING

from ._malloc import keep_freed_memory as _keep_freed_memory
from . import core, dtypes, tree, primitives, interpreters  # noqa: F401  (registers primitives)
from . import numpy  # noqa: F401  (attaches array methods to tracers)
from .api import grad, value_and_grad, vjp
from .forward_mode import jvp, linearize
from .batched import vmap
from .core import ConcretizationError, EscapedTracerError
from .interpreters.graph import Graph
from .jacobians import elementwise_grad, hessian, hvp, jacfwd, jacobian, jacrev, vhp
from .primitives.structural import stop_gradient
from .capture import make_graph, make_jaxpr
from . import forward_ad  # noqa: F401
from .modes import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                    no_grad, set_grad_enabled)

# (eager: the module funcgrad.gradcheck shares the name of the function it holds)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck



def _scipy_special_ufunc(ufunc):
    """SciPy's special-function ufuncs on traced values (``scipy.special.gammaln(x)``
    under ``fg.grad``) become ``funcgrad.scipy.special``'s function of the same name.
    Asked only for a ufunc funcgrad.numpy does not know; SciPy is never imported here:
    a ufunc of it can only arrive once the user's code has imported it."""
    scipy_special = _sys.modules.get("scipy.special")
    name = getattr(ufunc, "__name__", None)
    if scipy_special is None or name is None:
        return None
    if getattr(scipy_special, name, None) is not ufunc:
        # a private ufunc behind one of SciPy's Python functions (zeta(x, q) calls
        # _zeta(x, q)): funcgrad's function of the public name takes the same arguments
        private = _sys.modules.get("scipy.special._ufuncs")
        if name not in _SCIPY_PRIVATE_UFUNCS or getattr(private, name, None) is not ufunc:
            return None
        name = _SCIPY_PRIVATE_UFUNCS[name]
    from .scipy import special as ours
    return getattr(ours, name, None)


_SCIPY_PRIVATE_UFUNCS = {"_zeta": "zeta", "_riemann_zeta": "zeta", "_lambertw": "lambertw"}


def _scipy_twin(path):
    """``funcgrad.scipy``'s object under a dotted name (``"special.logsumexp"``,
    ``"stats.norm.logpdf"``), else None: what errors raised inside SciPy's code name as the
    replacement.  Asked only on that error path (SciPy is loaded then)."""
    from . import scipy as ours
    found = ours
    for part in path.split("."):
        found = getattr(found, part, None)
        if found is None:  # (not None.__init__, which is callable)
            return None
    return found


numpy._methods.register_ufunc_resolver(_scipy_special_ufunc)
numpy._scipy_calls.register_twin_resolver(_scipy_twin)

if _TYPE_CHECKING:  # what the lazy names below resolve to, for type checkers and editors
    from . import autograd, graph, lax, profiler  # noqa: F401
    from .anomaly import (detect_anomaly, is_anomaly_check_nan_enabled,  # noqa: F401
                          is_anomaly_enabled, set_detect_anomaly)
    from .custom import (Function, FunctionCtx, checkpoint, custom_jvp,  # noqa: F401
                         custom_vjp, once_differentiable, custom_gradient)
    from .custom import checkpoint as remat, checkpoint_name  # noqa: F401
    from . import checkpoint_policies, debug  # noqa: F401
    from .callback import pure_callback  # noqa: F401
    from .closures import closure_convert  # noqa: F401
    from .jit.switches import clear_caches, disable_jit, ensure_compile_time_eval  # noqa: F401
    from .naming import named_call, named_scope  # noqa: F401
    from .ready import block_until_ready  # noqa: F401
    from .transposition import linear_transpose  # noqa: F401
    from .eager import Size, Tensor, device, tensor, zeros, ones  # noqa: F401
    from .eager.methods import allclose, equal  # noqa: F401
    from .eager.factories import (arange, as_tensor, empty, empty_like,  # noqa: F401
                                  eye, from_numpy, full, full_like,
                                  get_default_dtype, is_tensor, linspace, logspace,
                                  manual_seed, rand, rand_like, randint, randn, randn_like,
                                  randperm, seed,
                                  set_default_dtype, zeros_like, ones_like)
    from .gpu import device_get, device_put  # noqa: F401
    from .jit.api import eval_shape, jit  # noqa: F401
    from .jit.signature import ShapeDtypeStruct, typeof  # noqa: F401
    from .kernels_config import get_num_threads, set_num_threads, warmup  # noqa: F401
    from . import nn, optim, scipy  # noqa: F401
    from .eager import torch_fft as fft, torch_linalg as linalg  # noqa: F401
    from .eager import torch_special as special  # noqa: F401

# PyTorch's functions of Tensors, named here so that `import funcgrad` does not load the
# eager package (tests/test_tensor_torch.py checks this list against the module's)
_TORCH_FUNCTIONS = (
    "abs absolute acos acosh add addbmm addcdiv addcmul addmm addmv addr all amax amin "
    "aminmax angle any arccos arcsin arctan arctan2 argmax argmin argsort argwhere asin "
    "asinh atan atan2 atanh atleast_1d atleast_2d atleast_3d baddbmm bincount block_diag "
    "bmm broadcast_tensors broadcast_to bucketize can_cast cartesian_prod cat cdist ceil "
    "cholesky chunk clamp clamp_max clamp_min clip clone combinations complex concat "
    "concatenate conj conj_physical copysign corrcoef cos cosh count_nonzero cov cross "
    "cummax cummin cumprod cumsum cumulative_trapezoid deg2rad det detach diag "
    "diag_embed diagflat diagonal diagonal_scatter diff digamma dist div divide dot "
    "dstack einsum eq erf erfc erfinv exp exp2 expm1 fix flatten flip fliplr flipud "
    "float_power floor floor_divide fmax fmin fmod frac frexp gather gcd ge ger gt "
    "hardshrink heaviside histc hsplit hstack hypot imag index_add index_copy index_fill "
    "index_select inner inverse is_complex is_conj is_floating_point is_neg is_nonzero "
    "isclose isfinite isinf isnan isneginf isposinf isreal kron kthvalue lcm le lerp "
    "lgamma log log10 log1p log2 log_softmax logaddexp logaddexp2 logcumsumexp logdet "
    "logical_and logical_not logical_or logical_xor logit logsumexp lt masked_fill "
    "masked_scatter masked_select matmul matrix_exp matrix_power max maximum mean median "
    "meshgrid min minimum mm mode moveaxis movedim msort mul multiply mv nan_to_num "
    "nanmean nanmedian nanquantile nansum narrow narrow_copy ne neg negative nextafter "
    "nonzero norm numel outer permute pinverse polar positive pow prelu prod "
    "promote_types quantile rad2deg ravel real reciprocal relu remainder "
    "repeat_interleave reshape resolve_conj resolve_neg result_type roll rot90 round "
    "rsqrt rsub scatter scatter_add searchsorted select select_scatter sgn sigmoid sign "
    "signbit sin sinc sinh slice_scatter slogdet softmax sort split sqrt square squeeze "
    "stack std std_mean sub subtract sum swapaxes swapdims t take take_along_dim tan "
    "tanh tensor_split tensordot tile topk trace transpose trapezoid trapz tril triu "
    "true_divide trunc unbind unflatten unique unsqueeze var var_mean vdot "
    "view_as_complex view_as_real vsplit vstack where xlogy").split()

# The rest loads on first use, so that `import funcgrad` stays fast (it compiles nothing
# and imports no Numba): name -> (module, attribute or None for the module itself).
_LAZY = {
    "Function": ("custom", "Function"), "FunctionCtx": ("custom", "FunctionCtx"),
    "checkpoint": ("custom", "checkpoint"), "custom_jvp": ("custom", "custom_jvp"),
    "custom_vjp": ("custom", "custom_vjp"), "once_differentiable": ("custom",
                                                                   "once_differentiable"),
    "custom_gradient": ("custom", "custom_gradient"), "remat": ("custom", "checkpoint"),
    "checkpoint_name": ("custom", "checkpoint_name"),
    "checkpoint_policies": ("checkpoint_policies", None),
    # JAX's other names: transposing linear functions, host callbacks, closure conversion
    "linear_transpose": ("transposition", "linear_transpose"),
    "pure_callback": ("callback", "pure_callback"),
    "closure_convert": ("closures", "closure_convert"),
    "named_call": ("naming", "named_call"), "named_scope": ("naming", "named_scope"),
    "debug": ("debug", None),  # jax.debug.print and jax.debug.callback
    "block_until_ready": ("ready", "block_until_ready"),
    # debugging tools: gradcheck, anomaly detection, profiler, saved-value hooks (fg.graph)
    "graph": ("graph", None), "profiler": ("profiler", None),
    "detect_anomaly": ("anomaly", "detect_anomaly"),
    "set_detect_anomaly": ("anomaly", "set_detect_anomaly"),
    "is_anomaly_enabled": ("anomaly", "is_anomaly_enabled"),
    "is_anomaly_check_nan_enabled": ("anomaly", "is_anomaly_check_nan_enabled"),
    # the eager Tensor (PyTorch-style dynamic graph) and fg.autograd.grad / backward
    "Tensor": ("eager", "Tensor"), "Size": ("eager", "Size"), "device": ("eager", "device"),
    **{name: ("eager", name) for name in (
        "tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "empty", "randn",
        "rand", "randint", "randperm", "arange", "linspace", "logspace", "eye",
        "zeros_like", "ones_like",
        "full_like", "empty_like", "randn_like", "rand_like", "manual_seed", "seed",
        "is_tensor", "set_default_dtype", "get_default_dtype", "equal", "allclose",
        # PyTorch's dtype names, as NumPy's scalar types (t.dtype == fg.float32)
        "float32", "float", "float64", "double", "float16", "half", "int64", "long",
        "int32", "int", "int16", "short", "int8", "uint8", "bool", "complex64",
        "complex128", "cfloat", "cdouble")},
    # PyTorch's functions of Tensors (torch.cat, torch.exp...): funcgrad.eager.functions
    **{name: ("eager", name) for name in _TORCH_FUNCTIONS},
    "autograd": ("autograd", None),
    # PyTorch's namespaces of functions of Tensors (torch.linalg.norm(t, ord, dim)...)
    "linalg": ("eager.torch_linalg", None), "special": ("eager.torch_special", None),
    "fft": ("eager.torch_fft", None),
    # GPU arrays (numba.cuda kernels; no CUDA is imported until the first device_put)
    "device_put": ("gpu", "device_put"), "device_get": ("gpu", "device_get"),
    # CPU kernels: thread count and ahead-of-time compilation
    "warmup": ("kernels_config", "warmup"), "set_num_threads": ("kernels_config",
                                                                "set_num_threads"),
    "get_num_threads": ("kernels_config", "get_num_threads"),
    # whole-function compilation and control flow on traced values
    "jit": ("jit", None), "lax": ("lax", None), "typing": ("typing", None),
    "eval_shape": ("jit.api", "eval_shape"),
    "ShapeDtypeStruct": ("jit.signature", "ShapeDtypeStruct"),
    "typeof": ("jit.signature", "typeof"),
    "ensure_compile_time_eval": ("jit.switches", "ensure_compile_time_eval"),
    "disable_jit": ("jit.switches", "disable_jit"),
    "clear_caches": ("jit.switches", "clear_caches"),
    # optimizers (optax-style functions and torch-style classes); SciPy's names; jax.nn's
    "optim": ("optim", None), "scipy": ("scipy", None), "nn": ("nn", None),
    # gradients over dask.array data, on Dask's schedulers (the `dask` extra; not in
    # __all__, so that `from funcgrad import *` needs no Dask)
    "dask": ("dask", None),
}


def __getattr__(name):
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'funcgrad' has no attribute {name!r}") from None
    import importlib
    mod = importlib.import_module(f".{module}", __name__)
    # Bind every name the module provides: importing it set the package attribute of the
    # module's own name (funcgrad.gradcheck), which must stay the function, not the module.
    for other, (m, a) in _LAZY.items():
        if m == module:
            globals()[other] = mod if a is None else getattr(mod, a)
    return globals()[name]


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


# Freed array memory stays in the process for the next call (see funcgrad/_malloc.py).
_keep_freed_memory()

__version__ = "0.1.0"

__all__ = [
    "warmup", "set_num_threads", "get_num_threads",
    "grad", "value_and_grad", "vjp", "jvp", "linearize", "vmap", "jacfwd", "jacrev",
    "jacobian", "hessian", "hvp", "vhp", "elementwise_grad", "stop_gradient", "make_graph",
    "make_jaxpr",
    "Graph", "tree", "dtypes", "numpy", "ConcretizationError", "EscapedTracerError", "no_grad",
    "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
    "is_inference_mode_enabled", "custom_jvp", "custom_vjp", "Function", "FunctionCtx",
    "checkpoint", "checkpoint_name", "checkpoint_policies", "forward_ad",
    "once_differentiable",
    "gradcheck", "gradgradcheck", "GradcheckError", "detect_anomaly", "set_detect_anomaly",
    "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "profiler", "graph",
    "Tensor", "Size", "tensor", "ones", "zeros", "randn", "rand", "arange", "linspace",
    "eye", "full", "zeros_like", "ones_like", "randn_like", "rand_like", "manual_seed",
    "float32", "float64", "double", "int64", "long", "autograd", "is_tensor",
    "set_default_dtype", "get_default_dtype", "from_numpy", "empty",
    "device_put", "device_get",
    "jit", "eval_shape", "ShapeDtypeStruct", "lax", "optim", "scipy", "nn",
    "custom_gradient", "remat", "linear_transpose", "pure_callback", "closure_convert",
    "named_call", "named_scope", "block_until_ready", "disable_jit", "clear_caches",
    "debug", "typeof", "ensure_compile_time_eval",
]
