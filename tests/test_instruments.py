"""The instruments protocol (funcgrad/instruments.py) and the layering around it.

Anomaly detection, the profiler and saved-value hooks plug into both tapes (``fg.grad``'s
and the eager ``Tensor``'s) through ``funcgrad.instruments``, which names no tool; each
tool keeps its own state; no module patches another at import; and no import cycle runs
through the tools, the tapes or the backward engine.
"""
import ast
import functools
import pathlib

import numpy as np
import pytest

import funcgrad as fg
from funcgrad import core, instruments

ROOT = pathlib.Path(__file__).resolve().parents[1]


# --- the instruments protocol ---------------------------------------------------------------

class Recorder(instruments.Instrument):
    """Keeps a label with every node it sees and logs its backward rules."""

    def __init__(self, label, priority, log):
        self.label, self.priority, self.log = label, priority, log

    def on_record(self, node):
        self.log.append(("record", self.label, instruments.op_name(node)))
        return self.label

    def backward(self, node, data, g, args, proceed):
        assert data == self.label
        self.log.append(("enter", self.label, instruments.op_name(node)))
        out = proceed(args)
        self.log.append(("leave", self.label, instruments.op_name(node)))
        return out


@pytest.mark.parametrize("tape", ["grad", "tensor"])
def test_instruments_see_every_node_in_priority_order_and_wrap_its_rule(tape):
    log = []
    inner, outer = Recorder("inner", 70, log), Recorder("outer", 5, log)
    f = lambda v: np.sum(np.sin(v) * v)  # noqa: E731
    x = np.array([0.5, 1.5])
    for inst in (inner, outer):
        instruments.install(inst)
    try:
        if tape == "grad":
            out, vjp_fn = fg.vjp(f, x)
        else:
            t = fg.Tensor(x, requires_grad=True)
            loss = f(t)
    finally:
        instruments.uninstall(inner)
        instruments.uninstall(outer)
    assert core._state.instruments == ()
    recorded = [e for e in log if e[0] == "record"]
    # tools name a node as its tape does: the primitive, or the Tensor's grad_fn
    names = {"grad": ["sin", "multiply", "reduce_sum"],
             "tensor": ["SinBackward0", "MulBackward0", "SumBackward0"]}[tape]
    assert [e[2] for e in recorded][::2] == names
    assert [e[1] for e in recorded] == ["outer", "inner"] * 3
    log.clear()
    if tape == "grad":
        (g,) = vjp_fn(np.float64(1.0))
    else:
        loss.backward()
        g = t.grad.numpy()
    np.testing.assert_allclose(g, np.sin(x) + x * np.cos(x))
    last = names[-1]
    assert log[:4] == [("enter", "outer", last), ("enter", "inner", last),
                       ("leave", "inner", last), ("leave", "outer", last)]
    assert [e[2] for e in log if e[0] == "enter"][::2] == names[::-1]


def test_nodes_an_instrument_leaves_alone_run_plainly():
    class OnlySin(instruments.Instrument):
        seen = []

        def on_record(self, node):
            return "mine" if node.prim.name == "sin" else None

        def backward(self, node, data, g, args, proceed):
            self.seen.append(node.prim.name)
            return proceed(args)
    inst = OnlySin()
    instruments.install(inst)
    try:
        out, vjp_fn = fg.vjp(lambda v: np.sum(np.sin(v) * np.cos(v)), np.ones(3))
    finally:
        instruments.uninstall(inst)
    vjp_fn(np.float64(1.0))
    assert inst.seen == ["sin"]


def test_an_instrument_may_replace_the_arguments_a_rule_gets():
    class Doubling(instruments.Instrument):
        def on_record(self, node):
            return True

        def backward(self, node, data, g, args, proceed):
            return proceed(tuple(a * 2.0 if isinstance(a, np.ndarray) else a for a in args))
    inst = Doubling()
    instruments.install(inst)
    try:
        out, vjp_fn = fg.vjp(lambda v: np.sin(v), np.array([0.25]))
    finally:
        instruments.uninstall(inst)
    np.testing.assert_allclose(vjp_fn(np.ones(1))[0], np.cos([0.5]))


def test_each_tool_keeps_its_own_state():
    from funcgrad import anomaly, graph, profiler
    assert not hasattr(instruments, "local")
    with fg.detect_anomaly():
        assert core._state.instruments == (anomaly._INSTRUMENT,)
        assert graph._hooks.pairs == [] and profiler._sinks.active == ()
    with fg.graph.saved_tensors_hooks(lambda v: v, lambda v: v):
        assert core._state.instruments == (graph._INSTRUMENT,)
        assert not fg.is_anomaly_enabled() and profiler._sinks.active == ()
    with fg.profiler.profile() as prof:
        assert profiler._sinks.active == (prof,)
        assert graph._hooks.pairs == [] and not fg.is_anomaly_enabled()


# --- layering: the protocol names no tool, nobody patches anybody, no cycle -----------------

