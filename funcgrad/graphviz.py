"""Pictures of a captured :class:`~funcgrad.Graph`: DOT text and SVG.

``graph.to_dot()`` gives Graphviz DOT text; in a notebook a graph shows as a
picture (``_repr_svg_`` / ``_repr_html_``).  The SVG comes from Graphviz's
``dot`` program when it is installed (``apt-get install graphviz``,
``brew install graphviz``, ``conda install graphviz``), and otherwise from the
built-in layered layout of :mod:`funcgrad.graph_layout`, so a picture always
shows.

Nodes: inputs (blue ellipses), array constants (grey, with their shape and
values), one box per equation (its primitive, inputs and parameters, and the
value it defines), and the outputs (green).  Edges follow the values.
Equations that no output depends on are left out of the picture and counted in
a note under it; ``print(graph)`` lists every equation.
"""
import shutil
import subprocess
from xml.sax.saxutils import escape

import numpy as np

from .graph_layout import layout_svg

__all__ = ["to_dot", "to_svg", "MAX_PICTURE_EQUATIONS"]

MAX_PICTURE_EQUATIONS = 500
"""Graphs with more equations show as text in a notebook (a picture would be unreadable)."""

_MAX_LABEL = 48
_COLORS = {"input": "#dbeafe", "const": "#e5e7eb", "eqn": "#fef3c7", "output": "#dcfce7"}


def _short(text, limit=_MAX_LABEL):
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _const_label(cid, value):
    """``c0: f64[3] = [1., 1., 1.]``: the shape, and the values when they fit on a line
    (or the one value every entry holds, or the range)."""
    from .core import aval_of
    head = f"{cid}: {aval_of(value).str_short()}"
    host = np.asarray(value)
    if host.size == 0 or host.dtype.kind not in "biufc":
        return [head]
    with np.printoptions(precision=4, threshold=8, edgeitems=3, suppress=True):
        shown = np.array2string(host.ravel() if host.ndim > 1 else host, separator=", ")
    flat = host.ravel()
    if host.ndim <= 1 and len(shown) <= 30 and host.size <= 6:
        return [head, f"= {shown}"]
    if np.all(flat == flat[0]):
        return [head, f"every entry {flat[0].item()!r}"]
    if host.dtype.kind in "biuf":
        return [head, f"from {flat.min().item():.4g} to {flat.max().item():.4g}"]
    return [head]


def _structure(graph):
    """Nodes ``[(id, kind, [label lines])]``, edges ``[(src, dst)]`` and the number of
    equations left out because no output depends on them (e.g. the value of ``f``
    computed inside ``grad(f)``, which ``grad`` does not return)."""
    names = graph._names()  # every value of the graph (a Var) has a name; constants do not
    live = _live_equations(graph)
    producer = {}  # id(var) -> node id
    nodes, edges = [], []
    consts = {}

    for k, v in enumerate(graph.invars):
        nodes.append((f"in{k}", "input", [f"{names[id(v)]}: {v.aval.str_short()}"]))
        producer[id(v)] = f"in{k}"

    def literal(x):
        if isinstance(x, (bool, int, float, complex)):
            return repr(x)
        if np.ndim(x) == 0:
            return repr(x.item() if hasattr(x, "item") else x)
        return None

    def source(x):
        """(text shown in the equation, node the value comes from or None)."""
        if id(x) in names:
            return names[id(x)], producer.get(id(x))
        text = literal(x)
        if text is not None:
            return text, None
        key = id(x)
        if key not in consts:
            cid = f"c{len(consts)}"
            consts[key] = cid
            nodes.append((cid, "const", _const_label(cid, x)))
        return consts[key], consts[key]

    for k, eqn in enumerate(graph.eqns):
        if not live[k]:
            continue
        nid = f"e{k}"
        ins = []
        for x in eqn.inputs:
            text, src = source(x)
            ins.append(text)
            if src is not None and (src, nid) not in edges:
                edges.append((src, nid))
        lines = [_short(f"{eqn.prim.name} {' '.join(ins)}".strip())]
        params = ", ".join(f"{p}={graph.show_param(v)}" for p, v in eqn.params.items())
        if params:
            lines.append(_short(f"[{params}]"))
        outs = " ".join(f"{names[id(v)]}: {v.aval.str_short()}" for v in eqn.outvars)
        lines.append(_short(f"\u2192 {outs}"))
        nodes.append((nid, "eqn", lines))
        for v in eqn.outvars:
            producer[id(v)] = nid

    for k, v in enumerate(graph.outvars):
        text, src = source(v)
        label = f"out {k}: {text}" if src is not None or id(v) in names else \
            f"out {k} = {_short(text, 24)}"
        nodes.append((f"out{k}", "output", [label]))
        if src is not None:
            edges.append((src, f"out{k}"))
    return nodes, edges, len(graph.eqns) - sum(live)


