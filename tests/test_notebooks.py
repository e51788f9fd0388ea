"""Every notebook in notebooks/ runs top to bottom in a fresh kernel, within 60 s each, and
is stored with the outputs of a run of its current code (``make notebooks`` refreshes them),
so a reader sees the plots without running anything."""
import importlib.util
import os
import pathlib

import pytest

nbformat = pytest.importorskip("nbformat", reason="pip install -e '.[notebooks]'")

ROOT = pathlib.Path(__file__).parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _execute_module():
    spec = importlib.util.spec_from_file_location("notebooks_execute",
                                                  ROOT / "notebooks" / "execute.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pictures(nb):
    return [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
            if "image/png" in o.get("data", {}) or "image/svg+xml" in o.get("data", {})]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, monkeypatch):
    nbclient = pytest.importorskip("nbclient", reason="pip install -e '.[notebooks]'")
    # The kernel starts in tmp_path: make it import this checkout's funcgrad.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    assert _pictures(nb), f"{path.name} shows no picture"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_stored_with_the_outputs_of_its_current_code(path):
    """Every code cell has run, in order, in one pass, after its last edit."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    counts = [c.execution_count for c in code]
    assert counts == list(range(1, len(code) + 1)), (
        f"{path.name}: cells ran as {counts}, not top to bottom once: run `make notebooks`")
    recorded = nb.metadata.get("funcgrad", {}).get("code_sha256")
    assert recorded == _execute_module().code_fingerprint(nb), (
        f"{path.name}: code changed since its outputs were stored: run `make notebooks`")
    errors = [o.get("ename") for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors, f"{path.name} is stored with errors {errors}"
    assert _pictures(nb), f"{path.name} is stored without its pictures"


def test_the_fingerprint_changes_with_the_code():
    module = _execute_module()
    nb = nbformat.read(NOTEBOOKS[0], as_version=4)
    before = module.code_fingerprint(nb)
    next(c for c in nb.cells if c.cell_type == "code").source += "\n1 + 1"
    assert module.code_fingerprint(nb) != before


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 3
