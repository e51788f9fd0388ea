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

A kernel written whole as IR (:mod:`.irkernel`) only declares the routines it calls
(``how="library"``): each routine is compiled once per process, in a module of its own
(:func:`library`, kept on disk with the kernels), so LLVM optimises and compiles a
kernel's loops and not, again, the routines' bodies.  The declarations carry what the
loop vectoriser needs to call a vector variant it cannot see: the variant's name in the
scalar's ``vector-function-abi-variant`` attribute, the fact that neither touches memory,
and the variants' declarations kept alive in ``llvm.compiler.used`` (an unused
declaration is deleted early in the pipeline, before the vectoriser looks for it; that,
not the attributes, left every loop scalar when this was first tried).
"""
import functools
import hashlib

from llvmlite import ir
from llvmlite.ir.values import FunctionAttributes

__all__ = ["call", "name", "WIDTHS", "library", "keep_variants", "ROUTINES"]

_DBL = ir.DoubleType()
ROUTINES = ("exp", "log", "log1p", "sin", "cos", "tanh")
# (what a declared routine promises LLVM, with nounwind: it only computes, and returns)
_PURE = ("willreturn", "nofree", "nosync", "memory(none)")


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
    """Function attributes plus the string attribute naming the vector variants and any
    ``extra`` attributes (which llvmlite's attribute set does not list)."""

    def __init__(self, scalar, widths, extra=()):
        super().__init__()
        self.extra = list(extra)
        if widths:
            mappings = ",".join(f"_ZGV_LLVM_N{n}v_{scalar}({scalar}_v{n})" for n in widths)
            self.extra.append(f'"vector-function-abi-variant"="{mappings}"')

    def _to_list(self, ret_type):
        return super()._to_list(ret_type) + self.extra


def _define(module, name, ty, body, linkage):
    fn = ir.Function(module, ir.FunctionType(ty, [ty]), name)
    fn.linkage = linkage
    fn.attributes.add("nounwind")
    builder = ir.IRBuilder(fn.append_basic_block("entry"))
    builder.ret(body(builder, fn.args[0]))
    return fn


@functools.lru_cache(maxsize=None)
def name(routine, library=False):
    """The symbol of ``routine``'s scalar function (``+ "_v8"``: its 8-lane variant).  The
    variants are ``weak_odr``: one definition per process, whichever kernel (compiled now,
    or loaded from the disk cache) came first, so the name carries a digest of the text
    they are written from: a kernel cached by another version of it keeps its own.  The
    :func:`library`'s symbols (``library=True``) are named apart from the ones a Numba
    kernel defines for itself, so the two never meet in the engine.

    >>> name("sin").startswith("fgvm_sin_"), name("sin", library=True).startswith("fgvl_")
    (True, True)
    """
    from ..kernels.cpu import vbodies
    with open(vbodies.__file__, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:8]
    return f"{'fgvl' if library else 'fgvm'}_{routine}_{digest}"


def _function(module, routine, linkage=("weak_odr", "internal"), library=False):
    """The scalar function of ``routine`` in ``module``, defined (with its variants) on
    first use; ``linkage``: the variants' and the scalar's."""
    from ..kernels.cpu import vbodies, vmath
    name_ = name(routine, library)
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
                                linkage[0]))

    def scalar(builder, x):
        m = vmath._Emit(builder)
        return text(m, vmath._V(m, x)).v
    fn = _define(module, name_, _DBL, scalar, linkage[1])
    # out of line: the vectoriser replaces its calls by the variants' (an inlined body it
    # would vectorise again in every loop); the scalar remainders call it
    fn.attributes = _Variants(name_, WIDTHS)
    fn.attributes.add("nounwind")
    fn.attributes.add("noinline")
    return fn


def _declared(module, routine):
    """The scalar function of the :func:`library`'s ``routine``, declared in ``module``
    with its vector variants."""
    name_ = name(routine, library=True)
    fn = module.globals.get(name_)
    if fn is None:
        for n in WIDTHS:
            ty = ir.VectorType(_DBL, n)
            variant = ir.Function(module, ir.FunctionType(ty, [ty]), f"{name_}_v{n}")
            variant.attributes = _Variants(variant.name, (), _PURE)
            variant.attributes.add("nounwind")  # (llvmlite prints no attributes without one)
        fn = ir.Function(module, ir.FunctionType(_DBL, [_DBL]), name_)
        fn.attributes = _Variants(name_, WIDTHS, _PURE)
        fn.attributes.add("nounwind")
    return fn


def call(builder, routine, x, how="define"):
    """``routine(x)`` (a float64 LLVM value) as a call of a function for it: the module's,
    defined with its vector variants on first use (``how="define"``) or only declared
    (``"declare"``), or the :func:`library`'s, declared (``"library"``; the module then
    needs :func:`keep_variants`)."""
    module = builder.module
    if how == "define":
        fn = _function(module, routine)
    elif how == "library":
        fn = _declared(module, routine)
    else:
        fn = module.globals.get(name(routine)) or ir.Function(
            module, ir.FunctionType(_DBL, [_DBL]), name(routine))
    return builder.call(fn, [x])


def keep_variants(module):
    """List the :func:`library`'s vector variants ``module`` declares in
    ``llvm.compiler.used``, so that they are still there when the loop vectoriser looks
    for them (an unused declaration is deleted early in the pipeline).

    >>> m = ir.Module()
    >>> f = ir.Function(m, ir.FunctionType(_DBL, [_DBL]), "f")
    >>> b = ir.IRBuilder(f.append_basic_block())
    >>> b.ret(call(b, "sin", f.args[0], how="library"))  # doctest: +ELLIPSIS
    <ir.Ret ...>
    >>> keep_variants(m)
    >>> '@"llvm.compiler.used" = appending global' in str(m)
    True
    """
    i8p = ir.IntType(8).as_pointer()
    variants = [f for f in module.functions
                if f.name.startswith("fgvl_") and f.name.endswith(("_v2", "_v4", "_v8"))]
    if variants:
        ty = ir.ArrayType(i8p, len(variants))
        used = ir.GlobalVariable(module, ty, "llvm.compiler.used")
        used.linkage = "appending"
        used.section = "llvm.metadata"
        used.initializer = ir.Constant(ty, [f.bitcast(i8p) for f in variants])


def library(routine):
    """An LLVM module defining the vector maths ``routine`` (scalar and vector variants,
    external) for the kernels that declare it (``how="library"``): compiled once per
    process and CPU (:mod:`.irkernelcall`).

    >>> m = library("sin")
    >>> sorted(f.name for f in m.functions if not f.is_declaration)[0] == name("sin", True)
    True
    """
    module = ir.Module(name=name(routine, library=True))
    _function(module, routine, ("", ""), library=True)
    return module
