"""The built-in picture of a graph: a layered (Sugiyama-style) layout drawn as SVG.

Used by :mod:`funcgrad.graphviz` when Graphviz's ``dot`` is not installed.  The steps are
the classic ones, each kept small:

1. layers: every node one row below the lowest of its inputs (constants sit just above
   their first use, outputs below their value);
2. an edge that spans several rows passes through a chain of zero-width *waypoints*, one
   per row it crosses, which take a slot in that row like a node does;
3. the order within each row is improved by barycentre sweeps (down, then up), keeping
   the order with the fewest edge crossings;
4. x positions pull each node towards its neighbours while keeping the row's order and
   gaps.

Edges then run only through free space: from a box straight down to the bottom of its row,
across the gap between rows as a curve, and straight down through any row they cross, at a
waypoint's slot.  So an edge never passes through a box, whatever the graph.

A hand-written layout rather than a dependency (such as grandalf): the graphs are small and
acyclic, the steps above are a page of code, and the picture then works with only NumPy
installed.
"""
from xml.sax.saxutils import escape

__all__ = ["layout_svg"]

# Boxes are sized from the text: a monospace font makes the width of a label exact.
_FONT = "Menlo, Consolas, 'DejaVu Sans Mono', monospace"
_FONT_SIZE = 11
_CHAR_W = 6.7          # advance of one character at 11 px in the fonts above (at most)
_LINE_H = 15.0
_PAD_X, _PAD_Y = 9.0, 6.0
_GAP_X = 22.0          # between neighbours in a row
_GAP_Y = 40.0          # between rows: where edges bend
_WAYPOINT_W = 6.0      # the slot an edge takes in a row it crosses
_MARGIN = 12.0
_SWEEPS = 12
_BIG = 3000            # nodes and waypoints: above this, fewer sweeps (seconds, not tens)


class _Node:
    __slots__ = ("nid", "kind", "lines", "w", "h", "layer", "x", "preds", "succs")

    def __init__(self, nid, kind, lines, w, h):
        self.nid, self.kind, self.lines, self.w, self.h = nid, kind, lines, w, h
        self.layer, self.x = 0, 0.0
        self.preds, self.succs = [], []


def _box(nid, kind, lines):
    w = max(len(line) for line in lines) * _CHAR_W + 2 * _PAD_X
    h = len(lines) * _LINE_H + 2 * _PAD_Y
    return _Node(nid, kind, lines, w, h)


def _assign_layers(nodes, edges):
    by_id = {n.nid: n for n in nodes}
    for src, dst in edges:
        by_id[src].succs.append(by_id[dst])
        by_id[dst].preds.append(by_id[src])
    for n in nodes:  # nodes come in topological order
        if n.preds:
            n.layer = 1 + max(p.layer for p in n.preds)
    # A constant (no inputs) goes just above its first use rather than in the top row, so
    # its edge is short; inputs stay in the top row, where a reader looks for them.
    for n in nodes:
        if n.kind == "const" and n.succs:
            n.layer = min(s.layer for s in n.succs) - 1


def _split_long_edges(nodes):
    """Replace each edge spanning several rows by a chain through waypoints."""
    waypoints = []
    for n in list(nodes):
        for k, s in enumerate(list(n.succs)):
            if s.layer - n.layer <= 1:
                continue
            prev = n
            for layer in range(n.layer + 1, s.layer):
                wp = _Node(f"{n.nid}->{s.nid}@{layer}", "waypoint", [], _WAYPOINT_W, 0.0)
                wp.layer = layer
                wp.preds.append(prev)
                if prev is n:
                    n.succs[k] = wp
                else:
                    prev.succs.append(wp)
                waypoints.append(wp)
                prev = wp
            prev.succs.append(s)
            s.preds[s.preds.index(n)] = prev
    return waypoints


def _crossings(rows):
    """Edge crossings between neighbouring rows: with the edges sorted by their upper end,
    two cross when their lower ends come in the other order, so count those inversions
    (a Fenwick tree over lower positions: n log n, where deep graphs have many edges)."""
    total = 0
    for upper, lower in zip(rows, rows[1:]):
        pos = {id(n): i for i, n in enumerate(lower)}
        ends = sorted((i, pos[id(s)]) for i, n in enumerate(upper) for s in n.succs)
        tree = [0] * (len(lower) + 1)
        for seen, (_, low) in enumerate(ends):
            i, not_greater = low + 1, 0  # earlier edges whose lower end is <= this one's
            while i:
                not_greater += tree[i]
                i -= i & -i
            total += seen - not_greater
            i = low + 1
            while i <= len(lower):
                tree[i] += 1
                i += i & -i
    return total


