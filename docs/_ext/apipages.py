"""Writes the API reference pages from the modules' ``__all__`` before Sphinx reads them.

Nothing here is hand-maintained per function: a name added to a module's ``__all__`` gets
its entry on the next build, and a name without a docstring fails the build (a warning,
which ``-W`` makes an error). Pages go to ``docs/api/generated/`` (git-ignored); a file is
rewritten only when its text changes, so Sphinx's incremental builds stay incremental.

Layout, one page per module:

* ``funcgrad``: the top-level names, in the sections of ``TOP_LEVEL`` (a name missing
  from it lands in "Other", so it is never lost);
* ``funcgrad.numpy``: an index page, then one page per family module
  (``funcgrad.numpy.ufuncs``, ...), each with a summary table and every function in full,
  under its public name (``funcgrad.numpy.sin``);
* ``funcgrad.scipy.*``, ``funcgrad.lax``, the tools; ``funcgrad.optim`` and
  ``funcgrad.dask`` once they exist (a module that cannot be imported is left out).
"""
from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)

# The sections of the funcgrad page; a name of funcgrad.__all__ not listed here goes to
# "Other". The order is a reader's order: transforms first.
TOP_LEVEL = {
    "Transforms": [
        "grad", "value_and_grad", "vjp", "jvp", "linearize", "jacfwd", "jacrev", "jacobian",
        "hessian", "hvp", "vhp", "elementwise_grad", "vmap", "stop_gradient", "make_graph",
        "make_jaxpr", "Graph", "eval_shape", "ShapeDtypeStruct", "typeof"],
    "Custom rules": ["custom_jvp", "custom_vjp", "Function", "FunctionCtx",
                     "once_differentiable", "checkpoint", "checkpoint_name"],
    "Eager Tensor (PyTorch style)": [
        "Tensor", "Size", "tensor", "from_numpy", "is_tensor", "zeros", "ones", "empty",
        "full", "eye", "arange", "linspace", "zeros_like", "ones_like", "randn", "rand",
        "randn_like", "rand_like", "manual_seed", "set_default_dtype", "get_default_dtype"],
    "Gradient modes": ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled",
                       "inference_mode", "is_inference_mode_enabled"],
    "Checking and debugging": [
        "gradcheck", "gradgradcheck", "GradcheckError", "detect_anomaly",
        "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled"],
    "Devices and kernels": ["device_put", "device_get", "warmup", "set_num_threads",
                            "get_num_threads"],
    "Errors": ["ConcretizationError", "EscapedTracerError"],
}

