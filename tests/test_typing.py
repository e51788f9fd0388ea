"""The public API is typed: annotations on every public function, and mypy passes.

mypy runs with the settings in setup.cfg ([mypy]) over funcgrad/ and tests/typing_usage.py,
whose marked lines are mistakes the annotations must reject (``warn_unused_ignores``).
Cold, on two busy cores, it takes about a minute; its cache makes later runs a few seconds.
The cache lives with funcgrad's kernels (``~/.cache/funcgrad/mypy``), so that a fresh
checkout of a tree already checked starts warm (mypy re-checks a module whose text
changed, by its hash: a checkout's new timestamps alone change nothing).
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
    from funcgrad.kernels._source import cache_dir
    proc = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir",
                           cache_dir("mypy") or str(ROOT / ".mypy_cache")],
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
                 "warmup", "get_num_threads", "is_grad_enabled", "is_inference_mode_enabled",
                 "linear_transpose", "pure_callback", "closure_convert", "custom_gradient",
                 "named_call", "block_until_ready", "clear_caches"],
    "funcgrad.jit.api": ["jit"],
    "funcgrad.tree": ["register", "flatten", "unflatten", "leaves", "tree_map"],
    "funcgrad.forward_ad": ["make_dual", "unpack_dual", "enter_dual_level",
                            "exit_dual_level"],
    "funcgrad.eager": ["tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "empty",
                       "randn", "rand", "randint", "arange", "linspace", "eye", "zeros_like",
                       "ones_like", "full_like", "randn_like", "rand_like", "manual_seed",
                       "seed", "is_tensor", "set_default_dtype", "get_default_dtype",
                       "backward", "grad", "equal", "allclose"],
    "funcgrad.custom": ["once_differentiable"],
    "funcgrad.anomaly": ["is_anomaly_enabled", "is_anomaly_check_nan_enabled"],
}

# Methods (and property getters) annotated in full, by class.
TYPED_METHODS = {
    "funcgrad.eager.Tensor": [
        "__init__", "requires_grad", "requires_grad_", "is_leaf", "grad", "retains_grad",
        "retain_grad", "data", "detach", "detach_", "register_hook",
        "register_post_accumulate_grad_hook", "backward", "shape", "dtype", "ndim", "size",
        "numel", "dim", "numpy", "exp", "sum", "mean", "max", "var", "softmax", "matmul",
        "clamp", "to", "type", "equal", "allclose", "float", "view", "reshape", "unsqueeze",
        "squeeze", "permute", "transpose", "expand", "repeat", "flatten"],
    "funcgrad.custom.custom_jvp": ["__init__", "__call__", "defjvp", "defjvps"],
    "funcgrad.custom.custom_vjp": ["__init__", "__call__", "defvjp", "defjvp"],
    "funcgrad.custom.Function": ["forward", "setup_context", "backward", "apply"],
    "funcgrad.custom.FunctionCtx": ["__init__", "save_for_backward", "saved_tensors",
                                    "mark_non_differentiable", "mark_dirty",
                                    "set_materialize_grads"],
    "funcgrad.modes.no_grad": ["__init__", "__enter__", "__exit__", "__call__"],
    "funcgrad.modes.set_grad_enabled": ["__init__", "__enter__", "__exit__", "__call__"],
    "funcgrad.modes.inference_mode": ["__init__", "__enter__", "__exit__", "__call__"],
    "funcgrad.profiler.profile": ["__init__", "start", "stop", "__enter__", "__exit__",
                                  "events", "key_averages", "table", "self_cpu_time_total",
                                  "export_chrome_trace"],
    "funcgrad.profiler.record_function": ["__init__", "__enter__", "__exit__"],
    "funcgrad.graph.saved_tensors_hooks": ["__init__", "__enter__", "__exit__"],
    "funcgrad.graph.save_on_cpu": ["__init__"],
    "funcgrad.graph.disable_saved_tensors_hooks": ["__init__", "__enter__", "__exit__"],
    "funcgrad.anomaly.detect_anomaly": ["__init__", "__enter__", "__exit__", "__call__"],
    "funcgrad.anomaly.set_detect_anomaly": ["__init__", "__enter__", "__exit__"],
}
TYPED_METHODS["funcgrad.eager.Tensor"] += ["add_", "sub_", "mul_", "div_", "fill_", "zero_",
                                           "copy_"]


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
# own re-exports, classes and index helpers such as ``r_`` aside), so a new one comes typed;
# likewise funcgrad.scipy's modules, the optimizers, the Dask helpers and the Tensor-level
# autograd.functional (funcgrad.dask and scipy.optimize import their peer only when called).
NUMPY_LIKE = ["funcgrad.numpy", "funcgrad.numpy.linalg", "funcgrad.numpy.fft", "funcgrad.lax",
              "funcgrad.scipy.special", "funcgrad.scipy.stats", "funcgrad.scipy.linalg",
              "funcgrad.scipy.signal", "funcgrad.scipy.integrate", "funcgrad.scipy.optimize",
              "funcgrad.optim", "funcgrad.optim.lr_scheduler", "funcgrad.dask",
              "funcgrad.autograd.functional", "funcgrad.nn", "funcgrad.nn.initializers"]


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
    assert {"erf", "logsumexp", "gammaln"} <= set(_own_functions("funcgrad.scipy.special"))
    assert {"adam", "chain", "apply_updates", "cosine_decay_schedule"} <= set(
        _own_functions("funcgrad.optim"))
    assert {"minimize"} <= set(_own_functions("funcgrad.scipy.optimize"))
    assert {"grad_sum"} <= set(_own_functions("funcgrad.dask"))
    assert {"vjp", "hessian"} <= set(_own_functions("funcgrad.autograd.functional"))


def _check_annotated(label, fn):
    signature = inspect.signature(fn)
    missing = [p.name for p in signature.parameters.values()
               if p.annotation is inspect.Parameter.empty and p.name not in ("self", "cls")]
    assert not missing, f"{label}: parameters without a type: {missing}"
    assert signature.return_annotation is not inspect.Signature.empty, \
        f"{label}: no return type"


def _own_public_methods(module):
    """Each class funcgrad defines in ``module.__all__``, with the public methods it
    defines (``__init__`` too), and the distribution objects of scipy.stats by class."""
    mod = importlib.import_module(module)
    for name in mod.__all__:
        obj = getattr(mod, name)
        cls = obj if inspect.isclass(obj) else type(obj)
        if not cls.__module__.startswith("funcgrad.") or issubclass(cls, tuple):
            continue
        for attr_name, attr in vars(cls).items():
            fn = attr.fget if isinstance(attr, property) else getattr(attr, "__func__", attr)
            if inspect.isfunction(fn) and (attr_name == "__init__"
                                           or not attr_name.startswith("_")):
                yield f"{cls.__module__}.{cls.__qualname__}.{attr_name}", fn


CLASS_MODULES = ["funcgrad.scipy.stats", "funcgrad.optim", "funcgrad.optim.lr_scheduler"]
_METHODS = dict(m for module in CLASS_MODULES for m in _own_public_methods(module))


@pytest.mark.parametrize("label", sorted(_METHODS))
def test_public_method_of_scipy_stats_and_optim_is_annotated(label):
    _check_annotated(label, _METHODS[label])


def test_the_class_check_covers_the_distributions_and_optimizers():
    assert {"funcgrad.scipy._distn.rv_continuous.logpdf",
            "funcgrad.scipy._distn.rv_discrete.logpmf",
            "funcgrad.scipy._mvn._multivariate_normal.logpdf",
            "funcgrad.scipy._mvn._dirichlet.pdf",
            "funcgrad.optim.optimizer.Adam.__init__", "funcgrad.optim.optimizer.Optimizer.step",
            "funcgrad.optim.lr_scheduler.LambdaLR.__init__",
            "funcgrad.optim.lr_scheduler.LRScheduler.get_lr"} <= set(_METHODS)


@pytest.mark.parametrize("owner, name",
                         [(c, n) for c, names in TYPED_METHODS.items() for n in names])
def test_public_method_is_annotated(owner, name):
    module, cls_name = owner.rsplit(".", 1)
    cls = getattr(importlib.import_module(module), cls_name)
    attr = inspect.getattr_static(cls, name)
    fn = attr.fget if isinstance(attr, property) else getattr(attr, "__func__", attr)
    _check_annotated(f"{owner}.{name}", fn)


def test_the_aliases_are_public():
    from funcgrad import typing as ft
    assert set(ft.__all__) >= {"Array", "ArrayLike", "PyTree", "Scalar"}
    assert fg.typing is ft
