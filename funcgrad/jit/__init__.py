"""``fg.jit``: whole functions, derivatives included, compiled into fused Numba kernels.

``fg.jit(f, static_argnums=(), static_argnames=())`` (also a decorator) is
:func:`funcgrad.jit.api.jit`; this package is callable so that ``fg.jit(f)`` and the
submodules (``funcgrad.jit.lower`` ...) share one name.

* :mod:`.api`     ``jit`` and the ``jit_call`` primitive with its transform rules;
* :mod:`.trace`   abstract tracing into a Graph;
* :mod:`.passes`  graph rewrites (inlining, constants, CSE, DCE);
* :mod:`.derive`  derived graphs: a transform applied to a graph (jvp, vjp, vmap);
* :mod:`.lower`   Graph -> Python/Numba source (fusion, fallbacks to primitives' impls);
* :mod:`.runtime` helpers the generated kernels call (NumPy-order reductions...);
* :mod:`.vmath`   vectorisable exp, log, log1p, sin, cos, tanh;
* :mod:`.cache`   loading generated modules, with Numba's on-disk cache.
"""
import sys
import types

from .api import JitFunction, compile_graph, jit, jit_call_p

__all__ = ["jit", "JitFunction", "jit_call_p", "compile_graph"]


class _CallableModule(types.ModuleType):
    """``funcgrad.jit`` is both this package and the ``jit`` function."""

    def __call__(self, fun=None, *, static_argnums=(), static_argnames=()):
        return jit(fun, static_argnums=static_argnums, static_argnames=static_argnames)


sys.modules[__name__].__class__ = _CallableModule
