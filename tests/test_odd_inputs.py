"""Odd inputs: 0-d, size-0, very large, non-contiguous, Fortran-ordered, read-only and
big-endian arrays; Python and NumPy scalars, lists, bools; ndarray subclasses; and long
chains of operations (no RecursionError anywhere).

Large arrays: ``make test`` uses 1e7 elements, ``FUNCGRAD_LONG=1`` (``make soak``) 1e8.
Their peak memory (tracemalloc, which sees NumPy's allocations) is asserted to be a small
multiple of the input: a gradient streams through a few arrays of the input's size and
never builds a quadratic (n x n) temporary.
"""
import subprocess
import sys
import textwrap
import tracemalloc
import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

from long_runs import LONG, figure  # noqa: E402
BIG = 10**8 if LONG else 10**7

pytestmark = pytest.mark.timeout(3600 if LONG else 300)


def f(x):
    """A smooth scalar function of an array of any shape."""
    return np.sum(np.sin(x) * x) + 0.5 * np.sum(x * x)


def df(x):
    x = np.asarray(x, dtype=np.float64)
    return np.cos(x) * x + np.sin(x) + x


def g(x):
    """Array-valued, for jvp/vjp/vmap."""
    return np.tanh(x) * 2.0 + x


# --- transforms over the odd arrays --------------------------------------------------------

def _check_all_transforms(x, expected_grad=None):
    """grad, value_and_grad, vjp, jvp, vmap(grad), hessian-vector product, and the eager
    Tensor / jit when present: each matches the same computation on a plain C-contiguous
    float64 copy, and returns the input's shape."""
    ref = np.array(x, dtype=np.asarray(x).dtype.newbyteorder("="), order="C", copy=True)
    expected = df(ref) if expected_grad is None else expected_grad
    rtol = 1e-4 if ref.dtype.itemsize == 4 else 1e-6
    before = np.array(x, copy=True)

    gx = fg.grad(f)(x)
    assert np.shape(gx) == np.shape(x)
    np.testing.assert_allclose(np.asarray(gx, dtype=np.float64), expected, rtol=rtol)

    value, gx2 = fg.value_and_grad(f)(x)
    np.testing.assert_allclose(float(value), float(f(ref)), rtol=rtol)
    np.testing.assert_allclose(np.asarray(gx2, np.float64), expected, rtol=rtol)

    out, vjp_fn = fg.vjp(g, x)
    np.testing.assert_allclose(np.asarray(out, np.float64), g(ref), rtol=rtol)
    ct = np.ones(np.shape(x), np.asarray(x).dtype)
    (vx,) = vjp_fn(ct)
    np.testing.assert_allclose(np.asarray(vx, np.float64), (1 - np.tanh(ref) ** 2) * 2 + 1,
                               rtol=rtol)

    t = np.ones(np.shape(x), np.asarray(x).dtype)
    out, tout = fg.jvp(f, (x,), (t,))
    np.testing.assert_allclose(float(tout), float(np.sum(expected)),
                               atol=rtol * (1.0 + float(np.sum(np.abs(expected)))))

    _, hv = fg.hvp(f, (x,), (t,))
    hv = hv[0] if isinstance(hv, tuple) else hv
    assert np.shape(hv) == np.shape(x)
    np.testing.assert_allclose(np.asarray(hv, np.float64),
                               2 * np.cos(ref) - ref * np.sin(ref) + 1, rtol=10 * rtol, atol=1e-9)

    if np.ndim(x) >= 1:
        gb = fg.vmap(fg.grad(f))(x)
        np.testing.assert_allclose(np.asarray(gb, np.float64), expected, rtol=rtol)

    if hasattr(fg, "Tensor"):
        tx = fg.Tensor(x, requires_grad=True)
        f(tx).backward()
        np.testing.assert_allclose(np.asarray(tx.grad.numpy(), np.float64), expected,
                                   rtol=rtol)
    if hasattr(fg, "jit"):
        np.testing.assert_allclose(np.asarray(fg.jit(fg.grad(f))(x), np.float64), expected,
                                   rtol=rtol)
    # the caller's array is never written to
    np.testing.assert_array_equal(np.asarray(x), before)
    return gx


