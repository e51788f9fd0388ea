"""The public API is typed: annotations on every public function, and mypy passes.

mypy runs with the settings in setup.cfg ([mypy]) over funcgrad/ and tests/typing_usage.py,
whose marked lines are mistakes the annotations must reject (``warn_unused_ignores``).
Cold, on two busy cores, it takes about a minute; its cache (.mypy_cache) makes later runs
a few seconds.
"""
import importlib
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

import funcgrad as fg

ROOT = Path(__file__).resolve().parents[1]

pytest.importorskip("mypy", reason="mypy is in the `test` extra: pip install -e '.[test]'")


def test_mypy_passes_on_the_library_and_the_usage_file():
    proc = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir",
                           str(ROOT / ".mypy_cache")],
                          cwd=ROOT, capture_output=True, text=True, timeout=240,
                          env={**os.environ, "MYPY_FORCE_COLOR": "0"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "tests/typing_usage.py" in (ROOT / "setup.cfg").read_text()


def test_the_package_ships_py_typed():
    assert (ROOT / "funcgrad" / "py.typed").exists()
    assert "py.typed" in (ROOT / "setup.cfg").read_text()


# The functions whose signatures are annotated in full (parameters and return).
TYPED = {
    "funcgrad": ["grad", "value_and_grad", "vjp", "jvp", "linearize", "vmap", "jacfwd",
                 "jacrev", "jacobian", "hessian", "hvp", "vhp", "elementwise_grad",
                 "stop_gradient", "make_graph", "checkpoint", "gradcheck", "gradgradcheck",
                 "warmup", "get_num_threads", "is_grad_enabled", "is_inference_mode_enabled"],
    "funcgrad.jit.api": ["jit"],
    "funcgrad.tree": ["register", "flatten", "unflatten", "leaves", "tree_map"],
    "funcgrad.forward_ad": ["make_dual", "unpack_dual", "enter_dual_level",
                            "exit_dual_level"],
}


@pytest.mark.parametrize("module, name", [(m, n) for m, names in TYPED.items() for n in names])
def test_public_function_is_annotated(module, name):
    fn = getattr(importlib.import_module(module), name)
    fn = getattr(fn, "__wrapped__", fn)
    signature = inspect.signature(fn)
    missing = [p.name for p in signature.parameters.values()
               if p.annotation is inspect.Parameter.empty]
    assert not missing, f"{module}.{name}: parameters without a type: {missing}"
    assert signature.return_annotation is not inspect.Signature.empty, \
        f"{module}.{name}: no return type"


# funcgrad.numpy, its linalg and fft, and lax: every function funcgrad defines there (NumPy's
# own re-exports, classes and index helpers such as ``r_`` aside), so a new one comes typed.
NUMPY_LIKE = ["funcgrad.numpy", "funcgrad.numpy.linalg", "funcgrad.numpy.fft", "funcgrad.lax"]


def _own_functions(module):
    mod = importlib.import_module(module)
    for name in mod.__all__:
        fn = getattr(mod, name)
        if inspect.isfunction(fn) and fn.__module__.startswith("funcgrad."):
            yield name


@pytest.mark.parametrize("module, name", [(m, n) for m in NUMPY_LIKE for n in _own_functions(m)])
def test_numpy_and_lax_function_is_annotated(module, name):
    test_public_function_is_annotated(module, name)


def test_the_numpy_check_covers_the_generated_ufuncs():
    names = set(_own_functions("funcgrad.numpy"))
    assert {"sin", "add", "sum", "where", "einsum"} <= names and len(names) > 200
    assert {"svd", "solve"} <= set(_own_functions("funcgrad.numpy.linalg"))
    assert {"cond", "scan", "fori_loop", "while_loop"} <= set(_own_functions("funcgrad.lax"))


def test_the_aliases_are_public():
    from funcgrad import typing as ft
    assert set(ft.__all__) >= {"Array", "ArrayLike", "PyTree", "Scalar"}
    assert fg.typing is ft
