"""The cache of generated kernel modules runs only what funcgrad wrote.

``funcgrad.kernels._source.load_module`` imports generated source (jit modules, fused CPU
kernels, CUDA kernels) from a cache folder so that Numba's disk cache keeps their machine
code.  A file found there is run only if it holds exactly the generated text, and only
from a folder this user owns that no one else can write; otherwise the module is compiled
in memory (one warning).  Each case runs in a fresh process, as a later session would.
"""
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_CHILD = textwrap.dedent("""
    import json, warnings, numpy as np, funcgrad as fg
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = fg.jit(lambda x: np.sin(x) * 2.0 + 1.0)(np.linspace(0, 1, 5))
    from funcgrad.kernels import _source
    print(json.dumps({"ok": bool(np.allclose(got, np.sin(np.linspace(0, 1, 5)) * 2 + 1)),
                      "warnings": [str(w.message) for w in caught],
                      "files": sorted(m.__file__ for (k, _), m in _source._modules.items()
                                      if getattr(m, "__file__", None))}))
""")


def _run(cache):
    env = dict(os.environ, FUNCGRAD_CACHE_DIR=str(cache), PYTHONWARNINGS="default")
    proc = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                          timeout=240, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    import json
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _jit_files(cache):
    return sorted((cache / "jit").glob("fg_*.py"))


@pytest.fixture
def cache(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    return folder


def test_a_tampered_cache_file_is_rewritten_not_run(cache):
    first = _run(cache)
    assert first["ok"] and _jit_files(cache)
    planted = cache / "planted"
    for path in _jit_files(cache):  # someone edits the generated module
        path.write_text(f"open({str(planted)!r}, 'w').write('ran')\n" + path.read_text())
    second = _run(cache)
    assert second["ok"]
    assert not planted.exists(), "the tampered file was executed"
    assert not any("planted" in p.read_text() for p in _jit_files(cache))  # rewritten


def test_a_truncated_cache_file_is_rewritten(cache):
    _run(cache)
    for path in _jit_files(cache):
        path.write_text(path.read_text()[:40])
    assert _run(cache)["ok"]
    assert all("def " in p.read_text() for p in _jit_files(cache))


def test_a_folder_others_can_write_is_refused(cache):
    os.chmod(cache, 0o777)
    try:
        result = _run(cache)
    finally:
        os.chmod(cache, 0o700)
    assert result["ok"]  # compiled in memory
    assert result["files"] == []  # nothing run from the shared folder
    assert any("can be written by other users" in w for w in result["warnings"])
    assert not _jit_files(cache)


def test_a_cache_file_others_can_write_is_replaced(cache):
    _run(cache)
    for path in _jit_files(cache):
        os.chmod(path, os.stat(path).st_mode | stat.S_IWOTH)
    assert _run(cache)["ok"]
    assert all(not os.stat(p).st_mode & stat.S_IWOTH for p in _jit_files(cache))


def test_an_empty_setting_turns_the_disk_cache_off(tmp_path):
    env = dict(os.environ, FUNCGRAD_CACHE_DIR="")
    proc = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                          timeout=240, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    import json
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["ok"] and result["files"] == [] and not result["warnings"]


def test_the_jit_cache_key_reads_every_module_the_kernels_runtime_calls_into():
    # (a cached kernel keeps the machine code of what it inlined: a module missing from
    # the key changes without the cached kernels noticing)
    import inspect
    import os

    from funcgrad.jit import runtime, runtime_digest
    files = {os.path.realpath(f) for f in runtime_digest.runtime_files()}
    called = {inspect.getmodule(v) for v in vars(runtime).values()
              if callable(v) and not isinstance(v, type)
              and getattr(v, "__module__", "").startswith("funcgrad")}
    assert called and all(os.path.realpath(m.__file__) in files for m in called), called