# Module pages besides funcgrad and funcgrad.numpy's families, in the order of the index.
# Modules that do not exist yet (another branch is writing them) are skipped.
MODULES = [
    ("funcgrad.jit", "compilation"),
    ("funcgrad.lax", "control flow and jax.lax's operations"),
    ("funcgrad.nn", "jax.nn's activations and softmax"),
    ("funcgrad.nn.initializers", "parameter initializers"),
    ("funcgrad.tree", "pytrees"),
    ("funcgrad.debug", "jax.debug's print and callback"),
    ("funcgrad.checkpoint_policies", "checkpoint policies"),
    ("funcgrad.numpy.linalg", "linear algebra"),
    ("funcgrad.numpy.fft", "discrete Fourier transforms"),
    ("funcgrad.numpy.ma", "masked arrays"),
    ("funcgrad.numpy.testing", "numpy.testing's assertions on Tensors and traced values"),
    ("funcgrad.scipy.special", "special functions"),
    ("funcgrad.scipy.stats", "distributions"),
    ("funcgrad.scipy.stats.contingency", "contingency tables"),
    ("funcgrad.scipy.stats.mstats", "statistics of masked arrays"),
    ("funcgrad.scipy.linalg", "linear algebra"),
    ("funcgrad.scipy.signal", "signal processing"),
    ("funcgrad.scipy.signal.windows", "window functions"),
    ("funcgrad.scipy.integrate", "integration"),
    ("funcgrad.scipy.differentiate", "derivatives with scipy.differentiate's results"),
    ("funcgrad.scipy.optimize", "minimization, root finding and least squares"),
    ("funcgrad.scipy.fft", "Fourier, Hankel, cosine and sine transforms"),
    ("funcgrad.scipy.fftpack", "scipy.fftpack's transforms"),
    ("funcgrad.scipy.ndimage", "filters, morphology, spline interpolation and measurements"),
    ("funcgrad.scipy.cluster.vq", "vector quantization"),
    ("funcgrad.scipy.cluster.hierarchy", "hierarchical clustering"),
    ("funcgrad.scipy.stats.qmc", "quasi-Monte Carlo"),
    ("funcgrad.scipy.interpolate", "1-d splines and interpolation on a grid"),
    ("funcgrad.scipy.sparse", "sparse arrays and their constructors"),
    ("funcgrad.scipy.sparse.linalg", "Krylov solvers"),
    ("funcgrad.scipy.sparse.csgraph", "shortest paths, spanning trees and graph Laplacians"),
    ("funcgrad.scipy.spatial", "distance functions, Procrustes analysis and slerp"),
    ("funcgrad.scipy.spatial.distance", "pairwise distances and their metrics"),
    ("funcgrad.scipy.spatial.transform", "rotations"),
    ("funcgrad.optim", "optimizers"),
    ("funcgrad.forward_ad", "forward-mode AD, PyTorch style"),
    ("funcgrad.autograd", "PyTorch's autograd names"),
    ("funcgrad.autograd.functional", "PyTorch's functional API"),
    ("funcgrad.graph", "saved-value hooks"),
    ("funcgrad.profiler", "profiler"),
    ("funcgrad.graphviz", "pictures of a graph"),
    ("funcgrad.eager", "the eager Tensor's module"),
    ("funcgrad.eager.torch_linalg", "torch.linalg on Tensors, as fg.linalg"),
    ("funcgrad.eager.torch_special", "torch.special on Tensors, as fg.special"),
    ("funcgrad.eager.torch_fft", "torch.fft on Tensors, as fg.fft"),
    ("funcgrad.dask", "dask arrays"),
]

# Members shown on a class's entry: its own public methods and properties, documented or
# not (a Tensor method named as in PyTorch is worth finding even without a docstring).
CLASS_OPTIONS = ["   :members:", "   :undoc-members:", "   :show-inheritance:"]


def _ours(obj) -> bool:
    """Defined in funcgrad (NumPy's own scalar types and functions are re-exported as they
    are; their NumPy-format docstrings are NumPy's to document)."""
    if inspect.ismodule(obj):
        return obj.__name__.startswith("funcgrad")
    module = getattr(obj, "__module__", None) or getattr(type(obj), "__module__", "")
    return str(module).startswith("funcgrad")


def _first_line(obj) -> str:
    doc = inspect.getdoc(obj) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def _heading(text: str, char: str = "=") -> list[str]:
    return [text, char * len(text), ""]


def _entry(module_name: str, name: str, obj) -> list[str]:
    """The autodoc directive that documents ``module_name.name`` in full."""
    if inspect.ismodule(obj):
        return []
    if inspect.isclass(obj):
        options = list(CLASS_OPTIONS)
        # Members a funcgrad base class defines (Tensor's in-place methods live in a mixin)
        # are the class's API too; those of Python's own bases (Exception's) are not.
        outside = [c.__name__ for c in obj.__mro__[1:] if not _ours(c)]
        if len(outside) < len(obj.__mro__) - 1:
            options.append(f"   :inherited-members: {', '.join(outside)}")
        return [f".. autoclass:: {name}", *options, ""]
    if inspect.isroutine(obj):
        return [f".. autofunction:: {name}", ""]
    if getattr(obj, "__doc__", None) == getattr(type(obj), "__doc__", None):
        # An object with no docstring of its own (a Primitive such as funcgrad.lax.cond_p):
        # its class's docstring would describe the class, not this object.
        kind = f"{type(obj).__module__}.{type(obj).__qualname__}"
        return [f".. py:data:: {name}", "", f"   A ``{kind}``; see the functions above.", ""]
    # An instance whose methods are the API (funcgrad.scipy.stats.norm, funcgrad.numpy.r_):
    # documented by its own docstring.
    return [f".. autodata:: {name}", "   :no-value:", ""]


