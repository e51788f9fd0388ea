"""Shared test configuration: hypothesis profiles, and the ``soak`` marker.

``FUNCGRAD_HYPOTHESIS_PROFILE`` picks one (default ``ci``):

``ci``
    a few derandomised examples per property, so the suite is fast and the same on
    every run;
``thorough``
    200 random examples per property, for a deeper search before a release:
    ``FUNCGRAD_HYPOTHESIS_PROFILE=thorough python -m pytest tests/test_primitives.py``.

``@pytest.mark.soak`` marks the exhaustive grid of a check whose representative cases run
in ``make test`` (typically one fg.jit per shape, axis or mode, each a fresh Numba compile
of seconds). Those tests are deselected (listed as such in the summary) unless
``FUNCGRAD_LONG=1`` (``make soak``) or a ``-m`` expression naming ``soak`` asks for them:
``python -m pytest -m soak tests`` runs all of them, ``-m "soak or not soak"`` everything.
"""
import os

# Kernels load as the tests use them, in the test's thread (deterministic timings, and the
# kernels themselves under test); tests/test_kernel_loading.py covers the other modes.
os.environ.setdefault("FUNCGRAD_KERNELS", "wait")
# A jitted function compiles on its first call in the tests (what they check is the
# compiled code); tests/test_jit_background.py tests the default, compiling in the
# background while the first calls run eagerly.
os.environ.setdefault("FUNCGRAD_JIT_WAIT", "1")

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

settings.register_profile(
    "ci", max_examples=8, deadline=None, derandomize=True, database=None,
    suppress_health_check=_SLOW_OK, print_blob=True)
settings.register_profile(
    "thorough", max_examples=200, deadline=None, suppress_health_check=_SLOW_OK,
    print_blob=True)
settings.load_profile(os.environ.get("FUNCGRAD_HYPOTHESIS_PROFILE", "ci"))

# (pytest puts this file's folder, tests/, on sys.path, as for helpers.py)
from long_runs import LONG  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "soak: the exhaustive grid of a check, run by make soak (FUNCGRAD_LONG=1) "
        "or -m soak; make test runs its representative cases")


def pytest_collection_modifyitems(config, items):
    if LONG or "soak" in (config.option.markexpr or ""):
        # (a grid compiles for minutes on a loaded machine: past the 300 s of setup.cfg)
        for item in items:
            if item.get_closest_marker("soak") and not item.get_closest_marker("timeout"):
                item.add_marker(pytest.mark.timeout(1800))
        return
    # deselected, not skipped: the summary counts them, and no test reports a pass it skipped
    soak = [item for item in items if item.get_closest_marker("soak")]
    if soak:
        config.hook.pytest_deselected(items=soak)
        items[:] = [item for item in items if not item.get_closest_marker("soak")]
    # The files of the longest single steps first: xdist hands out whole files in this
    # order, so that they start while the many short files can still fill the other
    # worker's time, rather than one of them running alone at the end.
    first = {name: rank for rank, name in enumerate(_LONGEST_FIRST)}
    items.sort(key=lambda item: first.get(item.path.name, len(first)))


# (make test's slowest steps: a site build, the benchmark smoke run, the CUDA simulator's
# processes, mypy; then the files of the most tests)
_LONGEST_FIRST = ("test_bench_smoke.py", "test_docs.py", "test_gpu.py", "test_typing.py",
                  "test_gpu_transforms.py", "test_primitives.py", "test_scipy_ivp_radau.py",
                  "test_reliability_threads.py")


@pytest.fixture(scope="module")
def fresh_jit_cache(tmp_path_factory):
    """fg.jit writes its generated modules to a fresh directory for the module's tests
    (the disk cache itself is tested explicitly, in a subprocess)."""
    old = os.environ.get("FUNCGRAD_CACHE_DIR")
    os.environ["FUNCGRAD_CACHE_DIR"] = str(tmp_path_factory.mktemp("jit_cache"))
    yield
    if old is None:
        del os.environ["FUNCGRAD_CACHE_DIR"]
    else:
        os.environ["FUNCGRAD_CACHE_DIR"] = old


@pytest.fixture(scope="module")
def jlax():
    """jax.lax on the CPU with 64-bit floats, the reference of the lax comparisons (JAX is
    a benchmark extra: the tests that ask for it skip without it)."""
    jax = pytest.importorskip("jax")
    try:
        jax.config.update("jax_platforms", "cpu")
    except RuntimeError:  # (a backend already started: then it is the one in use)
        pass
    jax.config.update("jax_enable_x64", True)
    return jax.lax


@pytest.fixture(params=["funcgrad", "torch"])
def lib(request):
    """funcgrad, then torch where it is installed: a test written against PyTorch's API
    runs on both, so its expectation is PyTorch's and not funcgrad's own."""
    if request.param == "torch":
        return pytest.importorskip("torch")
    import funcgrad
    return funcgrad
