"""The vector maths (``exp``, ``log``, ``log1p``, ``sin``, ``cos``, ``tanh``) of an IR loop
(:mod:`.irwrite`) as functions of the kernel's module, each written once per module and
called from every loop, instead of their bodies written into each loop.

LLVM's work on a loop function grows with its body: the loop vectoriser, instruction
combining, instruction selection and register allocation go over every copy of every
inlined routine, and a vectorised loop holds three (the vector body, the vector
epilogue, the scalar remainder).  In the 200-operation chain of
``benchmarks/jit_compile.py`` the 18 inlined sin/cos bodies were most of the five loops'
IR.  Here each routine is one scalar function (``noinline``, for the remainders) that
names its vector variants in the ``vector-function-abi-variant`` attribute, so the loop
vectoriser calls ``fgvm_sin_v8`` on eight lanes where it would have inlined a body: one
copy of each routine per width per module.

The variants are written from the same text (:mod:`funcgrad.kernels.cpu.vbodies`) by
:mod:`funcgrad.kernels.cpu.vmath`'s emitter over LLVM vectors: lane for lane the same IEEE
operations in the same order as the scalar body (no fast-math flags, no FMA contraction),
so a lane's result has the scalar's bits.
"""
import functools
import hashlib

from llvmlite import ir
from llvmlite.ir.values import FunctionAttributes

__all__ = ["call", "name", "WIDTHS", "drop_unused"]

_DBL = ir.DoubleType()


def _widths():
    """The float64 lane counts the loop vectoriser may choose on the CPU Numba compiles
    for: 8 or 4 with AVX-512 (LLVM prefers 256-bit vectors on some of those CPUs), 4 with
    AVX, 2 with SSE2 only, all three when Numba targets another CPU (NUMBA_CPU_NAME).  A
    variant no loop calls is LLVM's work for nothing: the 2-lane ones were ~10% of the
    200-operation chain's cold compile on an AVX-512 machine."""
    from numba.core import config
    if config.CPU_NAME:
        return (2, 4, 8)
    import llvmlite.binding as llvm
    features = llvm.get_host_cpu_features()
    if features.get("avx512f"):
        return (4, 8)
    return (4,) if features.get("avx") else (2,)


WIDTHS = _widths()


class _Variants(FunctionAttributes):
    """Function attributes plus the string attribute naming the vector variants (which
    llvmlite's attribute set does not list)."""

    def __init__(self, scalar, widths):
        super().__init__()
        self.mappings = ",".join(f"_ZGV_LLVM_N{n}v_{scalar}({scalar}_v{n})" for n in widths)

    def _to_list(self, ret_type):
        return super()._to_list(ret_type) + [
            f'"vector-function-abi-variant"="{self.mappings}"']


def _define(module, name, ty, body, linkage):
    fn = ir.Function(module, ir.FunctionType(ty, [ty]), name)
    fn.linkage = linkage
    fn.attributes.add("nounwind")
    builder = ir.IRBuilder(fn.append_basic_block("entry"))
    builder.ret(body(builder, fn.args[0]))
    return fn


@functools.lru_cache(maxsize=None)
def name(routine):
    """The symbol of ``routine``'s scalar function (``+ "_v8"``: its 8-lane variant).  The
    variants are ``weak_odr``: one definition per process, whichever kernel (compiled now,
    or loaded from the disk cache) came first, so the name carries a digest of the text
    they are written from: a kernel cached by another version of it keeps its own."""
    from ..kernels.cpu import vbodies
    with open(vbodies.__file__, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:8]
    return f"fgvm_{routine}_{digest}"


def _function(module, routine):
    """The scalar function of ``routine`` in ``module``, defined (with its variants) on
    first use."""
    from ..kernels.cpu import vbodies, vmath
    name_ = name(routine)
    fn = module.globals.get(name_)
    if fn is not None:
        return fn
    text = getattr(vbodies, "_" + routine)
    variants = []
    for n in WIDTHS:
        def lanes(builder, x, n=n):
            m = vmath._Emit(builder, n)
            return text(m, vmath._V(m, x)).v
        # (weak_odr: the vectoriser calls them only at the end of the pipeline, so
        # nothing may remove them before; one text, so one definition in every module)
        variants.append(_define(module, f"{name_}_v{n}", ir.VectorType(_DBL, n), lanes,
                                "weak_odr"))

    def scalar(builder, x):
        m = vmath._Emit(builder)
        return text(m, vmath._V(m, x)).v
    fn = _define(module, name_, _DBL, scalar, "internal")
    # out of line: the vectoriser replaces its calls by the variants' (an inlined body it
    # would vectorise again in every loop); the scalar remainders call it
    fn.attributes = _Variants(name_, WIDTHS)
    fn.attributes.add("nounwind")
    fn.attributes.add("noinline")
    return fn


def call(builder, routine, x, define=True):
    """``routine(x)`` (a float64 LLVM value) as a call of the module's function for it,
    defined with its vector variants on first use, or with ``define=False`` only declared."""
    module = builder.module
    if define:
        fn = _function(module, routine)
    else:
        fn = module.globals.get(name(routine)) or ir.Function(
            module, ir.FunctionType(_DBL, [_DBL]), name(routine))
    return builder.call(fn, [x])



def drop_unused(module, target_machine):
    r"""Remove from ``module`` (an llvmlite binding module, after its optimisation
    pipeline) the vector variants no loop calls, so no machine code is made for them.

    They are ``weak_odr`` until then because the vectoriser picks its widths late in the
    pipeline; after it, ``linkonce_odr`` (the same one-definition-per-process linking,
    but discardable) lets global DCE drop the unreferenced ones: on this AVX-512 CPU
    (znver4) the vectoriser takes 8 lanes and the 4-lane variants were ~5% of the
    200-operation chain's cold compile.

    >>> import llvmlite.binding as llvm
    >>> from numba.core.registry import cpu_target
    >>> m = llvm.parse_assembly("define weak_odr <4 x double> @fgvm_sin_x_v4("
    ...                         "<4 x double> %a) {\n  ret <4 x double> %a\n}\n")
    >>> drop_unused(m, cpu_target.target_context.codegen()._tm)
    >>> [f.name for f in m.functions]
    []
    """
    import llvmlite.binding as llvm
    variants = [fn for fn in module.functions
                if fn.name.startswith("fgvm_") and fn.name.endswith(("_v2", "_v4", "_v8"))
                and not fn.is_declaration]
    for fn in variants:
        fn.linkage = llvm.Linkage.linkonce_odr
    if variants:
        pm = llvm.create_new_module_pass_manager()
        pm.add_global_dead_code_eliminate_pass()
        pm.run(module, llvm.create_pass_builder(target_machine,
                                                llvm.create_pipeline_tuning_options()))
