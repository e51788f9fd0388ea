"""``funcgrad.numpy`` against the registry and NumPy: every elementwise primitive has a
function, every function binds a real primitive, every NumPy ufunc and function with a
funcgrad namesake dispatches to it, and the package keeps its layering."""
import ast
import functools
import importlib
import inspect
import pathlib
import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import REGISTRY, Primitive
from funcgrad.numpy import _methods
from funcgrad.primitives import elementwise as ew

PACKAGE = pathlib.Path(fg.__file__).resolve().parent
FAMILIES = ["constructors", "ufuncs", "manipulation", "reductions", "indexing", "products",
            "linalg", "ranges", "statistics", "nanfunctions", "signal",
            "polynomial", "building", "floatfuncs", "complexfuncs"]


def elementwise_primitives():
    """The registry's elementwise primitives: those that declare an ``elementwise`` rule,
    and (while that slot is being filled in) those declared in primitives/elementwise.py."""
    declared = {p for p in REGISTRY.values() if p.elementwise is not None}
    in_module = {v for k, v in vars(ew).items() if k.endswith("_p") and isinstance(v, Primitive)}
    return declared | in_module


def front_functions():
    """``{public name: function}`` of funcgrad.numpy that front a primitive."""
    out = {}
    for name in fnp.__all__:
        fn = getattr(fnp, name)
        if getattr(fn, "primitive", None) is not None:
            out[name] = fn
    return out


def _scipy_special_fronts():
    """Primitives fronted by ``funcgrad.scipy.special`` (NumPy has no ``erf``), once that
    front exists."""
    try:
        special = importlib.import_module("funcgrad.scipy.special")
    except ModuleNotFoundError as e:
        if not "funcgrad.scipy.special".startswith(e.name or "?"):
            raise
        return set()
    fronts = [getattr(special, name) for name in special.__all__]
    # (a front of several primitives, one per output, lists them: sici, fresnel)
    return {fn.primitive for fn in fronts if getattr(fn, "primitive", None) is not None} | {
        p for fn in fronts for p in getattr(fn, "primitives", ())}


def test_every_elementwise_primitive_has_a_numpy_function():
    fronted = {fn.primitive for fn in front_functions().values()} | _scipy_special_fronts()
    missing = sorted(p.name for p in elementwise_primitives() - fronted)
    assert not missing, (f"elementwise primitives with no funcgrad.numpy function: {missing}; "
                         f"add one line per primitive to funcgrad/numpy/ufuncs.py, e.g. "
                         f"`sin = _unary(_ew.sin_p, np.sin)` (or to funcgrad.scipy.special "
                         f"when NumPy has no such function)")


def test_every_numpy_function_binds_a_registered_elementwise_primitive():
    elementwise = elementwise_primitives()
    wrong = [f"{name} -> {fn.primitive!r}" for name, fn in sorted(front_functions().items())
             if REGISTRY.get(fn.primitive.name) is not fn.primitive
             or fn.primitive not in elementwise]
    assert not wrong, f"funcgrad.numpy functions binding no registered elementwise primitive: {wrong}"


def _arity(fn):
    # (an elementwise function says, as NumPy's ufunc: its keywords, out= and where=...,
    # come after its operands; out=, in NumPy's position where another takes it, is none)
    if hasattr(fn, "nin"):
        return fn.nin
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "out"
               for p in inspect.signature(fn).parameters.values())


def _integers_only(ufunc):
    """Does the ufunc work on integers and booleans only (bits: gcd, left_shift...)?"""
    return ufunc is not None and not any("d" in types.split("->")[0] for types in ufunc.types)


def _samples(ufunc, n, shape=(4,)):
    """``n`` arguments in the ufunc's domain: floats, or small integers."""
    if _integers_only(ufunc):
        return [np.arange(1, 1 + int(np.prod(shape))).reshape(shape) * (i + 2) % 7
                for i in range(n)]
    return [np.linspace(0.3, 0.9, int(np.prod(shape))).reshape(shape) + 0.1 * i
            for i in range(n)]


