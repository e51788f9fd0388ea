"""``fg.lax``: control flow on traced values, as differentiable primitives.

Inside ``jit`` a Python ``if`` or ``while`` on a traced value cannot run (the value is
not known while tracing); these functions express value-dependent control flow as
primitives whose branches and bodies are traced into graphs:

* :func:`cond` / :func:`switch` — pick a branch by a (traced) predicate or index;
* :func:`fori_loop` — a counted loop; with Python-int bounds it is a :func:`scan`;
* :func:`while_loop` — a loop with a traced condition;
* :func:`scan` — a loop carrying state and stacking per-step outputs.

They also work eagerly and under every transform: each primitive has all its rules
(``impl``, ``abstract_eval``, ``jvp``, ``vjp``, ``batch``), built from its graphs by
:mod:`funcgrad.jit.derive`.  Reverse mode of ``scan``/``fori_loop`` saves the carry of
every step and runs the steps backwards; reverse mode of ``while_loop`` needs the
number of steps, so it works when the loop runs on concrete values (``grad`` outside
``jit``) and raises a clear error while tracing for ``jit`` (use ``fori_loop`` or
``scan`` there).

Eagerly (outside ``jit``) branches and bodies are evaluated operation by operation;
wrap the caller in ``fg.jit`` to compile them into one loop.

>>> import numpy as np, funcgrad as fg
>>> fg.lax.fori_loop(0, 3, lambda i, x: x * 2.0, 1.0)
array(8.)
>>> float(fg.jit(lambda x: fg.lax.cond(x > 0, np.sin, np.cos, x))(0.0))
1.0

Modules: ``_cond`` (``cond``, ``switch``), ``_scan``, ``_while``, ``_fori``, and
``_graphs``, what they share (tracing the user's functions, regrouping graphs).
"""
from ._collectives import axis_index, pmax, pmean, pmin, psum
from ._cond import cond, cond_p, switch
from ._fori import fori_loop
from ._scan import scan, scan_p
from ._while import while_loop, while_loop_p

__all__ = ["cond", "switch", "fori_loop", "while_loop", "scan", "cond_p", "scan_p",
           "while_loop_p"]
__all__ += ["psum", "pmean", "pmax", "pmin", "axis_index"]