def _base(shape=(4, 6), dtype=np.float64):
    return np.linspace(-2.0, 2.0, int(np.prod(shape))).reshape(shape).astype(dtype)


ODD_ARRAYS = {
    "0d": lambda: np.array(0.7),
    "size1": lambda: np.array([0.7]),
    "2d": lambda: _base(),
    "strided": lambda: _base((8, 12))[::2, 1::2],
    "negative_strides": lambda: _base()[::-1, ::-1],
    "transposed": lambda: _base((6, 4)).T,
    "fortran": lambda: np.asfortranarray(_base()),
    "broadcast_view": lambda: np.broadcast_to(np.linspace(-1, 1, 6), (4, 6)),
    "zero_strides_3d": lambda: np.lib.stride_tricks.as_strided(
        np.linspace(-1, 1, 6), shape=(3, 4, 6), strides=(0, 0, 8)),
    "read_only": lambda: _read_only(_base()),
    "big_endian_f8": lambda: _base().astype(">f8"),
    "big_endian_f4": lambda: _base().astype(">f4"),
    "little_endian_explicit": lambda: _base().astype("<f8"),
    "float32": lambda: _base(dtype=np.float32),
    "unaligned": lambda: _unaligned(24).reshape(4, 6),
    "memmap_like_subclass": lambda: _base().view(_Sub),
}


def _read_only(a):
    a.flags.writeable = False
    return a


def _unaligned(n):
    buf = np.zeros(n * 8 + 1, np.uint8)
    a = buf[1:].view(np.float64)
    a[:] = np.linspace(-2, 2, n)
    return a


class _Sub(np.ndarray):
    pass


@pytest.mark.parametrize("name", sorted(ODD_ARRAYS))
def test_odd_arrays_through_every_transform(name):
    x = ODD_ARRAYS[name]()
    gx = _check_all_transforms(x)
    if np.asarray(x).dtype.itemsize == 4:
        assert np.asarray(gx).dtype.itemsize == 4, "float32 in -> float32 out"
    else:
        assert np.asarray(gx).dtype.kind == "f"
    if isinstance(gx, np.ndarray) and gx.ndim:
        assert gx.flags.writeable, "the gradient is the caller's to modify"


@pytest.mark.parametrize("name", ["strided", "fortran", "big_endian_f8", "big_endian_f4",
                                  "read_only", "negative_strides"])
def test_odd_layouts_on_the_kernel_path(name):
    """Arrays large enough (>= 4096 elements) for the Numba kernels, in odd layouts: the
    kernels only ever see what they can handle (others take NumPy's path)."""
    make = {
        "strided": lambda: np.linspace(-2, 2, 160 * 120).reshape(160, 120)[::2, ::2],
        "fortran": lambda: np.asfortranarray(np.linspace(-2, 2, 6000).reshape(60, 100)),
        "big_endian_f8": lambda: np.linspace(-2, 2, 6000).astype(">f8"),
        "big_endian_f4": lambda: np.linspace(-2, 2, 6000).astype(">f4"),
        "read_only": lambda: _read_only(np.linspace(-2, 2, 6000)),
        "negative_strides": lambda: np.linspace(-2, 2, 6000)[::-1],
    }[name]
    x = make()
    ref = np.array(x, dtype=x.dtype.newbyteorder("="), order="C")
    rtol = 1e-4 if x.dtype.itemsize == 4 else 1e-10

    def h(v):
        s = fnp.logsumexp(v) if hasattr(fnp, "logsumexp") else np.sum(v)
        return (np.sum(np.sin(v) * np.cos(v)) + s + np.max(np.abs(v))
                + np.sum(np.sqrt(1.0 + v * v)) + np.sum(v.reshape(-1)[::3] ** 2))

    np.testing.assert_allclose(np.asarray(fg.grad(h)(x), np.float64),
                               np.asarray(fg.grad(h)(ref), np.float64), rtol=rtol, atol=1e-12)
    # scatter-add under indexing (the index_add kernel)
    idx = np.arange(x.size) % 97

    def k(v):
        return np.sum(v.reshape(-1)[idx] ** 2)
    np.testing.assert_allclose(np.asarray(fg.grad(k)(x), np.float64),
                               np.asarray(fg.grad(k)(ref), np.float64), rtol=rtol)