@pytest.mark.parametrize("name", sorted(front_functions()))
def test_numpy_function_binds_exactly_its_primitive(name):
    """Traced, the function is one equation of the primitive it declares."""
    fn = getattr(fnp, name)
    args = _samples(getattr(fn, "numpy_ufuncs", [None])[0], _arity(fn))
    graph = fg.make_graph(fn)(*args)
    assert [eqn.prim for eqn in graph.eqns] == [fn.primitive]


def test_ufunc_table_has_every_funcgrad_namesake():
    """Each NumPy ufunc whose name funcgrad.numpy defines dispatches to that function
    (a function added without declaring its ufunc would fall through to an error)."""
    wrong = []
    for name in fnp.__all__:
        ufunc = getattr(np, name, None)
        # (NumPy's own ufunc re-exported as it is -- isnat, of datetimes -- has no twin)
        if isinstance(ufunc, np.ufunc) and getattr(fnp, name) is not ufunc \
                and _methods.UFUNCS.get(ufunc) is not getattr(fnp, name):
            wrong.append(name)
    assert not wrong, f"NumPy ufuncs not dispatched to their funcgrad.numpy namesake: {wrong}"


# (ldexp's second argument is an integer exponent: it has its own tests in test_numpy_more)
@pytest.mark.parametrize("ufunc", sorted((u for u in _methods.UFUNCS if u is not np.ldexp),
                                         key=lambda u: u.__name__), ids=lambda u: u.__name__)
def test_numpy_ufunc_on_traced_values_matches_its_function(ufunc):
    """``np.<ufunc>(tracer, ...)`` gives the value and tangent of the function the table
    names for it."""
    fn = _methods.UFUNCS[ufunc]
    if _integers_only(ufunc):  # no derivative: the values, under vmap and jit
        batch = _samples(ufunc, ufunc.nin, (2, 3))
        for transform in (fg.vmap, functools.partial(fg.jit, wait=True)):
            got = transform(lambda *xs: ufunc(*xs))(*batch)
            np.testing.assert_array_equal(got, fn(*batch))
            assert got.dtype == ufunc(*batch).dtype
        return
    primals = tuple(np.linspace(0.3, 0.9, 4).reshape(2, 2) + 0.1 * i for i in range(ufunc.nin))
    tangents = tuple(np.full((2, 2), 0.5) for _ in primals)
    with np.errstate(invalid="ignore"):  # arccosh below 1: NaN on both sides
        out_np, t_np = fg.jvp(lambda *xs: ufunc(*xs), primals, tangents)
        out_fn, t_fn = fg.jvp(fn, primals, tangents)
    np.testing.assert_array_equal(out_np, out_fn)
    np.testing.assert_array_equal(t_np, t_fn)


def test_ufuncs_outside_the_table_raise_a_clear_error():
    with pytest.raises(TypeError, match="numpy.isnat is not differentiable: NumPy's own"):
        fg.grad(lambda x: np.sum(x * np.isnat(x)))(np.ones(2))


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "all", "any"])
def test_ufunc_reduce_dispatches_to_the_reduction(name):
    ufunc = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum,
             "all": np.logical_and, "any": np.logical_or}[name]
    x = np.array([[0.5, 2.0, 0.0], [1.5, 3.0, 1.0]])
    got = fg.make_graph(lambda v: ufunc.reduce(v, axis=1))(x)(x)
    np.testing.assert_array_equal(got, getattr(fnp, name)(x, axis=1))


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min"])
def test_ufunc_reduce_passes_where_and_initial_to_the_reduction(name):
    ufunc = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}[name]
    x = np.array([[0.5, 2.0, 0.0], [1.5, 3.0, 1.0]])
    mask = np.array([True, False, True])
    want = ufunc.reduce(x, axis=1, where=mask, initial=0.75)
    got = fg.make_graph(lambda v: ufunc.reduce(v, axis=1, where=mask, initial=0.75))(x)(x)
    np.testing.assert_array_equal(got, want)
    grad = fg.grad(lambda v: np.sum(ufunc.reduce(v, axis=1, where=mask, initial=0.75)))(x)
    np.testing.assert_array_equal(grad[:, 1], 0.0)  # left out by the mask


