"""Run the notebooks in notebooks/ and store their outputs in place.

The documentation site shows each notebook with the outputs stored in it and never runs
it while building (so the build stays quick and needs no GPU). Run this after editing a
notebook, then commit the notebook:

    .venv/bin/python docs/run_notebooks.py [notebooks/01-quickstart.ipynb ...]

Each notebook runs top to bottom in a fresh kernel, in a temporary working folder.
"""
import argparse
import pathlib
import sys
import tempfile
import time

import nbclient
import nbformat

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run(path: pathlib.Path) -> float:
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as work:
        nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": work}}).execute()
    # Per-cell timestamps would change the file on every run without changing what it shows.
    for cell in nb.cells:
        cell.get("metadata", {}).pop("execution", None)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=pathlib.Path,
                        help="default: every notebooks/*.ipynb")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("*.ipynb"))
    for path in paths:
        print(f"{path.name}: {run(path):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
