"""make_graph text, DOT, and SVG pictures (Graphviz when installed, built-in otherwise)."""
import doctest
import re
import shutil
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import funcgrad as fg
from funcgrad import graph_layout, graphviz

SVG = "{http://www.w3.org/2000/svg}"


def small(x, w):
    return np.sum(np.tanh(x @ w) * 2.0)


def small_graph():
    return fg.make_graph(small)(np.ones((2, 3)), np.ones((3, 4)))


def test_make_graph_text_lists_the_equations():
    assert str(small_graph()) == (
        "{ lambda  ; a:f64[2,3], b:f64[3,4]. let\n"
        "    c:f64[2,4] = matmul a b\n"
        "    d:f64[2,4] = tanh c\n"
        "    e:f64[2,4] = multiply d 2.0\n"
        "    f:f64[] = reduce_sum[axes=(0, 1), keepdims=False] e\n"
        "  in (f) }")


def test_to_dot_has_inputs_equations_outputs_and_edges():
    dot = small_graph().to_dot()
    assert dot.startswith("digraph funcgrad {") and dot.rstrip().endswith("}")
    for label in ('"a: f64[2,3]"', '"b: f64[3,4]"', '"matmul a b\\n→ c: f64[2,4]"',
                  '"multiply d 2.0\\n→ e: f64[2,4]"', '"out 0: f"',
                  '"reduce_sum e\\n[axes=(0, 1), keepdims=False]\\n→ f: f64[]"'):
        assert f"label={label}" in dot
    for edge in ("in0 -> e0;", "in1 -> e0;", "e0 -> e1;", "e1 -> e2;", "e2 -> e3;",
                 "e3 -> out0;"):
        assert edge in dot


def _parse_svg(text):
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    return root


def test_builtin_svg_parses_and_shows_every_node():
    graph = small_graph()
    root = _parse_svg(graph.to_svg(engine="python"))
    texts = [t.text for t in root.iter(SVG + "text")]
    for expected in ("a: f64[2,3]", "matmul a b", "tanh c", "multiply d 2.0", "out 0: f"):
        assert expected in texts
    assert len(list(root.iter(SVG + "rect"))) == 2 + 4 + 1  # inputs, equations, output
    assert len(_edges(root)) == 6


def _edges(root):
    return [p for p in root.iter(SVG + "path") if p.get("class") == "edge"]


def _boxes(root):
    return [tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))
            for r in root.iter(SVG + "rect")]


