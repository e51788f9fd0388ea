"""``fg.jit``: whole functions, derivatives included, compiled into fused Numba kernels.

``fg.jit(f, static_argnums=(), static_argnames=(), wait=None)`` (also a decorator) is
:func:`funcgrad.jit.api.jit`; this package is callable so that ``fg.jit(f)`` and the
submodules (``funcgrad.jit.lower`` ...) share one name.

* :mod:`.api`         ``jit`` and the ``jit_call`` primitive with its transform rules;
* :mod:`.signature`   what a call is specialised to: argument avals, ShapeDtypeStruct,
  the fast path's key, static arguments' keys;
* :mod:`.stages`      ahead of time, as JAX's stages: Traced, Lowering, Compiled;
* :mod:`.cost`        a compiled graph's cost estimate (``cost_analysis()``);
* :mod:`.trace`       abstract tracing into a Graph;
* :mod:`.passes`      graph rewrites (inlining, constants, CSE, DCE);
* :mod:`.derive`      derived graphs: a transform applied to a graph (jvp, vjp, vmap);
* :mod:`.lower`       Graph -> Python/Numba source: kernels, and fallbacks to primitives'
  impls between them;
* :mod:`.lowerable`   which equations a kernel computes, and decompositions;
* :mod:`.block`       a kernel's statements, per primitive (reductions, BLAS, slicing,
  control flow);
* :mod:`.fusion`      elementwise equations fused into loops (with sums, bands, pads);
* :mod:`.outline`     a large kernel's loops as functions of their own, one per structure;
* :mod:`.elementwise` an elementwise equation as an expression, from its scalar definition;
* :mod:`.complexloop` complex elements in fused loops, with NumPy's bits (checked here);
* :mod:`.source`      names, kernel functions and source-text helpers;
* :mod:`.runtime`     helpers the generated kernels call (NumPy-order reductions...);
* :mod:`.cache`       loading generated modules, with Numba's on-disk cache.

The package loads :mod:`.api` on first use, not when it is imported, and :mod:`.api`
loads the compiler (:mod:`.call` and what it imports) and the stages when first needed
(most often on the background compiler's thread, after a first call has returned).
:mod:`funcgrad.lax` is built on the graph tools here (trace, passes, derive) and the
compiler lowers lax's primitives, so importing one of those tools must not import the
compiler.
"""
import sys
import types

__all__ = ["jit", "JitFunction", "jit_call_p", "compile_graph", "eval_shape", "Traced",
           "Lowering", "Compiled", "ShapeDtypeStruct"]


def __getattr__(name):
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import api
    return getattr(api, name)


class _CallableModule(types.ModuleType):
    """``funcgrad.jit`` is both this package and the ``jit`` function."""

    def __call__(self, fun=None, *, static_argnums=(), static_argnames=(), wait=None,
                 **hints):
        from .api import jit
        return jit(fun, static_argnums=static_argnums, static_argnames=static_argnames,
                   wait=wait, **hints)


sys.modules[__name__].__class__ = _CallableModule
