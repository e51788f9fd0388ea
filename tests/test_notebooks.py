"""Every notebook in notebooks/ runs top to bottom in a fresh kernel, within 60 s each."""
import pathlib
import time

import pytest

nbformat = pytest.importorskip("nbformat", reason="pip install -e '.[notebooks]'")
nbclient = pytest.importorskip("nbclient", reason="pip install -e '.[notebooks]'")

NOTEBOOKS = sorted((pathlib.Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    elapsed = time.perf_counter() - start
    assert elapsed < 60, f"{path.name} took {elapsed:.0f} s (the bar is 60 s)"
    pictures = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                if "image/png" in o.get("data", {}) or "image/svg+xml" in o.get("data", {})]
    assert pictures, f"{path.name} shows no picture"


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 3