def _order_rows(rows, sweeps):
    """Barycentre sweeps: each row sorted by the mean position of its neighbours in the
    row just swept; the order with the fewest crossings wins."""
    best, best_crossings = [list(r) for r in rows], _crossings(rows)
    for sweep in range(sweeps):
        down = sweep % 2 == 0
        order = range(1, len(rows)) if down else range(len(rows) - 2, -1, -1)
        for r in order:
            ref = rows[r - 1] if down else rows[r + 1]
            pos = {id(n): i for i, n in enumerate(ref)}

            def key(item):
                i, n = item
                near = [pos[id(m)] for m in (n.preds if down else n.succs) if id(m) in pos]
                return (sum(near) / len(near) if near else i, i)

            rows[r] = [n for _, n in sorted(enumerate(rows[r]), key=key)]
        crossings = _crossings(rows)
        if crossings < best_crossings:
            best, best_crossings = [list(r) for r in rows], crossings
    return best


def _place_row(row, want):
    """x centres closest to ``want`` (least squares) that keep the row's order and gaps.

    With ``y_i = x_i - c_i``, where ``c_i`` sums the gaps required left of node ``i``, the
    constraints become ``y_0 <= y_1 <= ...``: an isotonic regression of ``want_i - c_i``,
    solved exactly by pooling adjacent violators."""
    offsets, c = [], 0.0
    for i, n in enumerate(row):
        if i:
            c += (row[i - 1].w + n.w) / 2 + _GAP_X
        offsets.append(c)
    blocks = []  # [mean, count]
    for target in (w - c for w, c in zip(want, offsets)):
        blocks.append([target, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            (m2, k2), (m1, k1) = blocks.pop(), blocks.pop()
            blocks.append([(m1 * k1 + m2 * k2) / (k1 + k2), k1 + k2])
    i = 0
    for mean, count in blocks:
        for _ in range(count):
            row[i].x = mean + offsets[i]
            i += 1


def _assign_x(rows, sweeps):
    for row in rows:  # start packed from the left
        _place_row(row, [0.0] * len(row))
    for sweep in range(sweeps):  # then let each node drift towards its neighbours' mean
        down = sweep % 2 == 0
        for row in (rows if down else rows[::-1]):
            want = []
            for n in row:
                near = n.preds + n.succs
                want.append(sum(m.x for m in near) / len(near) if near else n.x)
            _place_row(row, want)
    left = min(n.x - n.w / 2 for row in rows for n in row)
    for row in rows:
        for n in row:
            n.x += _MARGIN - left


def _ports(node, others, width):
    """x of the attachment point for each neighbour in ``others``, spread along the box's
    edge in the neighbours' left-to-right order (so edges into one box do not cross)."""
    if len(others) <= 1 or width <= _WAYPOINT_W:
        return {id(o): node.x for o in others}
    ranked = sorted(others, key=lambda o: o.x)
    span = min(width - 2 * _PAD_X, 12.0 * (len(others) - 1))
    return {id(o): node.x - span / 2 + span * i / (len(others) - 1)
            for i, o in enumerate(ranked)}


def layout_svg(nodes, edges, colors, caption=None):
    """SVG text for ``nodes`` ``[(id, kind, [label lines])]`` (in topological order; kind
    one of ``input``, ``const``, ``eqn``, ``output``), ``edges`` ``[(src, dst)]``, box
    ``colors`` by kind, and an optional ``caption`` line under the picture.

    >>> from funcgrad.graph_layout import layout_svg
    >>> nodes = [("in0", "input", ["a: f64[3]"]), ("e0", "eqn", ["sin a", "-> b: f64[3]"]),
    ...          ("out0", "output", ["out 0: b"])]
    >>> colors = dict(input="#dbeafe", const="#e5e7eb", eqn="#fef3c7", output="#dcfce7")
    >>> svg = layout_svg(nodes, [("in0", "e0"), ("e0", "out0")], colors)
    >>> svg.startswith("<svg"), svg.count('class="edge"')
    (True, 2)
    """
    boxes = [_box(*n) for n in nodes]
    if not boxes:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'
    _assign_layers(boxes, edges)
    low = min(n.layer for n in boxes)
    for n in boxes:
        n.layer -= low
    everything = boxes + _split_long_edges(boxes)
    rows = [[] for _ in range(1 + max(n.layer for n in everything))]
    for n in everything:
        rows[n.layer].append(n)
    big = len(everything) > _BIG
    rows = _order_rows(rows, 4 if big else _SWEEPS)
    _assign_x(rows, 4 if big else 8)

    # Row bands: each row as tall as its tallest box, boxes centred in it.
    tops, y = [], _MARGIN
    for row in rows:
        tops.append(y)
        y += max((n.h for n in row), default=0.0) + _GAP_Y
    bottoms = [t + max((n.h for n in row), default=0.0) for t, row in zip(tops, rows)]
    height = bottoms[-1] + _MARGIN + (_LINE_H if caption else 0.0)
    width = max(n.x + n.w / 2 for n in everything) + _MARGIN

    def box_top(n):
        return tops[n.layer] + (bottoms[n.layer] - tops[n.layer] - n.h) / 2

    out_ports = {id(n): _ports(n, n.succs, n.w) for n in everything}
    in_ports = {id(n): _ports(n, n.preds, n.w) for n in everything}

    paths = []
    for n in boxes:
        for s in n.succs:
            # Follow the chain of waypoints down to the real target.
            x0 = out_ports[id(n)][id(s)]
            pts = [f"M {x0:.1f} {box_top(n) + n.h:.1f}", f"L {x0:.1f} {bottoms[n.layer]:.1f}"]
            src, dst = n, s
            while True:
                x1 = out_ports[id(src)][id(dst)] if src is not n else x0
                x2 = in_ports[id(dst)][id(src)]
                y1, y2 = bottoms[src.layer], tops[dst.layer]
                mid = (y1 + y2) / 2
                pts.append(f"C {x1:.1f} {mid:.1f} {x2:.1f} {mid:.1f} {x2:.1f} {y2:.1f}")
                if dst.kind != "waypoint":
                    if box_top(dst) - y2 > 0.5:  # a shorter box sits lower in its row
                        pts.append(f"L {x2:.1f} {box_top(dst):.1f}")
                    break
                pts.append(f"L {x2:.1f} {bottoms[dst.layer]:.1f}")
                src, dst = dst, dst.succs[0]
            paths.append(f'<path class="edge" d="{" ".join(pts)}" fill="none" '
                         f'stroke="#6b7280" marker-end="url(#fg-arrow)"><title>'
                         f'{escape(n.nid)} \u2192 {escape(dst.nid)}</title></path>')

    body = []
    for n in boxes:
        top, left = box_top(n), n.x - n.w / 2
        rx = n.h / 2 if n.kind in ("input", "output") else 5.0
        dash = ' stroke-dasharray="4 2"' if n.kind == "const" else ""
        body.append(f'<g class="node {n.kind}"><title>{escape(n.nid)}</title>'
                    f'<rect x="{left:.1f}" y="{top:.1f}" width="{n.w:.1f}" height="{n.h:.1f}" '
                    f'rx="{min(rx, 12.0):.1f}" fill="{colors[n.kind]}" stroke="#374151"{dash}/>')
        for i, line in enumerate(n.lines):
            weight = ' font-weight="bold"' if n.kind == "eqn" and i == 0 else ""
            body.append(f'<text x="{n.x:.1f}" y="{top + _PAD_Y + 11 + i * _LINE_H:.1f}" '
                        f'text-anchor="middle"{weight}>{escape(line)}</text>')
        body.append("</g>")
    if caption:
        body.append(f'<text class="caption" x="{_MARGIN:.1f}" y="{height - _MARGIN + 2:.1f}" '
                    f'fill="#4b5563">{escape(caption)}</text>')
        width = max(width, len(caption) * _CHAR_W + 2 * _MARGIN)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'font-family="{_FONT}" font-size="{_FONT_SIZE}">'
            f'<defs><marker id="fg-arrow" viewBox="0 0 10 10" refX="10" refY="5" '
            f'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M 0 0 L 10 5 L 0 10 z" fill="#6b7280"/></marker></defs>'
            + "".join(paths) + "".join(body) + "</svg>")