class _Documented:
    """Objects already described in full, by identity, with the name they got: a second
    public name of the same object (``funcgrad.autograd.no_grad`` is ``funcgrad.no_grad``)
    becomes a line pointing to the first, not a second description (Sphinx would refuse
    two descriptions of one class)."""

    def __init__(self):
        self.names: dict[int, tuple[object, str]] = {}

    def first_name(self, obj):
        found = self.names.get(id(obj))
        return found[1] if found is not None and found[0] is obj else None

    def add(self, obj, full_name: str):
        self.names.setdefault(id(obj), (obj, full_name))


DOCUMENTED = _Documented()


def _split_aliases(module_name: str, module, names: list[str]):
    """``(described here, [(name, where it is described)])``."""
    here, aliases = [], []
    for n in names:
        obj = getattr(module, n)
        first = DOCUMENTED.first_name(obj) if not inspect.ismodule(obj) else None
        if first is not None and first != f"{module_name}.{n}":
            aliases.append((n, first))
        else:
            here.append(n)
            if not inspect.ismodule(obj):
                DOCUMENTED.add(obj, f"{module_name}.{n}")
    return here, aliases


def _alias_lines(aliases) -> list[str]:
    if not aliases:
        return []
    lines = [".. rubric:: The same objects as", ""]
    for n, first in aliases:
        lines.append(f"- ``{n}``: :py:obj:`{first}`")
    return lines + [""]


def _summary(names: list[str]) -> list[str]:
    if not names:
        return []
    return [".. autosummary::", "", *[f"   {n}" for n in names], ""]


def _numpy_own(module, names: list[str]) -> list[str]:
    """A plain list (no cross-reference: NumPy or SciPy documents them) of re-exported
    names."""
    if not names:
        return []
    scipys = [n for n in names if _library(getattr(module, n)) == "scipy"]
    lines = _scipy_own(module, scipys)
    names = [n for n in names if n not in scipys]
    if not names:
        return lines
    lines += [".. rubric:: NumPy's own, re-exported unchanged", "",
              "These build constant arrays or describe dtypes; funcgrad passes them through "
              "as NumPy defines them.", ""]
    for n in names:
        summary = _first_line(getattr(module, n)).replace("*", r"\*").replace("`", "")
        summary = re.sub(r"(\w)_\b", r"\1\\_", summary)  # (from_ would be a link target)
        lines.append(f"- ``{n}``" + (f": {summary}" if summary else ""))
    return lines + [""]


def _library(obj) -> str:
    module = getattr(obj, "__module__", None) or getattr(type(obj), "__module__", "")
    return str(module).partition(".")[0]


def _scipy_own(module, names: list[str]) -> list[str]:
    """SciPy's classes that a ``funcgrad.scipy`` module hands out as they are (its
    constraint and result types, which funcgrad's solvers take and return)."""
    if not names:
        return []
    lines = [".. rubric:: SciPy's own, re-exported unchanged", "",
             "SciPy's classes, which funcgrad's functions take and return as SciPy defines "
             "them (loaded with SciPy, on first use).", ""]
    for n in names:
        summary = _first_line(getattr(module, n)).replace("*", r"\*").replace("`", "")
        summary = re.sub(r":\w+:", "", summary)   # (SciPy's roles, :mod:, lose their target)
        lines.append(f"- ``{n}``" + (f": {summary}" if summary else ""))
    return lines + [""]


def _public(module) -> list[str]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in vars(module) if not n.startswith("_")]
    seen, out = set(), []
    for n in names:
        if n not in seen and hasattr(module, n):
            seen.add(n)
            out.append(n)
    return out


def _module_page(module_name: str, title: str, names=None, intro_module=None) -> str:
    module = importlib.import_module(module_name)
    names = _public(module) if names is None else names
    ours = [n for n in names if _ours(getattr(module, n))]
    theirs = [n for n in names if not _ours(getattr(module, n))]
    submodules = [n for n in ours if inspect.ismodule(getattr(module, n))]
    ours = [n for n in ours if n not in submodules]
    ours, aliases = _split_aliases(module_name, module, ours)
    shown = intro_module or module_name
    lines = [*_heading(f"``{shown}``: {title}"),
             f".. automodule:: {shown}", "   :no-members:", "",
             f".. currentmodule:: {module_name}", ""]
    lines += _summary(ours)
    for n in ours:
        lines += _entry(module_name, n, getattr(module, n))
    lines += _alias_lines(aliases)
    if submodules:
        lines += [".. rubric:: Modules", ""]
        lines += [f"- ``{n}``: :py:mod:`{getattr(module, n).__name__}`" for n in submodules]
        lines.append("")
    lines += _numpy_own(module, theirs)
    return "\n".join(lines)


