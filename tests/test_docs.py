"""The documentation site builds with warnings as errors, and shows what a newcomer looks for.

One build (Sphinx, ``-W``, into a temporary folder, the same command as ``make docs``) is
shared by the checks: the API page of ``funcgrad.grad`` holds its signature and its
docstring's example; every public name of the documented modules is in the site's
inventory (or is the same object as one that is); the search index knows ``hessian``; a
notebook page shows its stored picture; the benchmark page shows the plot. Without a
build: the examples of the sharp-bits page run and print what the page says, the README's
benchmark table is the headline of the stored results, and the README's links resolve.
"""
import doctest
import html
import importlib
import inspect
import json
import os
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

# The modules whose every public name the reference must show.
MODULES = ["funcgrad", "funcgrad.numpy", "funcgrad.numpy.linalg", "funcgrad.numpy.fft",
           "funcgrad.scipy.special", "funcgrad.scipy.stats", "funcgrad.scipy.linalg",
           "funcgrad.scipy.stats.contingency", "funcgrad.scipy.stats.mstats",
           "funcgrad.scipy.signal", "funcgrad.scipy.integrate", "funcgrad.scipy.optimize",
           "funcgrad.scipy.differentiate",
           "funcgrad.scipy.signal.windows",
           "funcgrad.scipy.fft",
           "funcgrad.scipy.fftpack",
           "funcgrad.scipy.ndimage", "funcgrad.scipy.cluster.vq",
           "funcgrad.scipy.cluster.hierarchy", "funcgrad.scipy.stats.qmc",
           "funcgrad.scipy.interpolate",
           "funcgrad.scipy.sparse",
           "funcgrad.scipy.sparse.linalg", "funcgrad.scipy.sparse.csgraph",
           "funcgrad.scipy.spatial",
           "funcgrad.scipy.spatial.distance", "funcgrad.scipy.spatial.transform",
           "funcgrad.lax", "funcgrad.tree", "funcgrad.jit", "funcgrad.forward_ad",
           "funcgrad.autograd", "funcgrad.graph", "funcgrad.profiler",
           "funcgrad.numpy.ma", "funcgrad.numpy.testing"]
OPTIONAL_MODULES = ["funcgrad.optim", "funcgrad.dask"]  # documented once they exist


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q",
           "-d", str(out / "doctrees"), str(DOCS), str(out / "html")]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, f"the site does not build:\n{done.stderr[-6000:]}"
    return out / "html"


def _inventory(site):
    """``{name: (role, uri)}`` of the py objects in objects.inv (Sphinx's format: four text
    lines, then zlib-compressed lines ``name domain:role priority uri dispname``)."""
    data = (site / "objects.inv").read_bytes()
    body = zlib.decompress(data.split(b"\n", 4)[4]).decode()
    found = {}
    for line in body.splitlines():
        match = re.match(r"(\S+)\s+(py:\w+)\s+-?\d+\s+(\S+)", line)
        if match:
            found[match.group(1)] = (match.group(2), match.group(3))
    return found


def _text(fragment):
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def _ours(obj):
    module = getattr(obj, "__module__", None) or type(obj).__module__
    return str(module).startswith("funcgrad")


def test_grad_page_has_signature_and_example(site):
    import funcgrad as fg
    page = (site / "api" / "generated" / "funcgrad.html").read_text(encoding="utf-8")
    start = page.index('id="funcgrad.grad"')
    entry = page[start:page.index("</dl>", start)]
    signature = _text(entry[:entry.index("</dt>")])
    for name, param in inspect.signature(fg.grad).parameters.items():
        assert name in signature, f"parameter {name} missing from {signature!r}"
        if param.default is not inspect.Parameter.empty:  # (annotated: name: type = default)
            assert re.search(rf"\b{name}(:[^,=]*)?={re.escape(repr(param.default))}",
                             signature.replace(" ", "")), (name, signature)
    body = _text(entry)
    assert ">>> fg.grad(np.sin)(0.0)" in body
    assert "holomorphic=True" in body


