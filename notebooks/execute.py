"""Re-execute notebooks in place, so the outputs stored with them come from the current code.

    python notebooks/execute.py                 # every notebook in this folder
    python notebooks/execute.py 02 04           # the notebooks whose names start with 02, 04

``make notebooks`` runs the first form.  Each notebook runs top to bottom in a fresh kernel
(in a scratch folder, so files it writes do not land here).  Its metadata then records a
fingerprint of its code cells (``funcgrad.code_sha256``); tests/test_notebooks.py fails when a
code cell was edited after the last run, i.e. when the stored outputs may be stale.
"""
import hashlib
import os
import pathlib
import sys
import tempfile
import time

import nbclient
import nbformat

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent


def kernel_sees_this_checkout():
    """Put this checkout first on the kernel's path: the kernel starts in a scratch folder,
    where ``import funcgrad`` would find whichever checkout is installed (another git
    worktree, say) rather than the code the notebooks are stored with."""
    paths = [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(paths)


def code_fingerprint(nb):
    """SHA-256 of the notebook's code cells, in order (outputs and text cells excluded)."""
    digest = hashlib.sha256()
    for cell in nb.cells:
        if cell.cell_type == "code":
            digest.update(cell.source.strip().encode() + b"\0")
    return digest.hexdigest()


def merge_streams(outputs):
    """Consecutive pieces of one stream as one output (a print may arrive in parts)."""
    merged = []
    for out in outputs:
        if (out.output_type == "stream" and merged and merged[-1].output_type == "stream"
                and merged[-1].name == out.name):
            merged[-1].text += out.text
        else:
            merged.append(out)
    return merged


def execute(path):
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                resources={"metadata": {"path": scratch}}).execute()
    seconds = time.perf_counter() - start
    for cell in nb.cells:  # per-cell timestamps would make every re-run a diff
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = merge_streams(cell.outputs)
    nb.metadata["funcgrad"] = {"code_sha256": code_fingerprint(nb)}
    nbformat.write(nb, path)
    return seconds


def main(prefixes):
    paths = sorted(HERE.glob("*.ipynb"))
    if prefixes:
        paths = [p for p in paths if p.name.startswith(tuple(prefixes))]
        if not paths:
            sys.exit(f"no notebook in {HERE} starts with {' or '.join(prefixes)}")
    kernel_sees_this_checkout()
    for path in paths:
        print(f"{path.name}: {execute(path):.1f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