def _top_level_page() -> str:
    import funcgrad
    names = _public(funcgrad)
    placed = {n for section in TOP_LEVEL.values() for n in section}
    modules = [n for n in names if inspect.ismodule(getattr(funcgrad, n))]
    other = [n for n in names if n not in placed and n not in modules
             and _ours(getattr(funcgrad, n))]
    theirs = [n for n in names if not _ours(getattr(funcgrad, n))]
    lines = [*_heading("``funcgrad``: transforms and tools"),
             ".. automodule:: funcgrad", "   :no-members:", "",
             ".. currentmodule:: funcgrad", ""]
    sections = dict(TOP_LEVEL)
    if other:
        sections["Other"] = other
    for title, section in sections.items():
        section, _ = _split_aliases("funcgrad", funcgrad,
                                    [n for n in section if n in names])
        if not section:
            continue
        lines += _heading(title, "-")
        lines += _summary(section)
        for n in section:
            lines += _entry("funcgrad", n, getattr(funcgrad, n))
    lines += _heading("Modules", "-")
    for n in modules:
        lines.append(f"- :mod:`funcgrad.{n}`")
    lines.append("")
    if theirs:
        lines += [".. rubric:: dtype names", "",
                  "PyTorch's dtype names, as NumPy's scalar types (``t.dtype == fg.float32``): "
                  + ", ".join(f"``{n}``" for n in theirs) + ".", ""]
    return "\n".join(lines)


# funcgrad.numpy's submodules with pages of their own (MODULES), not families of its names
# (funcgrad.numpy.ma has a sum and a sin of its own)
_OWN_PAGES = ("linalg", "fft", "ma", "testing")


def _numpy_families():
    """``[(family module, [its names in funcgrad.numpy.__all__])]``, each name once."""
    import funcgrad.numpy as fnp
    public = _public(fnp)
    seen, families = set(), []
    for attr in sorted(vars(fnp)):
        module = getattr(fnp, attr)
        if (not inspect.ismodule(module) or attr in _OWN_PAGES or attr.startswith("_")
                or not module.__name__.startswith("funcgrad.numpy.")
                or not hasattr(module, "__all__")):
            continue
        names = [n for n in module.__all__ if n in public and n not in seen]
        seen.update(names)
        if names:
            families.append((module, names))
    rest = [n for n in public if n not in seen and n not in _OWN_PAGES]
    return families, rest


def _numpy_pages(out: Path) -> list[str]:
    import funcgrad.numpy as fnp
    families, rest = _numpy_families()
    written = []
    for module, names in families:
        family = module.__name__.rpartition(".")[2]
        title = _first_line(module).rstrip(".") or family
        text = _module_page("funcgrad.numpy", title, names, intro_module=module.__name__)
        written.append(_write(out / f"funcgrad.numpy.{family}.rst", text))
    # Index: the package docstring, every family, then what belongs to none of them
    # (NumPy's constants and dtypes, a few helpers).
    lines = [*_heading("``funcgrad.numpy``: NumPy's names, differentiable"),
             ".. automodule:: funcgrad.numpy", "   :no-members:", "",
             ".. currentmodule:: funcgrad.numpy", "",
             ".. toctree::", "   :maxdepth: 1", ""]
    lines += [f"   funcgrad.numpy.{m.__name__.rpartition('.')[2]}" for m, _ in families]
    lines += ["   funcgrad.numpy.linalg", "   funcgrad.numpy.fft", ""]
    ours = [n for n in rest if _ours(getattr(fnp, n))]
    ours, aliases = _split_aliases("funcgrad.numpy", fnp, ours)
    lines += _alias_lines(aliases)
    if ours:
        lines += _heading("Helpers", "-") + _summary(ours)
        for n in ours:
            lines += _entry("funcgrad.numpy", n, getattr(fnp, n))
    lines += _numpy_own(fnp, [n for n in rest if not _ours(getattr(fnp, n))])
    written.append(_write(out / "funcgrad.numpy.rst", "\n".join(lines)))
    return written


