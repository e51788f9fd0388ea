"""Compiling, caching and calling the kernels :mod:`.irkernel` writes as LLVM IR.

The machine code goes into Numba's own execution engine (its target machine, so the
same instructions as a kernel Numba compiles; the C library's symbols resolved as for
Numba's), taking Numba's compiler lock.  The object code is written to the jit cache
folder, named by a hash of the kernel's text, its argument arrays' dtypes and shapes, the
files that write it and the CPU, and loaded from there by a later process.

The call from Python is a call of the compiled function as a builtin (made with
``PyCFunction_NewEx``: ~0.1 us, where a ctypes call cost ~1 us and Numba's dispatch of
the same kernel ~1 us), from a function generated per kernel that checks each
argument's class and dtype and allocates the buffer and the results.
"""
import ctypes
import hashlib
import os
import re
import threading

import numpy as np

from .irkernel import Unsupported, raised_codes, read, write
from .irmaths import library
from .irmaths import name as library_name

__all__ = ["Kernel", "plan"]

_lock = threading.RLock()
_TAG = None


def _tag():
    """What the object code depends on besides the kernel: the writers' text, the loops'
    (:func:`funcgrad.jit.runtime_digest.runtime_tag`: the runtime, the vector maths,
    Numba, NumPy), llvmlite and the CPU.  Computed here, never taken from a caller: a
    process whose first kernel was planned without the runtime's part keyed every object
    it cached without it, and a later version loaded them."""
    global _TAG
    if _TAG is None:
        import llvmlite
        import llvmlite.binding as llvm
        from .runtime_digest import runtime_tag
        here = os.path.dirname(os.path.abspath(__file__))
        text = b""
        for name in ("irkernel.py", "irkernelcall.py", "irmaths.py"):
            with open(os.path.join(here, name), "rb") as f:
                text += f.read()
        text += (runtime_tag() + llvmlite.__version__ + llvm.get_host_cpu_name()
                 + llvm.get_host_cpu_features().flatten()).encode()
        _TAG = hashlib.sha256(text).hexdigest()[:16]
    return _TAG


def _codegen():
    from numba.core.registry import cpu_target
    return cpu_target.target_context.codegen()


def _optimised(text, fname, arrays):
    """The kernel for ``arrays`` written as IR and optimised by one O2 pipeline with the
    loop vectoriser (Numba runs an O0 and an O3 one), as an llvmlite module."""
    return _optimise(write(text, fname, arrays))


def _optimise(module):
    """The llvmlite IR ``module`` parsed and optimised (O2, loop vectoriser, no SLP)."""
    import llvmlite.binding as llvm
    codegen = _codegen()
    module.triple = llvm.get_process_triple()
    module.data_layout = codegen._data_layout
    parsed = llvm.parse_assembly(str(module))
    options = llvm.create_pipeline_tuning_options(speed_level=2)
    options.loop_vectorization = True
    options.slp_vectorization = False
    builder = llvm.create_pass_builder(codegen._tm, options)
    builder.getModulePassManager().run(parsed, builder)
    return parsed


def _object_code(text, fname, arrays):
    """The object code of the kernel for ``arrays``."""
    return _codegen()._tm.emit_object(_optimised(text, fname, arrays))


_loaded_routines: set[str] = set()  # (the vector maths routines added to the engine)
_defined: set[bytes] = set()  # (their symbols, scalar and vector variants)
_SYMBOL = re.compile(rb"fgvl_[A-Za-z0-9_]+")


def _symbols(obj):
    """The vector maths symbols object code ``obj`` defines or calls (its string table's
    ``fgvl_`` names)."""
    return set(_SYMBOL.findall(obj))


def _load_routines(routines):
    """Add the vector maths ``routines`` (:func:`funcgrad.jit.irmaths.library`) to the
    engine, each once per process: loaded from the jit cache folder, or compiled and
    kept there.  The kernels declare them; a kernel's object code needs them loaded
    before its own."""
    import llvmlite.binding as llvm
    for routine in sorted(set(routines) - _loaded_routines):
        symbol = library_name(routine, library=True)
        digest = hashlib.sha256(f"{symbol}\n{_tag()}".encode()).hexdigest()[:32]
        path = _cache_path(f"fgvl_{digest}.o")
        obj = _read_object(path) if path is not None else None
        if obj is None:
            obj = _codegen()._tm.emit_object(_optimise(library(routine)))
            if path is not None:
                _write_bytes(path, obj + hashlib.sha256(obj).digest())
        _codegen()._engine._ee.add_object_file(llvm.ObjectFileRef.from_data(obj))
        _loaded_routines.add(routine)
        _defined.update(_symbols(obj))


