"""The shape of the code: no import cycles, layers that import only downwards, modules
of a readable size.

Imports are read from the source (``ast``), function-local ones included: a cycle hidden
in a function is still a cycle.  An edge goes from a module to each module it names
(``from pkg import name`` names ``pkg.name`` when that is a module, else ``pkg``);
a package's ``__init__`` is the module of the package itself.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"funcgrad": ROOT / "funcgrad", "funcgrad.kernels": ROOT / "kernels"}
MAX_LINES = 800


def _modules():
    """``{module name: path}`` of every library module."""
    found = {}
    for prefix, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join([prefix] + parts)
            if prefix == "funcgrad" and name.startswith("funcgrad.kernels"):
                continue  # (a kernels/ symlink or copy: the installed name wins)
            found[name] = path
    return found


MODULES = _modules()


def _package(name, path):
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _imports(name, path):
    """The library modules ``name`` imports, anywhere in its body (except under
    ``if TYPE_CHECKING:``, which only type checkers read)."""
    tree = ast.parse(path.read_text(), str(path))
    package = _package(name, path)
    targets = set()
    type_only = {id(n) for block in ast.walk(tree)
                 if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
                 for stmt in block.body for n in ast.walk(stmt)}
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                targets.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            for alias in node.names:
                full = f"{module}.{alias.name}"
                targets.add(full if full in MODULES else module)
    return {t for t in targets if t in MODULES and t != name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    cycles = _cycles(GRAPH)
    detail = "\n".join(
        "  " + " <-> ".join(c) + "\n" + "".join(
            f"    {a} imports {sorted(GRAPH[a] & set(c))}\n" for a in c) for c in cycles)
    assert not cycles, f"import cycles (function-local imports count):\n{detail}"


def test_kernels_import_nothing_of_funcgrad_above_them():
    """funcgrad.kernels is the bottom layer: arithmetic, no tracing, no autodiff."""
    bad = {m: sorted(t for t in ts if not t.startswith("funcgrad.kernels"))
           for m, ts in GRAPH.items() if m.startswith("funcgrad.kernels")}
    assert not {m: ts for m, ts in bad.items() if ts}, bad


def test_primitives_never_import_the_numpy_front():
    bad = {m: sorted(t for t in ts if t.startswith("funcgrad.numpy"))
           for m, ts in GRAPH.items() if m.startswith("funcgrad.primitives")}
    assert not {m: ts for m, ts in bad.items() if ts}, bad


def test_no_library_module_is_too_long():
    long = {name: n for name, path in MODULES.items()
            if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines (split them by job): {long}"