@pytest.mark.parametrize("dtype", [">f8", ">f4", ">c16"])
def test_big_endian_statistics(dtype):
    """mean/var/std over a tuple of axes take the general path, which asks NumPy for the
    accumulator dtype: a byte-swapped dtype= is refused there (it raised NumPy's TypeError
    about byte order)."""
    x = (np.linspace(-1.0, 2.0, 6) + (0.5j if dtype == ">c16" else 0)).astype(dtype)
    native = x.astype(x.dtype.newbyteorder("="))
    rtol = 1e-5 if x.dtype.itemsize == 4 else 1e-12
    for name, kwargs in [("std", {}), ("var", {"axis": 0}), ("mean", {"axis": (0,)}),
                         ("sum", {"dtype": dtype})]:
        # (NumPy's own sum refuses dtype='>f8'; funcgrad accepts it, as the native kind)
        expected = getattr(np, name)(native, **{k: np.dtype(v).newbyteorder("=")
                                                if k == "dtype" else v
                                                for k, v in kwargs.items()})
        np.testing.assert_allclose(getattr(fnp, name)(x, **kwargs), expected, rtol=rtol)
    if dtype != ">c16":
        n = x.size
        expected = (native - native.mean()) / (n * native.std())  # d std / dx
        np.testing.assert_allclose(fg.grad(fnp.std)(x), expected, rtol=rtol)


# --- size 0 --------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (2, 0, 4)])
def test_size_zero_arrays(shape):
    x = np.ones(shape)
    gx = fg.grad(f)(x)
    assert gx.shape == shape and gx.dtype == np.float64
    out, tout = fg.jvp(f, (x,), (x,))
    assert float(out) == 0.0 and float(tout) == 0.0
    out, vjp_fn = fg.vjp(g, x)
    assert out.shape == shape and vjp_fn(np.ones(shape))[0].shape == shape
    assert fg.vmap(g)(x).shape == shape  # a batch of zero (or of empty rows)
    assert fg.jacfwd(g)(x).shape == shape + shape
    assert fg.jacrev(g)(x).shape == shape + shape
    assert fg.hessian(f)(x).shape == shape + shape
    if hasattr(fg, "Tensor"):
        t = fg.Tensor(x, requires_grad=True)
        f(t).backward()
        assert t.grad.shape == shape
    if hasattr(fg, "jit"):
        assert fg.jit(fg.grad(f))(x).shape == shape


@pytest.mark.parametrize("reduction", ["max", "min", "argmax"])
def test_reductions_without_identity_on_empty_arrays_raise_clearly(reduction):
    fn = {"max": np.max, "min": np.min, "argmax": lambda v: v[np.argmax(v)]}[reduction]
    with pytest.raises(ValueError) as info:
        fg.grad(lambda v: fn(v))(np.ones(0))
    assert str(info.value)


def test_empty_sum_and_mean():
    assert fg.grad(lambda v: np.sum(v))(np.ones(0)).shape == (0,)
    with np.errstate(all="ignore"):
        value, gx = fg.value_and_grad(lambda v: np.mean(v))(np.ones(0))
    assert np.isnan(value) and gx.shape == (0,)


# --- scalars, lists, bools -----------------------------------------------------------------------