def test_every_public_name_is_in_the_reference(site):
    inventory = _inventory(site)
    documented = {}
    for name in inventory:
        module, _, attr = name.rpartition(".")
        try:
            documented.setdefault(id(getattr(importlib.import_module(module), attr)), name)
        except (ImportError, AttributeError, ValueError):
            continue
    present = [m for m in OPTIONAL_MODULES if importlib.util.find_spec(m) is not None]
    missing = []
    for module_name in MODULES + present:
        module = importlib.import_module(module_name)
        assert module_name in inventory, f"no page for the module {module_name}"
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.ismodule(obj) or not _ours(obj):
                continue  # submodules have their own pages; NumPy's own names are listed
            if f"{module_name}.{name}" not in inventory and id(obj) not in documented:
                missing.append(f"{module_name}.{name}")
    assert not missing, f"public names with no entry in the reference: {missing}"


def test_numpy_functions_have_pages_by_family(site):
    inventory = _inventory(site)
    role, uri = inventory["funcgrad.numpy.sin"]
    assert role == "py:function" and uri.startswith("api/generated/funcgrad.numpy.ufuncs")
    assert inventory["funcgrad.scipy.special.erf"][0] == "py:function"
    assert inventory["funcgrad.numpy.linalg.svd"][0] == "py:function"


def test_search_index_knows_hessian(site):
    text = (site / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1:text.rindex(")")])
    assert "hessian" in index["terms"]
    assert "hessian" in index["objects"]["funcgrad"][0] or any(
        entry[4] == "hessian" for entry in index["objects"]["funcgrad"])


def _images(page_path):
    page = page_path.read_text(encoding="utf-8")
    return [(page_path.parent / src).resolve()
            for src in re.findall(r'<img[^>]+src="([^"]+)"', page)
            if not src.startswith(("http:", "https:", "data:"))]


def test_notebook_page_shows_its_stored_picture(site):
    page = site / "tutorials" / "notebooks" / "01-quickstart.html"
    images = _images(page)
    assert images and all(p.is_file() and p.stat().st_size > 1000 for p in images)
    assert "Quickstart" in page.read_text(encoding="utf-8")


def test_benchmark_page_shows_the_plot_and_the_table(site):
    page = site / "benchmarks.html"
    assert any(p.name.startswith("suite") and p.is_file() for p in _images(page))
    assert "W5 hessian, Rosenbrock n=400" in page.read_text(encoding="utf-8")


def test_every_notebook_has_stored_outputs():
    import nbformat
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert all(c.execution_count is not None for c in code if c.source.strip()), \
            f"{path.name} holds cells that never ran: run make notebooks"
        pictures = [o for c in code for o in c.get("outputs", [])
                    if "image/png" in o.get("data", {}) or "image/svg+xml" in o.get("data", {})]
        assert pictures, f"{path.name} has no stored picture: run make notebooks"


def test_sharp_bits_examples_print_what_the_page_says():
    text = (DOCS / "sharp-bits.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```pycon[ \t]*\n(.*?)^```", text, re.DOTALL | re.MULTILINE)
    assert len(blocks) >= 8
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "sharp-bits",
                                               str(DOCS / "sharp-bits.md"), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures = []
    runner.run(test, out=failures.append)
    assert runner.failures == 0, "".join(failures)


def test_readme_benchmarks_are_the_headline_of_the_stored_results():
    sys.path.insert(0, str(ROOT))
    saved = dict(os.environ)
    try:
        from benchmarks import suite
    finally:  # (the suite pins thread counts for its own process: not for later tests')
        os.environ.clear()
        os.environ.update(saved)
    payload = json.loads((ROOT / "benchmarks" / "results" / "suite.json").read_text())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert suite.headline(payload) in readme, "run: make bench (or suite.update_readme)"


def test_readme_links_resolve():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    local = [t for t in targets if not t.startswith(("http:", "https:", "mailto:"))]
    assert len(local) >= 6
    assert [t for t in local if not (ROOT / t).exists()] == []
