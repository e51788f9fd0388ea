"""make_graph text, DOT, and SVG pictures (Graphviz when installed, built-in otherwise)."""
import shutil
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import funcgrad as fg
from funcgrad import graphviz

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
    assert len(list(root.iter(SVG + "line"))) == 6          # edges


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
    assert '"c0: f64[3]"' in dot and "c0 -> e0;" in dot and '"out 1 = 3.0"' in dot
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
