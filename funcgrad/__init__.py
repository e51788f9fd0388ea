"""funcgrad: composable automatic differentiation for Python and NumPy.

>>> import numpy as np, funcgrad as fg
>>> fg.grad(lambda x: np.sum(np.tanh(x) ** 2))(np.zeros(3))
array([0., 0., 0.])

Transforms (``grad``, ``jvp``, ``vjp``, ``vmap``, ``jacfwd``, ``hessian``...)
are tracing interpreters that compose to any depth; ``funcgrad.numpy``
mirrors NumPy, and plain ``numpy`` code works on traced values too.
"""
from . import core, tree, primitives, interpreters  # noqa: F401  (registers primitives)
from . import numpy  # noqa: F401  (attaches array methods to tracers)
from .api import grad, jvp, linearize, value_and_grad, vjp, vmap
from .core import ConcretizationError, EscapedTracerError
from .interpreters.graph import Graph
from .jacobians import elementwise_grad, hessian, hvp, jacfwd, jacobian, jacrev, vhp
from .primitives.structural import stop_gradient
from .capture import make_graph
from .custom import Function, FunctionCtx, checkpoint, custom_jvp, custom_vjp
from . import forward_ad  # noqa: F401
from .modes import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                    no_grad, set_grad_enabled)
# Debugging tools: gradcheck, anomaly detection, profiler, saved-value hooks (fg.graph).
from . import graph, profiler  # noqa: F401
from .anomaly import (detect_anomaly, is_anomaly_check_nan_enabled, is_anomaly_enabled,
                      set_detect_anomaly)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
# The eager Tensor (PyTorch-style dynamic graph) and fg.autograd.grad / backward.
from .tensor import Tensor, ones, zeros
from . import autograd  # noqa: F401
# GPU arrays (numba.cuda kernels); imports no CUDA until the first device_put.
from .gpu import device_get, device_put

# CPU kernels: thread count and ahead-of-time compilation (kernels build lazily otherwise).
from .kernels_config import get_num_threads, set_num_threads, warmup
# Compilation of whole functions (fg.jit) and control flow on traced values (fg.lax).
from . import jit  # noqa: E402  (a callable package: fg.jit(f) is funcgrad.jit.api.jit)
from . import lax  # noqa: F401,E402

__version__ = "0.1.0"

__all__ = [
    "warmup", "set_num_threads", "get_num_threads",
    "grad", "value_and_grad", "vjp", "jvp", "linearize", "vmap", "jacfwd", "jacrev",
    "jacobian", "hessian", "hvp", "vhp", "elementwise_grad", "stop_gradient", "make_graph",
    "Graph", "tree", "numpy", "ConcretizationError", "EscapedTracerError", "no_grad",
    "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
    "is_inference_mode_enabled", "custom_jvp", "custom_vjp", "Function", "FunctionCtx",
    "checkpoint", "forward_ad",
    "gradcheck", "gradgradcheck", "GradcheckError", "detect_anomaly", "set_detect_anomaly",
    "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "profiler", "graph",
    "Tensor", "ones", "zeros", "autograd",
    "device_put", "device_get",
    "jit", "lax",
]