def test_python_and_numpy_scalars():
    assert isinstance(fg.grad(np.sin)(0.5), (float, np.floating))
    np.testing.assert_allclose(fg.grad(np.sin)(0.5), np.cos(0.5))
    out = fg.grad(lambda v: v * v)(np.float32(3.0))
    assert np.asarray(out).dtype == np.float32 and out == 6.0
    out = fg.grad(lambda v: v * v)(np.float64(3.0))
    assert np.asarray(out).dtype == np.float64 and out == 6.0
    out = fg.grad(lambda v: v * v)(np.array(3.0, np.float32))
    assert isinstance(out, np.ndarray) and out.shape == () and out.dtype == np.float32
    y, t = fg.jvp(np.sin, (0.5,), (1.0,))
    np.testing.assert_allclose([y, t], [np.sin(0.5), np.cos(0.5)])
    y, t = fg.jvp(np.sin, (np.float32(0.5),), (1,))  # an int tangent is converted
    assert np.asarray(t).dtype == np.float32
    assert fg.vmap(lambda v: v * 2.0)(np.arange(3.0)).tolist() == [0.0, 2.0, 4.0]


@pytest.mark.parametrize("value,kind", [(3, "integer"), (True, "bool"), (np.int64(3), "integer"),
                                        (np.bool_(True), "bool"), (np.arange(3), "integer"),
                                        (np.array([True]), "boolean"),
                                        (np.array(["a"]), "str"), (None, "None")])
def test_non_float_inputs_to_grad_raise_type_error(value, kind):
    with pytest.raises(TypeError) as info:
        fg.grad(lambda v: np.sum(v * 1.0))(value)
    message = str(info.value)
    assert kind in message and "argument 0" in message, message


def test_complex_input_with_complex_output_to_grad_names_holomorphic():
    with pytest.raises(TypeError, match="complex.*holomorphic=True"):
        fg.grad(lambda v: np.sum(v * 1.0))(1 + 2j)


def test_lists_are_pytrees():
    """A list argument is a pytree of leaves (as in JAX): grad returns a list; plain NumPy
    functions given the list of traced leaves say clearly what to do."""
    gl = fg.grad(lambda v: fnp.sum(fnp.stack(v) ** 2))([1.0, 2.0, 3.0])
    assert isinstance(gl, list) and np.allclose(gl, [2.0, 4.0, 6.0])
    with pytest.raises(TypeError, match="stack"):
        fg.grad(lambda v: np.sum(np.sin(v)))([1.0, 2.0])
    # funcgrad.numpy on lists of numbers, and of mixed Python / NumPy scalars
    np.testing.assert_allclose(fnp.sum(fnp.sin([0.0, 1.0])), np.sin(1.0))
    np.testing.assert_allclose(fnp.add([1, 2], np.float32(0.5)), [1.5, 2.5])
    # booleans and integers in the computation are constants
    gx = fg.grad(lambda v: np.sum(v * True + v * 2 + np.float32(1.0)))(np.ones(3))
    np.testing.assert_allclose(gx, [3.0, 3.0, 3.0])


@pytest.mark.parametrize("value", [np.float16(1.5), np.longdouble(1.5)])
def test_uncommon_float_widths(value):
    """float16 and long double: a gradient (of that dtype) or a clear TypeError."""
    try:
        out = fg.grad(lambda v: v * v + np.sin(v))(value)
    except TypeError as e:
        assert str(e)
        return
    np.testing.assert_allclose(float(out), 3.0 + np.cos(1.5), rtol=1e-2)


# --- subclasses ----------------------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # NumPy's, for np.matrix
def test_matrix_gets_a_clear_error():
    m = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    for call in (lambda: fg.grad(f)(m), lambda: fnp.sin(m), lambda: fg.vmap(g)(m),
                 lambda: fg.jvp(f, (m,), (m,)),
                 lambda: fg.grad(lambda v: np.sum(v * m))(np.ones((2, 2)))):
        with pytest.raises(TypeError, match="np.matrix is not supported"):
            call()