_UX = np.array([[0.5, 2.0, 0.25, 1.2, 0.9], [1.5, 3.0, 1.0, 0.3, 0.7], [0.6, 0.4, 2.2, 1.1, 0.8]])


def _ufunc_methods(ufunc, v):
    return (ufunc.outer(v[0], v[1, :3]), ufunc.reduce(v, axis=1),
            ufunc.reduce(v, axis=0, keepdims=True), ufunc.accumulate(v, axis=1),
            ufunc.accumulate(v, axis=0))


def _ufunc_methods_reference(ufunc, v):
    """NumPy's answers; its reduce as the last of accumulate's (NumPy 2.4's own power and
    arctan2 reduce along a contiguous axis pair the first element with the last: a bug)."""
    outs = list(_ufunc_methods(ufunc, v))
    outs[1] = ufunc.accumulate(v, axis=1)[:, -1]
    return tuple(outs)


@pytest.mark.parametrize("ufunc", [np.logaddexp, np.logaddexp2, np.hypot, np.fmax, np.maximum,
                                   np.minimum, np.subtract, np.divide, np.power, np.arctan2,
                                   np.float_power, np.add, np.multiply])
def test_outer_reduce_and_accumulate_of_two_input_ufuncs_on_traced_values(ufunc):
    """np.hypot.outer(a, b), np.logaddexp.reduce(x), np.maximum.accumulate(x)... equal
    NumPy's under jit and vmap, with central-difference gradients (they raised "not
    supported" for all but add and multiply's reduce and accumulate)."""
    f = lambda v: _ufunc_methods(ufunc, v)  # noqa: E731
    ref = lambda v: _ufunc_methods_reference(ufunc, v)  # noqa: E731
    want = ref(_UX)
    for got, w in zip(fg.make_graph(f)(_UX)(_UX), want):  # (traced abstractly, as by jit)
        np.testing.assert_allclose(got, w, rtol=1e-13)
    for got, w in zip(fg.vmap(f)(np.stack([_UX, _UX[::-1]])), zip(want, ref(_UX[::-1]))):
        np.testing.assert_allclose(got, np.stack(w), rtol=1e-13)
    ws = [np.cos(np.arange(o.size)).reshape(o.shape) for o in want]
    loss = lambda outs: sum(np.sum(o * w) for o, w in zip(outs, ws))  # noqa: E731
    g, eps = fg.grad(lambda v: loss(f(v)))(_UX), 1e-6
    fd = np.array([(loss(ref(_UX + eps * e)) - loss(ref(_UX - eps * e))) / (2 * eps)
                   for e in np.eye(_UX.size).reshape((-1,) + _UX.shape)]).reshape(_UX.shape)
    np.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-7)


def test_reductions_of_ufuncs_over_several_axes_or_none_and_under_jit_follow_numpy():
    for f in (lambda v: np.logaddexp.reduce(v, axis=None), lambda v: np.hypot.reduce(v, (0, 1)),
              lambda v: np.fmin.reduce(v, axis=None),
              lambda v: np.logaddexp.reduce(v[:, :0], axis=1)):  # (empty: the identity)
        np.testing.assert_allclose(fg.make_graph(f)(_UX)(_UX), f(_UX), rtol=1e-13)
    with pytest.raises(ValueError, match="not reorderable"):
        fg.make_graph(lambda v: np.subtract.reduce(v, axis=None))(_UX)
    with pytest.raises(ValueError, match="no identity"):
        fg.make_graph(lambda v: np.fmax.reduce(v[:, :0], axis=1))(_UX)
    f = lambda v: np.logaddexp.reduce(v, axis=1)  # noqa: E731
    np.testing.assert_allclose(fg.jit(f)(_UX), f(_UX), rtol=1e-13)


