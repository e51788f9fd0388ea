"""Every docstring example in funcgrad runs, and every public function has one.

The modules are discovered (funcgrad and funcgrad.kernels, walked), so a new module's
examples are checked without touching this file.  Outputs are NumPy 2 reprs
(``np.float64(1.0)``); ``...`` and free whitespace are allowed (ELLIPSIS,
NORMALIZE_WHITESPACE).  The whole run takes a few seconds: an example that would compile
kernels for minutes (``fg.warmup()``) is written to show something cheaper instead.
"""
import doctest
import importlib
import inspect
import pkgutil

import pytest

import funcgrad
import funcgrad.kernels

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

# Packages a module may need that `make test` does not install (peer libraries, GPU
# toolkits): a module that cannot import for want of one of these is skipped, by name.
OPTIONAL = {"torch", "jax", "dask", "distributed", "graphviz", "numba_cuda", "cupy"}


def _module_names():
    names = []
    for package in (funcgrad, funcgrad.kernels):
        names.append(package.__name__)
        names += [m.name for m in pkgutil.walk_packages(package.__path__,
                                                          package.__name__ + ".")]
    return sorted(names)


MODULES = _module_names()


def _import(name):
    try:
        return importlib.import_module(name)
    except ImportError as error:
        missing = (error.name or "").split(".")[0]
        if missing in OPTIONAL:
            pytest.skip(f"{name} needs {missing}, which is not installed")
        raise


def _doctests(module):
    """The module's doctests, plus those of public objects made by factories elsewhere but
    belonging to it (``__module__``), which doctest's finder passes over."""
    finder = doctest.DocTestFinder(exclude_empty=True)
    tests = finder.find(module)
    seen = {id(t.docstring) for t in tests} | {t.docstring for t in tests}
    for name in getattr(module, "__all__", ()):
        obj = getattr(module, name, None)
        doc = getattr(obj, "__doc__", None)
        if (doc and ">>>" in doc and doc not in seen
                and getattr(obj, "__module__", None) == module.__name__):
            tests += finder.find(obj, f"{module.__name__}.{name}",
                                 globs=dict(vars(module)))
            seen.add(doc)
    return [t for t in tests if t.examples]


@pytest.fixture(autouse=True, scope="module")
def _jit_cache(fresh_jit_cache):
    """fg.jit's examples write their generated modules to a fresh directory."""


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = _import(name)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report = []
    for test in _doctests(module):
        runner.run(test, out=report.append)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, "".join(report)


def test_the_runner_finds_the_examples():
    """The discovery is not vacuous: the core modules are walked and their examples found
    (more than a thousand in all when this was written)."""
    for name in ("funcgrad.api", "funcgrad.jacobians", "funcgrad.numpy.ufuncs",
                 "funcgrad.scipy.special", "funcgrad.lax._scan", "funcgrad.eager.tensor"):
        assert name in MODULES
    total = sum(len(t.examples) for name in MODULES
                for t in _doctests(importlib.import_module(name)))
    assert total > 1000


# The only examples not run (``# doctest: +SKIP``), each for a reason `make test` cannot
# meet; a name ending in "." covers everything under it.
SKIPPED = {
    "funcgrad.gpu.": "GPU arrays need an NVIDIA GPU (device_put to 'cuda'); tests/test_gpu.py "
                     "runs the same code on the CUDA simulator",
    "funcgrad.profiler.emit_nvtx": "needs the optional nvtx package (and Nsight to be useful)",
    "funcgrad.warmup.main": "compiles every CPU kernel: minutes with a cold cache (make demo "
                            "runs it; tests/test_kernel_loading.py tests what it calls)",
}


def test_only_the_listed_examples_are_skipped():
    skipped = {t.name for name in MODULES for t in _doctests(importlib.import_module(name))
               if any(e.options.get(doctest.SKIP) for e in t.examples)}
    unlisted = {name for name in skipped
                if not any(name == key or (key.endswith(".") and (name + ".").startswith(key))
                           for key in SKIPPED)}
    assert not unlisted, f"examples skipped without a reason in SKIPPED: {sorted(unlisted)}"


def test_a_wrong_example_fails():
    """The runner's flags do not hide a wrong output (a NumPy 1 repr of a NumPy 2 scalar)."""
    def example():
        """
        >>> import numpy as np
        >>> np.float64(1.0) + 0
        1.0
        """
    test = doctest.DocTestFinder().find(example, "example", globs={})[0]
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, out=lambda text: None)
    assert runner.summarize(verbose=False).failed == 1


# --- every public function has an example --------------------------------------------------------

def _public_namespaces():
    import funcgrad.nn as fnn
    import funcgrad.numpy as fnp
    import funcgrad.scipy as fsp
    spaces = [funcgrad, funcgrad.forward_ad, funcgrad.tree, funcgrad.autograd, funcgrad.graph,
              funcgrad.profiler, funcgrad.lax, fnp, fnp.linalg, fnp.fft, fsp, fnn,
              fnn.initializers]
    spaces += [importlib.import_module(f"funcgrad.scipy.{m.name}")
               for m in pkgutil.iter_modules(fsp.__path__) if not m.name.startswith("_")]
    return spaces


def _needs_example(obj):
    """A function or class of funcgrad's own (not NumPy's re-exported names, dtypes or
    exceptions, which are raised rather than called)."""
    if inspect.ismodule(obj) or not callable(obj):
        return False
    if inspect.isclass(obj) and issubclass(obj, BaseException):
        return False
    module = getattr(obj, "__module__", None) or ""
    return module.startswith("funcgrad")


def test_every_public_function_has_an_example():
    missing = []
    for space in _public_namespaces():
        for name in getattr(space, "__all__", ()):
            obj = getattr(space, name)
            if _needs_example(obj) and ">>>" not in (obj.__doc__ or ""):
                missing.append(f"{space.__name__}.{name}")
    assert not missing, f"public functions without a docstring example: {missing}"