def _write(path: Path, text: str) -> str:
    text = text.rstrip() + "\n"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path.stem


def generate(out: Path) -> list[str]:
    """Write every page into ``out``; return the page names for the index, in order."""
    out.mkdir(parents=True, exist_ok=True)
    DOCUMENTED.names.clear()
    pages = [_write(out / "funcgrad.rst", _top_level_page())]
    numpy_pages = _numpy_pages(out)
    pages.append("funcgrad.numpy")
    for module_name, title in MODULES:
        if importlib.util.find_spec(module_name) is None:
            continue
        pages.append(_write(out / f"{module_name}.rst", _module_page(module_name, title)))
    # Pages of modules that are gone would otherwise linger and be built.
    keep = set(pages) | set(numpy_pages)
    for stale in out.glob("*.rst"):
        if stale.stem not in keep:
            stale.unlink()
    index = [*_heading("API reference"),
             "Every public name of funcgrad, generated from the modules' ``__all__`` and "
             "their docstrings.", "",
             ".. toctree::", "   :maxdepth: 1", "", *[f"   {p}" for p in pages], ""]
    _write(out / "index.rst", "\n".join(index))
    return pages


def _require_docstring(app, what, name, obj, options, lines):
    """A public object without a docstring fails the build (under -W)."""
    if what in ("function", "class", "exception", "data") and not any(l.strip() for l in lines):
        if _ours(obj) or what == "data":
            logger.warning(f"{name} has no docstring: every public function needs one, "
                           f"with a runnable example", type="funcgrad", subtype="docstring")


PAGED_MODULES: set[str] = set()


def _on_init(app):
    generate(Path(app.srcdir) / "api" / "generated")
    PAGED_MODULES.clear()
    PAGED_MODULES.update({"funcgrad", "funcgrad.numpy"}, (m for m, _ in MODULES),
                         (m.__name__ for m, _ in _numpy_families()[0]))


def _module_of(target: str) -> str:
    """The longest prefix of a dotted name that is an importable module."""
    parts = target.split(".")
    for end in range(len(parts), 0, -1):
        name = ".".join(parts[:end])
        try:
            if importlib.util.find_spec(name) is not None:
                return name
        except (ImportError, ValueError):
            continue
    return parts[0]


def _internal_reference(app, env, node, contnode):
    """A reference into the implementation (``funcgrad.core.Primitive``,
    ``funcgrad.interpreters.backprop``) shows as plain text: docstrings may name the modules
    that do the work, which have no page. A funcgrad name whose module has a page must
    resolve, so a typo in a public name (``funcgrad.gard``) still fails the build."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    if not target.startswith("funcgrad."):
        return None
    if node.get("reftype") == "mod":
        internal = target not in PAGED_MODULES and _module_of(target) == target
        return contnode if internal else None
    return contnode if _module_of(target) not in PAGED_MODULES else None


def _remember_lookups(app, env):
    """Once every page is read (the objects known, none added while pages are written),
    the Python domain's lookups are remembered: a signature's annotation (``ndarray``,
    ``Callable``) that names no object of the site is looked for by a scan of every
    object whose name ends with it, about 100,000 times in a build (a third of its
    time); the same question gets the same answer."""
    domain = env.get_domain("py")
    find = type(domain).find_obj.__get__(domain)
    answers = {}

    def find_obj(env, modname, classname, name, type, searchmode=0):
        key = (modname, classname, name, type, searchmode)
        found = answers.get(key)
        if found is None:
            found = answers[key] = find(env, modname, classname, name, type, searchmode)
        return list(found)
    domain.find_obj = find_obj


def setup(app):
    app.connect("builder-inited", _on_init)
    app.connect("env-updated", _remember_lookups)
    app.connect("autodoc-process-docstring", _require_docstring)
    app.connect("missing-reference", _internal_reference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