def test_masked_array_gets_a_clear_error():
    m = np.ma.array([1.0, 2.0], mask=[False, True])
    with pytest.raises(TypeError, match="masked arrays"):
        fg.grad(f)(m)
    with pytest.raises(TypeError, match="masked arrays"):
        fnp.exp(m)


def test_half_imported_numpy_ma_is_no_crash(monkeypatch):
    # the kernel loader's thread imports SciPy, which imports np.ma: while it runs, the
    # module is in sys.modules without MaskedArray yet (this raised AttributeError)
    import types
    monkeypatch.setitem(sys.modules, "numpy.ma", types.ModuleType("numpy.ma"))
    assert float(fg.grad(lambda x: x * x)(np.float64(3.0))) == 6.0
    np.testing.assert_allclose(fnp.exp(np.zeros(2)), [1.0, 1.0])


def test_plain_subclasses_work_like_arrays():
    x = _base().view(_Sub)
    np.testing.assert_allclose(np.asarray(fg.grad(f)(x)), df(_base()))


# --- very large arrays -------------------------------------------------------------------------

LARGE_FUNCTIONS = {
    "elementwise": (lambda v: np.sum(np.sin(v) * v), 6),
    "centered_variance": (lambda v: np.mean((v - np.mean(v)) ** 2), 6),
    "max_abs": (lambda v: np.max(np.abs(v)), 5),
    "strided_pairs": (lambda v: np.sum(v[::2] * v[1::2]), 5),
}


