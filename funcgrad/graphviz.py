"""Pictures of a captured :class:`~funcgrad.Graph`: DOT text and SVG.

``graph.to_dot()`` gives Graphviz DOT text; in a notebook a graph shows as a
picture (``_repr_svg_`` / ``_repr_html_``).  The SVG comes from Graphviz's
``dot`` program when it is installed (``apt-get install graphviz``,
``brew install graphviz``, ``conda install graphviz``), and otherwise from a
small built-in layout (layered boxes and arrows), so a picture always shows.

Nodes: inputs (blue ellipses), array constants (grey), one box per equation
(its primitive, inputs and parameters, and the value it defines), and the
outputs (green).  Edges follow the values.
"""
import shutil
import subprocess
from xml.sax.saxutils import escape

import numpy as np

__all__ = ["to_dot", "to_svg", "MAX_PICTURE_EQUATIONS"]

MAX_PICTURE_EQUATIONS = 500
"""Graphs with more equations show as text in a notebook (a picture would be unreadable)."""

_MAX_LABEL = 48
_COLORS = {"input": "#dbeafe", "const": "#e5e7eb", "eqn": "#fef3c7", "output": "#dcfce7"}


def _short(text, limit=_MAX_LABEL):
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _structure(graph):
    """Nodes ``[(id, kind, [label lines])]`` and edges ``[(src, dst)]`` of ``graph``."""
    from .core import aval_of
    names = graph._names()  # every value of the graph (a Var) has a name; constants do not
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
            nodes.append((cid, "const", [f"{cid}: {aval_of(x).str_short()}"]))
        return consts[key], consts[key]

    for k, eqn in enumerate(graph.eqns):
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
    return nodes, edges


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
    nodes, edges = _structure(graph)
    lines = [f"digraph {name} {{", "  rankdir=TB;",
             '  node [fontname="Helvetica", fontsize=11];',
             '  edge [color="#6b7280", arrowsize=0.7];']
    for nid, kind, label in nodes:
        lines.append(f"  {nid} [label={_dot_label(label)}, "
                     f"shape={shapes[kind]}, style={_dot_string(styles[kind])}, "
                     f"fillcolor={_dot_string(_COLORS[kind])}];")
    for src, dst in edges:
        lines.append(f"  {src} -> {dst};")
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


# --- the built-in layout ----------------------------------------------------------------------

_CHAR_W, _LINE_H, _PAD, _GAP_X, _GAP_Y = 7.0, 15.0, 8.0, 24.0, 36.0


def _python_svg(graph):
    nodes, edges = _structure(graph)
    preds = {}
    for src, dst in edges:
        preds.setdefault(dst, []).append(src)
    layer = {}
    for nid, kind, _ in nodes:  # nodes come in topological order
        layer[nid] = 1 + max((layer[p] for p in preds.get(nid, ())), default=-1)
    rows = {}
    for nid, kind, lines in nodes:
        w = max(len(line) for line in lines) * _CHAR_W + 2 * _PAD
        h = len(lines) * _LINE_H + 2 * _PAD - 4
        rows.setdefault(layer[nid], []).append((nid, kind, lines, w, h))
    widths = {r: sum(n[3] for n in row) + _GAP_X * (len(row) - 1) for r, row in rows.items()}
    total_w = max(widths.values(), default=100) + 2 * _GAP_X
    pos = {}
    y = _GAP_X / 2
    body = []
    for r in sorted(rows):
        row = rows[r]
        if r:  # order each layer by where its inputs are: fewer crossing edges
            row.sort(key=lambda n: sum(pos[p][0] for p in preds[n[0]]) / len(preds[n[0]])
                     if preds.get(n[0]) else 0.0)
        row_h = max(n[4] for n in row)
        x = (total_w - widths[r]) / 2
        for nid, kind, lines, w, h in row:
            top = y + (row_h - h) / 2
            pos[nid] = (x + w / 2, top, top + h)
            rx = h / 2 if kind in ("input", "output") else 6
            dash = ' stroke-dasharray="4 2"' if kind == "const" else ""
            body.append(f'<g class="node {kind}"><title>{escape(nid)}</title>'
                        f'<rect x="{x:.1f}" y="{top:.1f}" width="{w:.1f}" height="{h:.1f}" '
                        f'rx="{rx:.1f}" fill="{_COLORS[kind]}" stroke="#374151"{dash}/>')
            for i, line in enumerate(lines):
                weight = ' font-weight="bold"' if kind == "eqn" and i == 0 else ""
                body.append(f'<text x="{x + w / 2:.1f}" y="{top + _PAD + 11 + i * _LINE_H:.1f}" '
                            f'text-anchor="middle"{weight}>{escape(line)}</text>')
            body.append("</g>")
            x += w + _GAP_X
        y += row_h + _GAP_Y
    arrows = []
    for src, dst in edges:
        x1, _, y1 = pos[src]
        x2, y2, _ = pos[dst]
        arrows.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2 - 2:.1f}" '
                      f'stroke="#6b7280" marker-end="url(#fg-arrow)"/>')
    height = y - _GAP_Y + _GAP_X / 2
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {total_w:.0f} {height:.0f}" '
            f'font-family="Helvetica, Arial, sans-serif" font-size="11">'
            f'<defs><marker id="fg-arrow" viewBox="0 0 10 10" refX="10" refY="5" '
            f'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M 0 0 L 10 5 L 0 10 z" fill="#6b7280"/></marker></defs>'
            + "".join(arrows) + "".join(body) + "</svg>")


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