def _live_equations(graph):
    """For each equation, whether an output depends on it (every primitive is pure, so the
    others change nothing the graph returns)."""
    needed = {id(v) for v in graph.outvars}
    live = [False] * len(graph.eqns)
    for k in range(len(graph.eqns) - 1, -1, -1):
        eqn = graph.eqns[k]
        if any(id(v) in needed for v in eqn.outvars):
            live[k] = True
            needed.update(id(x) for x in eqn.inputs)
    return live


def _dot_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _dot_label(lines):
    """A quoted DOT label, one centred line per entry."""
    return "\\n".join(_dot_string(line)[1:-1] for line in lines).join('""')


def to_dot(graph, name="funcgrad"):
    """Graphviz DOT text of ``graph``: inputs, one node per equation, outputs, and
    an edge for each value passed on.  Render it with ``dot -Tsvg`` or any DOT viewer.

    >>> import numpy as np, funcgrad as fg
    >>> dot = fg.make_graph(lambda x: np.sin(x) * 2.0)(np.ones(3)).to_dot()
    >>> dot.splitlines()[0], "sin a" in dot, "in0 -> e0;" in dot
    ('digraph funcgrad {', True, True)
    """
    shapes = {"input": "ellipse", "const": "box", "eqn": "box", "output": "ellipse"}
    styles = {"input": "filled", "const": "filled,dashed", "eqn": "rounded,filled",
              "output": "filled"}
    nodes, edges, pruned = _structure(graph)
    lines = [f"digraph {name} {{", "  rankdir=TB;",
             '  node [fontname="Helvetica", fontsize=11];',
             '  edge [color="#6b7280", arrowsize=0.7];']
    for nid, kind, label in nodes:
        lines.append(f"  {nid} [label={_dot_label(label)}, "
                     f"shape={shapes[kind]}, style={_dot_string(styles[kind])}, "
                     f"fillcolor={_dot_string(_COLORS[kind])}];")
    for src, dst in edges:
        lines.append(f"  {src} -> {dst};")
    note = _pruned_note(pruned)
    if note:
        lines.append(f"  label={_dot_string(note)}; labelloc=b; fontsize=10;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_svg(graph, engine="auto"):
    """An SVG picture of ``graph`` as text.  ``engine``: ``"dot"`` (Graphviz, must be
    installed), ``"python"`` (the built-in layout) or ``"auto"`` (Graphviz when its
    ``dot`` program is on PATH, else the built-in layout).

    >>> import numpy as np, funcgrad as fg
    >>> svg = fg.make_graph(np.sin)(np.ones(2)).to_svg(engine="python")
    >>> svg.startswith("<svg")
    True
    """
    if engine not in ("auto", "dot", "python"):
        raise ValueError(f"to_svg(engine={engine!r}): use 'auto', 'dot' or 'python'")
    if engine != "python":
        dot = shutil.which("dot")
        if dot is None:
            if engine == "dot":
                raise RuntimeError("to_svg(engine='dot') needs Graphviz's `dot` program on "
                                   "PATH: install Graphviz (apt-get install graphviz, brew "
                                   "install graphviz or conda install graphviz), or use "
                                   "engine='python'")
        else:
            try:
                result = subprocess.run([dot, "-Tsvg"], input=to_dot(graph),
                                        capture_output=True, text=True, timeout=30)
                if result.returncode == 0 and "<svg" in result.stdout:
                    return _strip_prolog(result.stdout)
                error = result.stderr.strip()
            except (OSError, subprocess.SubprocessError) as e:
                error = str(e)
            if engine == "dot":
                raise RuntimeError(f"Graphviz's dot failed to render the graph: {error}. "
                                   f"Use engine='python' for the built-in layout.")
    return _python_svg(graph)


def _strip_prolog(svg):
    """The ``<svg>`` element alone (no XML declaration or DOCTYPE), for inline HTML."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


def _python_svg(graph):
    nodes, edges, pruned = _structure(graph)
    return layout_svg(nodes, edges, _COLORS, caption=_pruned_note(pruned))


def _pruned_note(pruned):
    if not pruned:
        return None
    return (f"{pruned} equation{'s' if pruned > 1 else ''} whose result is never used "
            f"not drawn (print(graph) lists every equation)")


# --- notebook display -----------------------------------------------------------------------

def repr_svg(graph):
    """The notebook picture (None, i.e. text only, for very large graphs)."""
    if len(graph.eqns) > MAX_PICTURE_EQUATIONS:
        return None
    return to_svg(graph)


def repr_html(graph):
    """The picture with the text listing folded under it."""
    text = f"<details><summary>text</summary><pre>{escape(str(graph))}</pre></details>"
    svg = repr_svg(graph)
    if svg is None:
        return f"<pre>{escape(str(graph))}</pre>"
    return f'<div class="funcgrad-graph">{svg}{text}</div>'