def _cache_path(name):
    from ..kernels._source import _folder
    folder = _folder("jit")
    return None if folder is None else os.path.join(folder, name)


def _address(text, key, arrays):
    """The address of the kernel compiled for ``arrays`` (loaded from the disk cache when
    there)."""
    from numba.core.compiler_lock import global_compiler_lock
    signature = repr([(a.dtype.str, a.shape) for a in arrays])
    digest = hashlib.sha256(
        f"{key}\n{signature}\n{_tag()}".encode()).hexdigest()[:32]
    fname = f"fgkernel_{digest}"  # (one symbol per text and arrays' shapes)
    path = _cache_path(f"fgir_{digest}.o")
    with global_compiler_lock, _lock:
        engine = _codegen()._engine
        _load_routines(set().union(*(loop.routines for loop in text.loops.values())))
        obj = _read_object(path) if path is not None else None
        # An object naming a routine this process has not defined would call address 0
        # (the engine resolves an unknown symbol so, silently): compiled again instead.
        if obj is None or not _symbols(obj) <= _defined:
            obj = _object_code(text, fname, arrays)
            if not _symbols(obj) <= _defined:  # pragma: no cover - routines listed wrong
                raise Unsupported("a vector maths routine the kernel calls is not loaded: "
                                  + ", ".join(sorted(map(bytes.decode,
                                                         _symbols(obj) - _defined))))
            if path is not None:
                _write_bytes(path, obj + hashlib.sha256(obj).digest())
        import llvmlite.binding as llvm
        engine._ee.add_object_file(llvm.ObjectFileRef.from_data(obj))
        engine.finalize_object()
        address = engine.get_function_address(fname)
        if not address:  # pragma: no cover - (a call of address 0 would crash the process)
            raise Unsupported(f"the kernel's object code defines no {fname}")
        return address


def _read_object(path):
    """The object code kept at ``path``, or None: missing, not private to this user, or
    not ending with the SHA-256 of the rest (a file cut short is compiled again, never
    handed to the linker)."""
    from ..kernels._source import _private
    try:
        with open(path, "rb") as f:
            data = f.read()
        if _private(path) is not None:
            return None
    except OSError:
        return None
    obj, digest = data[:-32], data[-32:]
    return obj if len(data) > 32 and hashlib.sha256(obj).digest() == digest else None


def _write_bytes(path, data):
    """Write ``data`` to ``path`` atomically (a concurrent writer writes the same bytes); a
    folder that cannot be written leaves the kernel uncached."""
    import tempfile
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        if os.path.exists(tmp):
            os.unlink(tmp)


class _MethodDef(ctypes.Structure):
    _fields_ = [("ml_name", ctypes.c_char_p), ("ml_meth", ctypes.c_void_p),
                ("ml_flags", ctypes.c_int), ("ml_doc", ctypes.c_char_p)]


_METH_FASTCALL = 0x0080


def _builtin(address, owner):
    """A Python builtin function calling the ``METH_FASTCALL`` function at ``address``;
    its method table is kept alive by ``owner``."""
    new = ctypes.pythonapi.PyCFunction_NewEx
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.py_object, ctypes.py_object]
    table = _MethodDef(b"funcgrad_ir_kernel", address, _METH_FASTCALL, None)
    owner._method_tables = getattr(owner, "_method_tables", []) + [table]
    return new(ctypes.addressof(table), None, None)


def _fit(arguments, dtypes):
    """``arguments`` as C-contiguous arrays whose dtype objects are ``dtypes`` (equal ones
    may be other objects), or None when one is not an array of its dtype."""
    out = []
    for a, dtype in zip(arguments, dtypes):
        if type(a) is not np.ndarray or a.dtype != dtype:
            return None
        if not (a.flags.c_contiguous and a.flags.aligned):
            a = np.array(a, order="C")
        if a.dtype is not dtype:
            a = a.view(dtype)
            if a.dtype is not dtype:  # pragma: no cover - NumPy keeps the object given
                return None
        out.append(a)
    return out