@pytest.mark.parametrize("name", sorted(LARGE_FUNCTIONS))
def test_large_arrays_stream(name):
    """Gradients of BIG-element arrays: peak memory a small multiple of the input."""
    fn, max_ratio = LARGE_FUNCTIONS[name]
    fg.grad(fn)(np.linspace(-1.0, 1.0, 8192))  # kernels built before measuring
    x = np.linspace(-1.0, 1.0, BIG)
    tracemalloc.start()
    try:
        gx = fg.grad(fn)(x)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert gx.shape == x.shape and np.isfinite(gx[:: max(1, BIG // 1000)]).all()
    ratio = peak / x.nbytes
    figure("large", function=name, elements=BIG, input_bytes=x.nbytes, peak_bytes=peak,
            peak_over_input=round(ratio, 2))
    assert ratio <= max_ratio + 0.1, f"{name}: peak memory {ratio:.1f}x the input"


# --- long chains: no recursion -------------------------------------------------------------------

STEPS = 10_000


def chain(x, steps=STEPS):
    for _ in range(steps):
        x = np.sin(x) * 0.5 + x * 0.5
    return np.sum(x)


def _chain_reference(x0, steps=STEPS):
    """d chain / dx by the chain rule in plain NumPy (elementwise, so per component)."""
    x, d = np.array(x0, float), np.ones_like(x0, dtype=float)
    for _ in range(steps):
        d = d * (0.5 * np.cos(x) + 0.5)
        x = np.sin(x) * 0.5 + x * 0.5
    return d


@pytest.fixture(scope="module")
def chain_point():
    x = np.array([0.3, 0.7])
    return x, _chain_reference(x)


@pytest.mark.parametrize("transform", ["grad", "jvp", "vjp", "hvp", "vhp", "grad_of_grad",
                                       "linearize", "tensor_backward"])
def test_10000_step_chain_without_recursion_error(transform, chain_point):
    """With the default recursion limit: the backward pass and everything else iterate."""
    assert sys.getrecursionlimit() <= 10_000
    x, expected = chain_point
    if transform == "grad":
        np.testing.assert_allclose(fg.grad(chain)(x), expected, rtol=1e-8)
    elif transform == "jvp":
        _, t = fg.jvp(chain, (x,), (np.array([1.0, 0.0]),))
        np.testing.assert_allclose(t, expected[0], rtol=1e-8)
    elif transform == "vjp":
        _, vjp_fn = fg.vjp(chain, x)
        np.testing.assert_allclose(vjp_fn(1.0)[0], expected, rtol=1e-8)
        del vjp_fn  # freeing a 30,000-node tape
    elif transform in ("hvp", "vhp"):
        _, hv = getattr(fg, transform)(chain, (x,), (np.array([1.0, 0.0]),))
        hv = hv[0] if isinstance(hv, tuple) else hv
        assert np.isfinite(hv).all() and hv[1] == 0.0
    elif transform == "grad_of_grad":
        d2 = fg.grad(fg.grad(lambda s: chain(s)))(0.3)
        assert np.isfinite(d2)
    elif transform == "linearize":
        _, jvp_fn = fg.linearize(chain, x)
        np.testing.assert_allclose(jvp_fn(np.array([0.0, 1.0])), expected[1], rtol=1e-8)
    elif transform == "tensor_backward":
        if not hasattr(fg, "Tensor"):
            pytest.skip("fg.Tensor is not in the tree")  # pragma: no cover
        t = fg.Tensor(x, requires_grad=True)
        chain(t).backward()
        np.testing.assert_allclose(t.grad.numpy(), expected, rtol=1e-8)


def test_freeing_a_very_long_tape_does_not_crash():
    """A 100,000-operation tape (300,000 in the long run) dropped at once: a chain of tracers
    each referencing the previous one; freeing must not overflow the C stack (checked in a
    subprocess, where a crash shows up as a signal)."""
    steps = 300_000 if LONG else 100_000
    script = textwrap.dedent(f"""
        import numpy as np, funcgrad as fg
        def chain(x):
            for _ in range({steps}):
                x = x * 1.0000001
            return np.sum(x)
        out, vjp_fn = fg.vjp(chain, np.ones(2))
        del out, vjp_fn
        if hasattr(fg, "Tensor"):
            t = fg.Tensor(np.ones(2), requires_grad=True)
            y = chain(t)
            del y, t
        print("ok")
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout.strip() == "ok"


# --- every funcgrad.numpy function on odd operands ----------------------------------------------

def _numpy_front_functions():
    import inspect
    names = [n for n in sorted(fnp.__all__)
             if callable(getattr(fnp, n)) and not inspect.isclass(getattr(fnp, n))
             and n != "typename"]  # (NumPy's own: a dict lookup, KeyError for any hashable)
    out = [(f"fnp.{n}", getattr(fnp, n)) for n in names]
    out += [(f"np.{n}", getattr(np, n)) for n in names
            if callable(getattr(np, n, None)) and not inspect.isclass(getattr(np, n))
            and n not in ("row_stack",   # (deprecated alias: warns)
                          "fromfile")]   # (NumPy's reads .flush of any object it is given)
    out += [(f"fnp.linalg.{n}", getattr(fnp.linalg, n)) for n in fnp.linalg.__all__]
    return out


OPERANDS = {
    "traced_1d": lambda call: fg.grad(lambda v: (call(v), fnp.sum(v))[1])(
        np.linspace(0.1, 0.9, 4)),
    "traced_2d": lambda call: fg.grad(lambda v: (call(v), fnp.sum(v))[1])(
        np.linspace(0.1, 0.9, 4).reshape(2, 2) + np.eye(2)),
    "batched": lambda call: fg.vmap(lambda v: (call(v), fnp.sum(v))[1])(
        np.linspace(0.1, 0.9, 8).reshape(2, 2, 2) + np.eye(2)),
    "abstract": lambda call: fg.make_graph(lambda v: (call(v), fnp.sum(v))[1])(np.ones((2, 2))),
}
if hasattr(fg, "Tensor"):
    OPERANDS["tensor_requires_grad"] = lambda call: call(
        fg.Tensor(np.linspace(0.1, 0.9, 4).reshape(2, 2) + np.eye(2), requires_grad=True))
    OPERANDS["tensor"] = lambda call: call(fg.Tensor(np.linspace(0.1, 0.9, 4)))


@pytest.mark.parametrize("operand", sorted(OPERANDS))
def test_every_numpy_front_function_on_odd_operands(operand):
    """Each function of funcgrad.numpy (and the NumPy function it stands in for), given a
    traced, batched, abstract value or a Tensor as its only argument: a result or a clear
    Python exception -- never a RecursionError (a function dispatching to itself), an
    AttributeError or a message-less error."""
    problems = []
    for name, fn in _numpy_front_functions():
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                OPERANDS[operand](fn)
        except RecursionError:
            problems.append(f"{name}: RecursionError")
        except (TypeError, ValueError, IndexError, ArithmeticError, NotImplementedError,
                RuntimeError, BufferError) as e:  # RuntimeError: fg.EscapedTracerError,
            if not str(e).strip():  # PyTorch messages; BufferError: PyTorch's DLPack refusal
                problems.append(f"{name}: {type(e).__name__} without a message")
        except Exception as e:  # noqa: BLE001 - the finding
            problems.append(f"{name}: {type(e).__name__}: {str(e)[:120]}")
    assert not problems, f"{operand}:\n  " + "\n  ".join(problems)


def test_zero_d_boolean_mask_under_transforms_says_so():
    """``x[x > c]`` on a 0-d ``x``: NumPy allows it; funcgrad does not support 0-d boolean
    indices and says so (``normalize_index``) -- under transforms too, where the mask is a
    NumPy bool scalar after ``concrete()``."""
    x = np.array(1.5)
    with pytest.raises(IndexError, match="0-d boolean"):
        fg.grad(lambda v: fnp.sum(v[v > 0.9]))(x)
    with pytest.raises(IndexError, match="0-d boolean"):
        fnp.at(x)[np.bool_(True)].set(0.0)


# --- det at a singular matrix ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_det_gradient_at_singular_matrices_is_the_cofactor_matrix(dtype):
    """d det(A) / dA is the cofactor matrix, finite where A is singular (det(A) A^-T is
    not); found by the long fuzz run: det(x x^T) at a denormal x raised LinAlgError."""
    singular = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], dtype)
    cof = np.empty((3, 3))
    for i in range(3):
        for j in range(3):
            minor = np.delete(np.delete(singular.astype(np.float64), i, 0), j, 1)
            cof[i, j] = (-1) ** (i + j) * np.linalg.det(minor)
    g = fg.grad(np.linalg.det)(singular)
    assert g.dtype == dtype
    np.testing.assert_allclose(g, cof, rtol=1e-4 if dtype == np.float32 else 1e-10, atol=1e-4)
    stack = np.stack([singular, singular + np.eye(3, dtype=dtype)])
    gs = fg.grad(lambda a: np.sum(np.linalg.det(a)))(stack)
    np.testing.assert_allclose(gs[0], g, rtol=1e-4, atol=1e-4)
    tiny = np.array([[5e-324]])
    assert fg.grad(lambda x: np.linalg.det(x @ x.T))(tiny)[0, 0] == 2 * 5e-324
    v = np.arange(9.0).reshape(3, 3).astype(dtype)
    _, tangent = fg.jvp(np.linalg.det, (singular,), (v,))  # forward mode: <cofactors, v>
    np.testing.assert_allclose(tangent, np.sum(cof * v), rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("call", ["fnp.tile(x, -1)", "fnp.tile(x, (2, -1))", "fnp.repeat(x, -1)",
                                  "fg.grad(lambda v: fnp.sum(fnp.tile(v, -1)))(x)"])
def test_negative_repeat_counts_are_named(call):
    """NumPy's ValueError, with a message about the count (it said "cannot broadcast an
    array of shape (1, 3) to shape (-1, 3)", a shape the user never wrote)."""
    x = np.array([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"(reps|repeats) .*negative"):
        eval(call)
    assert fnp.tile(x, 0).shape == np.tile(x, 0).shape == (0,)