TOOLS = {"funcgrad.anomaly", "funcgrad.graph", "funcgrad.profiler"}
# The protocol, the core, the interpreters (the backward engine among them) and the eager
# Tensor: what the tools plug into.
CORE_SIDE = sorted(str(p.relative_to(ROOT)) for pattern in (
    "funcgrad/instruments.py", "funcgrad/core.py", "funcgrad/interpreters/*.py",
    "funcgrad/eager.py", "funcgrad/eager/*.py", "funcgrad/autograd.py")
    for p in ROOT.glob(pattern))


def _module_name(path):
    parts = list(pathlib.Path(path).with_suffix("").parts)
    if parts[0] == "kernels":
        parts[0] = "funcgrad.kernels"
    if parts[-1] == "__init__":
        parts = parts[:-1]
        package = ".".join(parts)
    else:
        package = ".".join(parts[:-1])
    return ".".join(parts), package


def _imports(path):
    """Every module ``path`` imports, at any depth of its code (function-local too; not
    under ``if TYPE_CHECKING:``, which only type checkers read)."""
    name, package = _module_name(path)
    out = set()
    module = ast.parse((ROOT / path).read_text())
    type_only = {id(n) for block in ast.walk(module)  # `if TYPE_CHECKING:` never runs
                 if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
                 for stmt in block.body for n in ast.walk(stmt)}
    for node in ast.walk(module):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module
            out.add(prefix)
            out.update(f"{prefix}.{a.name}" for a in node.names)
    return out


@pytest.mark.parametrize("path", CORE_SIDE)
def test_the_core_side_never_names_a_debugging_tool(path):
    named = {m for m in _imports(path) if any(m == t or m.startswith(t + ".") for t in TOOLS)}
    assert not named, f"{path} imports {sorted(named)}: tools plug in through instruments"


def _library_files():
    return sorted(str(p.relative_to(ROOT)) for base in ("funcgrad", "kernels")
                  for p in (ROOT / base).rglob("*.py"))


def _is_this_module(node):
    """``sys.modules[__name__]``: a module setting its own attributes."""
    return (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name)
            and node.slice.id == "__name__")


def _patches(path, root=ROOT):
    """Statements run at import that assign an attribute of an imported module (or of
    anything reached through one), or ``setattr`` on one."""
    tree = ast.parse((root / path).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.update(a.asname or a.name for a in node.names)
    found = []

    def base_name(target):
        while isinstance(target, (ast.Attribute, ast.Subscript)):
            if _is_this_module(target):
                return None
            target = target.value
        return target.id if isinstance(target, ast.Name) else None

    def scan(statements):
        for statement in statements:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue  # runs when called, not at import
            for node in ast.walk(statement):
                targets = []
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                    targets = [node.target]
                elif isinstance(node, ast.Delete):
                    targets = node.targets
                for target in targets:
                    parts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
                    for part in parts:
                        if isinstance(part, ast.Attribute) and base_name(part) in imported:
                            found.append(f"{path}:{node.lineno}: {ast.unparse(part)} = ...")
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in ("setattr", "delattr") and node.args
                        and base_name(node.args[0]) in imported):
                    found.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    scan(tree.body)
    return found


def test_the_patch_detector_finds_a_patch(tmp_path):
    sample = tmp_path / "funcgrad" / "sample.py"
    sample.parent.mkdir()
    sample.write_text("from .interpreters import reverse\nimport sys\n"
                      "reverse.instrumented_vjp = print\n"
                      "setattr(reverse, 'x', 1)\n"
                      "sys.modules[__name__].__class__ = object\n"
                      "def later():\n    reverse.y = 2\n")
    assert [f.split(": ", 1)[1] for f in _patches("funcgrad/sample.py", tmp_path)] == [
        "reverse.instrumented_vjp = ...", "setattr(reverse, 'x', 1)"]


def test_no_module_reassigns_another_modules_attributes_at_import():
    found = [p for path in _library_files() for p in _patches(path)]
    assert not found, "modules patching others at import:\n" + "\n".join(found)


@functools.cache  # parsing every library file takes seconds: once for all the modules
def _import_graph():
    graph = {}
    names = {}
    for path in _library_files():
        names[_module_name(path)[0]] = path
    for name, path in names.items():
        deps = set()
        for target in _imports(path):
            while target and target not in names:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                deps.add(target)
        graph[name] = deps
    return graph


def _cycle_through(graph, start):
    """A shortest import cycle from ``start`` back to it, or None."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v]):
                if w == start:
                    return paths[v] + [start]
                if w not in paths:
                    paths[w] = paths[v] + [w]
                    nxt.append(w)
        frontier = nxt
    return None


# The tools, the protocol, the reverse-mode tape, the backward engine and the eager Tensor.
ENGINE_AND_TOOLS = sorted(TOOLS | {
    _module_name(p)[0] for p in CORE_SIDE
    if not p.endswith("core.py") and (not p.startswith("funcgrad/interpreters/")
                                      or p.endswith(("reverse.py", "backprop.py")))})


@pytest.mark.parametrize("module", ENGINE_AND_TOOLS)
def test_no_import_cycle_through_the_engine_tensor_and_tools(module):
    graph = _import_graph()
    assert module in graph
    cycle = _cycle_through(graph, module)
    assert cycle is None, " -> ".join(cycle)


def test_the_cycle_detector_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycle_through(graph, "a") == ["a", "b", "c", "a"]
    assert _cycle_through(graph, "d") is None