def plan(kernel_source, name, loop_sources):
    r"""The :class:`Kernel` of the function ``name`` of a kernel module's text (whose loop
    functions' texts are ``loop_sources``), or None when it is anything but stacks,
    constants, calls of IR loops and repeats (:func:`funcgrad.jit.irkernel.read`).

    >>> import numpy as np
    >>> from funcgrad.jit.source import loop_key
    >>> loop = ("@njit\ndef loop(p0, pk1):\n    for i in range(p0.shape[0]):\n"
    ...         "        pk1[0, i] = p0[i] * 0.5\n")
    >>> text = (f"_loop0 = _rt_loop('{loop_key(loop)}')\n@njit\ndef kernel0(a0):\n"
    ...         "    st0 = np.empty((1, 1, 3), np.float64)\n    _loop0(a0, (st0, 0))\n"
    ...         "    return st0[0, 0].copy()\n")
    >>> plan(text, "kernel0", [loop]).function("kernel0", None)(np.arange(3.0))
    array([0. , 0.5, 1. ])
    """
    read_ = read(kernel_source, name, loop_sources)
    return None if read_ is None else Kernel(*read_)


class Kernel:
    """A kernel :func:`plan` took: :meth:`function` gives the Python function the driver
    calls in place of the Numba kernel."""

    def __init__(self, text, key):
        self.text, self.key = text, key
        self.codes = raised_codes(text)

    def function(self, name, numba_kernel):
        """A function ``name(*params)``: on its first call compiles (or loads) the IR
        kernel for its arguments' dtypes and shapes, then calls it; arguments it was not
        compiled for (another class, dtype, shape or layout), and any first call it cannot
        take (scalars, a dtype the writer lacks), go to ``numba_kernel()``, the Numba
        kernel of the same text (compiled then)."""
        text = self.text
        args = ", ".join(text.params)
        names = {"_nd": np.ndarray, "_empty": np.empty, "_u8": np.uint8, "_fn": None,
                 "_ready": False, "_nb": text.nbytes}
        checks = "".join(f" and {p}.__class__ is _nd and {p}.dtype is _d{k}"
                         for k, p in enumerate(text.params))
        lines = [f"def {name}({args}):", f"    if _ready{checks}:",
                 "        _b = _empty(_nb, _u8)"]
        for k, stack in enumerate(text.alone):
            names[f"_s{k}"], names[f"_t{k}"] = stack.shape[2:], stack.dtype
            lines.append(f"        _o{k} = _empty(_s{k}, _t{k})")
        outs = [f"_o{text.alone.index(stack)}" if stack.where != "buffer"
                else f"_view(_b, {k}).copy()" for k, (stack, _, _) in enumerate(text.results)]
        lines += [f"        _st = _fn({', '.join(text.params + ['_b'] + [f'_o{k}' for k in range(len(text.alone))])})",
                  "        if _st == 0:",
                  f"            return {outs[0] if text.single else '(' + ', '.join(outs) + ',)'}",
                  f"        return _status(_st, ({args}{',' if args else ''}))",
                  f"    return _slow(({args}{',' if args else ''}))"]
        for k in range(len(text.params)):
            names[f"_d{k}"] = None
        state = {"numba": None, "tried": False}

        def numba_call(arguments):
            if state["numba"] is None:
                state["numba"] = numba_kernel()
            return state["numba"](*arguments)

        def status(code, arguments):
            if code < 0:  # (unfit: a copy, contiguous and aligned, may fit; else Numba)
                fitted = _fit(arguments, [names[f"_d{k}"] for k in range(len(arguments))])
                if fitted is not None and any(f is not a for f, a in zip(fitted, arguments)):
                    return fn(*fitted)
                return numba_call(arguments)
            cls, message = self.codes[code - 1]
            raise cls(message)

        def slow(arguments):
            with _lock:  # (a second thread's first call waits for the first's compile)
                if not state["tried"]:
                    state["tried"] = True
                    self._compile(arguments, names)
            if names["_ready"]:
                fitted = _fit(arguments, [names[f"_d{k}"] for k in range(len(arguments))])
                if fitted is not None:  # (now of the checked class and dtype objects)
                    return fn(*fitted)
            return numba_call(arguments)

        def view(buffer, k):
            stack, i, j = text.results[k]
            return np.ndarray(stack.shape, stack.dtype, buffer, stack.offset)[i, j]

        names.update(_status=status, _slow=slow, _view=view)
        exec("\n".join(lines), names)  # noqa: S102
        fn = names[name]
        return fn

    def _compile(self, arguments, names):
        """Compile for ``arguments`` (or load); False when they are not arrays it takes."""
        from .irwrite import MEMORY
        if not all(type(a) is np.ndarray and a.ndim and a.dtype in MEMORY
                   and a.dtype.isnative for a in arguments):
            return False
        arrays = [np.empty(a.shape, a.dtype) for a in arguments]  # (dtype, shape only)
        try:
            address = _address(self.text, self.key, arrays)
        except Unsupported:
            return False
        names["_fn"] = _builtin(address, self)
        for k, a in enumerate(arguments):
            names[f"_d{k}"] = a.dtype
        names["_ready"] = True
        return True