def _points_along(d, samples=24):
    """Points on an SVG path made of M, L and C (cubic Bezier) commands."""
    tokens = re.findall(r"[MLC]|-?\d+(?:\.\d+)?", d)
    points, i, current = [], 0, None
    while i < len(tokens):
        cmd = tokens[i]
        n = 1 if cmd in "ML" else 3
        xy = [(float(tokens[i + 1 + 2 * k]), float(tokens[i + 2 + 2 * k])) for k in range(n)]
        i += 1 + 2 * n
        if cmd == "C":
            p0, (p1, p2, p3) = np.array(current), map(np.array, xy)
            for t in np.linspace(0, 1, samples):
                points.append((1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1
                              + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3)
        elif cmd == "L":
            for t in np.linspace(0, 1, samples):
                points.append((1 - t) * np.array(current) + t * np.array(xy[0]))
        current = xy[-1]
        points.append(np.array(current))
    return points


def _crossed_boxes(svg):
    """(edge, box) pairs where an edge passes through the inside of a box."""
    root = _parse_svg(svg)
    boxes = _boxes(root)
    bad = []
    for edge in _edges(root):
        for x, y in _points_along(edge.get("d")):
            for bx, by, bw, bh in boxes:
                if bx + 1 < x < bx + bw - 1 and by + 1 < y < by + bh - 1:
                    bad.append((edge.find(SVG + "title").text, (bx, by)))
    return sorted(set(bad))


def wide_and_deep(x, w):
    """Long edges (a, b reused far below), parallel branches, constants, two outputs."""
    y = np.tanh(x @ w)
    z = np.sum(y * x[:, :1] + np.sin(y) ** 2) + np.sum(x)
    return z, np.exp(np.cos(np.sin(y))) * w[0]


@pytest.mark.parametrize("transform", ["plain", "grad"])
def test_builtin_edges_never_pass_through_boxes(transform):
    args = (np.ones((2, 3)), np.ones((3, 4)))
    fn = wide_and_deep if transform == "plain" else \
        fg.grad(lambda x, w: wide_and_deep(x, w)[0], argnums=(0, 1))
    svg = fg.make_graph(fn)(*args).to_svg(engine="python")
    assert len(_edges(_parse_svg(svg))) >= 20
    assert _crossed_boxes(svg) == []


def test_the_crossing_check_sees_a_crossing():
    """The geometric check of the test above does flag an edge drawn through a box."""
    svg = small_graph().to_svg(engine="python")
    root = _parse_svg(svg)
    bx, by, bw, bh = _boxes(root)[3]
    cx, cy = bx + bw / 2, by + bh / 2
    through = (f'<path class="edge" d="M {cx - 40} {cy} L {cx + 40} {cy}"><title>x</title>'
               f'</path></svg>')
    assert _crossed_boxes(svg) == []
    assert _crossed_boxes(svg.replace("</svg>", through))


def test_builtin_boxes_do_not_overlap():
    root = _parse_svg(fg.make_graph(fg.grad(lambda x, w: wide_and_deep(x, w)[0]))(
        np.ones((2, 3)), np.ones((3, 4))).to_svg(engine="python"))
    boxes = _boxes(root)
    for i, (x1, y1, w1, h1) in enumerate(boxes):
        for x2, y2, w2, h2 in boxes[i + 1:]:
            assert x1 + w1 <= x2 or x2 + w2 <= x1 or y1 + h1 <= y2 or y2 + h2 <= y1


def test_dead_equations_are_left_out_of_the_picture_and_counted():
    """grad(f) computes f's value (sin a, then reduce_sum) and drops it: the picture does
    not draw those two equations, says so, and the listing keeps them."""
    graph = fg.make_graph(fg.grad(lambda x: np.sum(np.sin(x))))(np.ones(3))
    assert "reduce_sum" in str(graph) and "sin a" in str(graph)
    dot = graph.to_dot()
    assert "reduce_sum" not in dot and "sin a" not in dot and "cos a" in dot
    assert "2 equations whose result is never used not drawn" in dot
    root = _parse_svg(graph.to_svg(engine="python"))
    texts = [t.text for t in root.iter(SVG + "text")]
    assert not any("reduce_sum" in t or "sin a" in t for t in texts)
    assert "2 equations whose result is never used not drawn (print(graph) lists every " \
           "equation)" in texts
    one = fg.make_graph(lambda x: (np.sin(x), x)[1])(np.ones(3)).to_svg(engine="python")
    assert "1 equation whose result is never used not drawn" in one
    assert "never used" not in small_graph().to_svg(engine="python")


def test_constants_show_their_values_or_a_summary():
    graph = fg.make_graph(lambda x: x * np.full(50, 2.0)
                          + x * np.linspace(0.0, 1.0, 50))(np.ones(50))
    texts = [t.text for t in _parse_svg(graph.to_svg(engine="python")).iter(SVG + "text")]
    dot = graph.to_dot()
    assert '"c0: f64[50]\\nevery entry 2.0"' in dot
    assert "c1: f64[50]" in texts and "from 0 to 1" in texts
    small = fg.make_graph(lambda x: x * np.arange(3.0))(np.ones(3))
    assert "= [0., 1., 2.]" in [t.text for t in
                                _parse_svg(small.to_svg(engine="python")).iter(SVG + "text")]


def test_notebook_picture_without_graphviz(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    graph = fg.make_graph(fg.grad(lambda x: np.sum(np.sin(x) * x)))(np.ones(3))
    root = _parse_svg(graph._repr_svg_())
    assert "cos a" in [t.text for t in root.iter(SVG + "text")]  # the backward equations
    html = ET.fromstring(graph._repr_html_())
    assert html.find(SVG + "svg") is not None
    assert "cos a" in html.find("details/pre").text
    with pytest.raises(RuntimeError, match="apt-get install graphviz"):
        graph.to_svg(engine="dot")


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_notebook_picture_with_graphviz():
    svg = small_graph()._repr_svg_()
    root = _parse_svg(svg)
    assert "matmul a b" in [t.text for t in root.iter(SVG + "text")]
    assert svg == small_graph().to_svg(engine="dot")


def test_pictures_of_constants_and_several_outputs():
    graph = fg.make_graph(lambda x: (x * np.arange(3.0), 3.0, x))(np.ones(3))
    dot = graph.to_dot()
    assert '"c0: f64[3]\\n= [0., 1., 2.]"' in dot and "c0 -> e0;" in dot
    assert '"out 1 = 3.0"' in dot
    assert "in0 -> out2;" in dot
    _parse_svg(graph.to_svg(engine="python"))


def test_huge_graphs_show_as_text(monkeypatch):
    monkeypatch.setattr(graphviz, "MAX_PICTURE_EQUATIONS", 2)
    graph = small_graph()
    assert graph._repr_svg_() is None
    assert graph._repr_html_().startswith("<pre>")


def test_bad_engine_is_named():
    with pytest.raises(ValueError, match="use 'auto', 'dot' or 'python'"):
        small_graph().to_svg(engine="cairo")


@pytest.mark.parametrize("module", [graphviz, graph_layout], ids=lambda m: m.__name__)
def test_docstring_examples_run(module):
    failures, tried = doctest.testmod(module)
    assert tried and not failures


def test_crossing_count_matches_the_pairwise_definition():
    """The layout's fast count (inversions) equals counting crossing edge pairs directly."""
    import itertools
    import random
    rng = random.Random(0)
    for _ in range(200):
        upper = [graph_layout._box(f"u{i}", "eqn", ["x"]) for i in range(rng.randint(1, 6))]
        lower = [graph_layout._box(f"l{i}", "eqn", ["x"]) for i in range(rng.randint(1, 6))]
        for node in upper:
            node.succs = rng.sample(lower, rng.randint(0, len(lower)))
        where = {id(n): i for i, n in enumerate(lower)}
        ends = [(i, where[id(s)]) for i, n in enumerate(upper) for s in n.succs]
        pairwise = sum((a[0] - b[0]) * (a[1] - b[1]) < 0
                       for a, b in itertools.combinations(ends, 2))
        assert graph_layout._crossings([upper, lower]) == pairwise
