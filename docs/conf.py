"""Sphinx configuration of funcgrad's documentation site (``make docs``).

Sources: the Markdown pages beside this file (MyST), the notebooks of ``notebooks/``
rendered from the outputs stored in them (never executed here; ``make notebooks``
refreshes them), and the API reference that ``_ext/apipages.py`` generates from the
modules' ``__all__`` and docstrings.
"""
import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(ROOT))

import funcgrad  # noqa: E402

project = "funcgrad"
author = "the funcgrad developers"
copyright = "funcgrad developers"
release = version = funcgrad.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "myst_nb",
    "apipages",
]

# The docstrings are reStructuredText as Python's own help() shows it: ``literal`` spans,
# >>> examples, :mod:/:func: roles. They have no NumPy/Google "Parameters" sections, so
# napoleon would have nothing to convert (and would misread prose lines ending in ':').
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True


def _presented_signatures_keep_their_defaults():
    """funcgrad.numpy's elementwise functions present NumPy's ufunc keywords keyword-only
    (their ``__signature__``) while their ``def`` takes them by position (CPython calls
    that faster); Sphinx's preserve-defaults pass pairs the ``def``'s defaults with the
    presented kinds and fails.  A function with a ``__signature__`` keeps the defaults it
    presents."""
    try:
        from sphinx.ext.autodoc._dynamic import _signatures
    except ImportError:  # (Sphinx 8 lays autodoc out otherwise: left as it is)
        return
    original = _signatures.update_default_value

    def update_default_value(obj, bound_method):
        if "__signature__" not in getattr(obj, "__dict__", {}):
            original(obj, bound_method=bound_method)
    _signatures.update_default_value = update_default_value


_presented_signatures_keep_their_defaults()
autosummary_generate = False  # the pages are written by apipages, not by autosummary
add_module_names = False
# Functions and classes stay out of the pages' tables of contents: a family page of forty
# functions would otherwise give every page of the site a navigation tree of a thousand
# entries (measured: half the build time went to it); each page opens with its summary table.
toc_object_entries = False

# A broken cross-reference to funcgrad is an error. References to outside types (NumPy's,
# the typing module's, builtins in annotations) are not: no intersphinx, the build must
# work offline.
nitpicky = True
# Private classes named by a signature or a base class (``funcgrad.modes._Mode``) have no
# page either: they are the implementation.
# Nor do the result types of public functions (NumPy's namedtuples such as SlogdetResult,
# the helper behind ``x.at``): their functions' docstrings describe them.
nitpick_ignore_regex = [(r"py:.*", r"(?!funcgrad\b).*"),
                        (r"py:.*", r"funcgrad(\.\w+)*\._\w+(\.\w+)*"),
                        (r"py:class", r"funcgrad\.numpy(\.\w+)*\.(\w+Result|IndexUpdateHelper)")]

# Notebooks: shown with their stored outputs, never executed at build time.
nb_execution_mode = "off"
nb_merge_streams = True
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist"]
myst_heading_anchors = 3

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store"]

html_theme = "furo"
html_title = f"funcgrad {release}"
html_static_path = []
html_copy_source = False
html_show_sourcelink = False

# The tutorials are the notebooks of notebooks/, copied in (Sphinx reads sources only
# from under docs/); the copies are git-ignored and refreshed when their source changes.
_NOTEBOOKS_OUT = DOCS / "tutorials" / "notebooks"


def _copy_notebooks(app):
    _NOTEBOOKS_OUT.mkdir(parents=True, exist_ok=True)
    sources = sorted((ROOT / "notebooks").glob("*.ipynb"))
    for src in sources:
        dst = _NOTEBOOKS_OUT / src.name
        if not dst.exists() or dst.read_bytes() != src.read_bytes():
            shutil.copyfile(src, dst)
    for stale in _NOTEBOOKS_OUT.glob("*.ipynb"):
        if not (ROOT / "notebooks" / stale.name).exists():
            stale.unlink()


def setup(app):
    app.connect("builder-inited", _copy_notebooks)
