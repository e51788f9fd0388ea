"""What the reliability tests share: the long-run switch and the figures they report.

``FUNCGRAD_LONG=1`` (set by ``make soak`` / ``benchmarks/soak.py``) selects the long
variants; :func:`figure` prints a figure for the report and appends it to the file named by
``$FUNCGRAD_FIGURES``, which ``benchmarks/soak.py`` collects.
"""
import json
import os

LONG = os.environ.get("FUNCGRAD_LONG", "") not in ("", "0")


def figure(name, **values):
    """Report ``values`` under the figure kind ``name``."""
    line = {"test": name, **values}
    print("FIGURE", json.dumps(line))
    path = os.environ.get("FUNCGRAD_FIGURES")
    if path:
        with open(path, "a") as fh:
            fh.write(json.dumps(line) + "\n")