def _dtype_answers(v):
    """NumPy's questions about a value's dtype and memory (none about its derivative)."""
    return (np.result_type(v, np.float16), np.result_type(v, 2.5, np.int8),
            np.can_cast(v, np.float16), np.can_cast(v, np.float64, "same_kind"),
            np.min_scalar_type(v), np.common_type(v, np.ones(1, np.float16)),
            np.isdtype(v.dtype, "real floating"), np.iterable(v), np.isscalar(v), np.ndim(v),
            np.shape(v), np.size(v), np.shares_memory(v, v), np.may_share_memory(v, v),
            fnp.result_type(v, np.int64), fnp.can_cast(v, np.int32))


@pytest.mark.parametrize("transform", ["grad", "jvp", "vmap", "jit"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dtype_and_memory_questions_about_traced_values_get_numpys_answers(transform, dtype):
    x = np.array([1.0, 2.0], dtype)
    seen = []

    def f(v):
        seen.append(_dtype_answers(v))
        return fnp.sum(v.astype(np.result_type(v, np.float32)) ** 2)
    if transform == "grad":
        assert fg.grad(f)(x).dtype == dtype
    elif transform == "jvp":
        fg.jvp(f, (x,), (x,))
    elif transform == "vmap":
        fg.vmap(f)(np.stack([x, x]))
    else:
        fg.jit(f, wait=True)(x)
    assert seen[-1] == _dtype_answers(x)


def test_traced_values_share_memory_only_with_themselves():
    """They are immutable: no write can show through an alias, so NumPy code asking
    (before writing) gets False unless it is the very same value."""
    x = np.array([1.0, 2.0])

    def f(v):
        assert np.shares_memory(v, v) and np.may_share_memory(v, v)
        for other in (v[:1], v[::-1], v + 0.0, x):
            assert not np.shares_memory(v, other) and not np.may_share_memory(other, v)
        return fnp.sum(v)
    fg.grad(f)(x)
    fg.vmap(f)(np.stack([x, x]))


def test_dtype_questions_keep_a_python_number_weak_and_need_the_value_for_0d_min_scalar_type():
    """A Python float passed to grad promotes as the float would (NumPy 2, NEP 50); a 0-d
    array's smallest type depends on its value, which jit does not know."""
    assert fg.grad(lambda s: s * (np.result_type(s, np.float32) == np.float32))(1.5) == 1.0
    assert fg.grad(lambda s: s * (np.min_scalar_type(s) == np.float16))(np.float64(3.0)) == 1.0
    with pytest.raises(fg.ConcretizationError, match="min_scalar_type"):
        fg.jit(lambda s: s * (np.min_scalar_type(s) == np.float16))(np.float64(3.0))


# NumPy functions that take dtypes, never arrays: nothing traced reaches them to dispatch
# (bmat: NumPy's own, wrapped to refuse traced values -- NumPy's returns None for them --
# so nothing dispatches to it: tests/test_numpy_rest.py)
_TAKES_NO_ARRAY = {"isdtype", "bmat"}


def test_every_numpy_function_with_a_funcgrad_namesake_dispatches_to_it():
    # (the twins that act on traced values only have their own table: see _methods)
    table = {**_methods._traced_only_table(), **_methods._function_table()}
    wrong = []
    for ours_ns, theirs_ns, names in [(fnp, np, fnp.__all__),
                                      (fnp.linalg, np.linalg, fnp.linalg.__all__)]:
        for name in names:
            ours, theirs = getattr(ours_ns, name), getattr(theirs_ns, name, None)
            if not callable(ours) or not callable(theirs) or isinstance(theirs, type) \
                    or ours is theirs or name in _TAKES_NO_ARRAY:
                continue
            if table.get(theirs) is not getattr(ours_ns, theirs.__name__, ours):
                wrong.append(name)
    assert not wrong, f"NumPy functions not dispatched to their funcgrad.numpy namesake: {wrong}"


def test_numpys_numeric_scalar_types_are_there():
    names = ("complex64 complex128 cdouble csingle clongdouble double single half longdouble "
             "int_ uint16 uint32 uint64 number generic signedinteger unsignedinteger "
             "complexfloating float16 float32 float64").split()
    assert [n for n in names if getattr(fnp, n, None) is not getattr(np, n)] == []
    x = np.array([1.0, 2.0])
    assert fnp.zeros(2, fnp.complex64).dtype == np.complex64
    np.testing.assert_array_equal(fg.grad(lambda v: fnp.sum(fnp.astype(v, fnp.single) ** 2))(x),
                                  [2.0, 4.0])


def test_every_public_function_has_an_example():
    missing = []
    for ns, names in [(fnp, fnp.__all__), (fnp.linalg, fnp.linalg.__all__)]:
        for name in names:
            fn = getattr(ns, name)
            if inspect.isfunction(fn) and fn.__module__.startswith("funcgrad.") \
                    and ">>>" not in (fn.__doc__ or ""):
                missing.append(name)
    assert not missing, f"public functions without a docstring example: {missing}"



# --- layering ----------------------------------------------------------------------------------

def _imports(path):
    """The modules ``path`` imports, at any depth (function-local imports too).  ``from m
    import x`` counts as importing ``m.x`` when that is a module of funcgrad, else ``m``."""
    modules = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                out.add(sub if sub in modules else source)
    return out


def _module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_primitives_never_import_funcgrad_numpy():
    offenders = []
    for path in sorted((PACKAGE / "primitives").glob("*.py")):
        if any(m == "funcgrad.numpy" or m.startswith("funcgrad.numpy.") for m in _imports(path)):
            offenders.append(path.name)
    assert not offenders, f"funcgrad/primitives modules importing funcgrad.numpy: {offenders}"


def test_funcgrad_numpy_modules_import_no_cycle():
    """Within funcgrad.numpy, imports (function-local ones included) form no cycle."""
    paths = {_module_name(p): p for p in sorted((PACKAGE / "numpy").glob("*.py"))}
    graph = {name: {m for m in _imports(path) if m in paths and m != name}
             for name, path in paths.items()}
    cycle = _find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def _find_cycle(graph):
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


@pytest.mark.parametrize("call, fix", [
    (lambda a: np.add.at(a, [0, 1], 1.0), r"a = a.at\[indices\].add\(b\)"),
    (lambda a: np.maximum.at(a, [0], 2.0), r"a = a.at\[indices\].max\(b\)"),
    (lambda a: np.negative.at(a, [0]), r"a.at\[indices\].set\(np.negative\(a\[indices\]"),
])
def test_ufunc_at_on_traced_values_names_the_functional_update(call, fix):
    with pytest.raises(TypeError, match=r"\.at writes into its array argument.*" + fix):
        fg.grad(lambda a: (call(a), np.sum(a))[1])(np.ones(3))


@pytest.mark.parametrize("ufunc", [np.add, np.maximum, np.logaddexp, np.subtract])
@pytest.mark.parametrize("indices, axis", [([0, 2, 4], 1), ([0, 3, 1, 4], 1), ([2, 0], 0)],
                         ids=["increasing", "a-step-back", "axis-0"])
def test_ufunc_reduceat_on_traced_values_equals_numpy_with_its_derivative(ufunc, indices, axis):
    """reduceat reduces the slices between consecutive indices (a[i] alone where the next
    index is not above i), with central-difference gradients ("not supported" before)."""
    f = lambda v: ufunc.reduceat(v, indices, axis=axis)  # noqa: E731
    want = f(_UX)
    np.testing.assert_allclose(fg.make_graph(f)(_UX)(_UX), want, rtol=1e-13)
    np.testing.assert_allclose(fg.vmap(f)(np.stack([_UX, 2 * _UX])), np.stack([want, f(2 * _UX)]),
                               rtol=1e-13)
    w, eps = np.cos(np.arange(want.size)).reshape(want.shape), 1e-6
    g = fg.grad(lambda v: np.sum(f(v) * w))(_UX)
    fd = np.array([(np.sum(f(_UX + eps * e) * w) - np.sum(f(_UX - eps * e) * w)) / (2 * eps)
                   for e in np.eye(_UX.size).reshape((-1,) + _UX.shape)]).reshape(_UX.shape)
    np.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-7)


def test_ufunc_methods_check_their_arguments_as_numpy():
    with pytest.raises(IndexError, match="out-of-bounds"):
        fg.make_graph(lambda v: np.add.reduceat(v, [0, 9], axis=1))(_UX)
    with pytest.raises(ValueError, match="single value"):
        fg.make_graph(lambda v: np.divmod.accumulate(v))(_UX)
    q, r = fg.make_graph(lambda v: np.divmod.outer(v[0], v[1]))(_UX)(_UX)
    wq, wr = np.divmod.outer(_UX[0], _UX[1])
    np.testing.assert_array_equal(q, wq)
    np.testing.assert_allclose(r, wr, rtol=1e-15)


@pytest.mark.parametrize("f, args", [
    (np.fabs, (np.array([[-2, 3], [0, 5]]),)),
    (np.fabs, (np.array([-2, 3], np.int8),)),
    (lambda a, b: np.heaviside(a, b), (np.array([-2, 0, 5]), np.array([1, 2, 3]))),
    (lambda a: np.heaviside(a, 0.5), (np.array([-0.5, 0.0, 1.5], np.float32),)),
    (lambda a: np.nextafter(2.5, a), (np.array([0.5, 3.5], np.float32),)),
    (lambda a: np.nextafter(a, 3), (np.array([1, 5]),)),
], ids=["fabs-int64", "fabs-int8", "heaviside-int", "heaviside-float32-weak",
        "nextafter-weak-first", "nextafter-int"])
def test_float_only_ufuncs_give_numpys_dtype_on_traced_values(f, args):
    """fabs, heaviside and nextafter have float loops only: integers give floats, and a
    Python number beside float32 keeps float32 (traced, they gave int64, or float64)."""
    want = f(*args)
    for got in (fg.make_graph(f)(*args)(*args), fg.vmap(f)(*[np.stack([a, a]) for a in args])[1],
                f(*[fnp.asarray(a) for a in args])):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("fn, expected", [
    (fnp.maximum, ([0, 0, 0, 1], [0, 0, 0, 0])), (fnp.minimum, ([0, 0, 0, 0], [0, 0, 0, 1])),
    (fnp.fmax, ([1, 0, 1, 1], [0, 1, 0, 0])), (fnp.fmin, ([1, 0, 1, 0], [0, 1, 0, 1]))])
def test_extrema_of_nans_differentiate_as_jax_without_warnings(fn, expected):
    """jax.grad's values (maximum: a NaN operand takes nothing; fmax: the other operand
    takes all, x where both are NaN), and the backward pass warns of nothing (NumPy's
    comparisons with NaN are quiet)."""
    a, b = np.array([1.0, np.nan, np.nan, 3.0]), np.array([np.nan, 1.0, np.nan, -1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        grads = fg.grad(lambda x, y: fn(x, y).sum(), argnums=(0, 1))(a, b)
        x, y = fg.Tensor(a, requires_grad=True), fg.Tensor(b, requires_grad=True)
        fn(x, y).sum().backward()
    for got in (grads, (x.grad.numpy(), y.grad.numpy())):
        np.testing.assert_array_equal(got[0], expected[0])
        np.testing.assert_array_equal(got[1], expected[1])
