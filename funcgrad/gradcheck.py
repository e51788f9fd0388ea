"""``gradcheck`` and ``gradgradcheck``: derivatives against central differences.

``gradcheck(f, inputs)`` builds, in float64, the Jacobian of every output of
``f`` with respect to every floating-point input three ways: by central
differences, by reverse mode (one ``vjp`` per output element) and by forward
mode (one ``jvp`` per input element), and checks that they agree within
``atol + rtol * |numerical|`` elementwise.  On a mismatch it raises
:class:`GradcheckError` showing both Jacobians and where they differ most
(or returns False with ``raise_exception=False``).  ``fast_mode=True`` compares
random projections ``u^T J v`` instead of whole Jacobians: one finite
difference and one ``jvp`` per input and one ``vjp`` per output, cheap for
large inputs.

Jacobians are laid out as ``J[i, j] = d output.flat[i] / d input.flat[j]``
(output rows, input columns; PyTorch prints the transpose).

PyTorch's idiom works as in PyTorch: inputs may be ``fg.Tensor``s, and then exactly those
with ``requires_grad=True`` are checked (``f`` receives Tensors, so ``MyFunction.apply``
and Tensor code run as written); ``check_forward_ad`` is off by default, so a
``Function`` with only a ``backward`` is checked; ``check_batched_grad`` also checks the
backward pass under ``vmap``.  With Tensors the reverse-mode Jacobian comes from the eager
tape (backward passes on float64 Tensors, as PyTorch computes it), so ``f`` may use any
Tensor method; forward mode and ``check_batched_grad`` run funcgrad's transforms, for
which ``f`` must be written with NumPy-style operations.  A Tensor that requires grad and
is not float64 gets PyTorch's warning (funcgrad checks it in float64 all the same).

Complex inputs and outputs are checked as PyTorch checks them.  Central differences perturb
the real and the imaginary part of each complex input element separately.  Reverse mode
checks the real and the imaginary part of each complex output as two real functions (one
backward pass each); an entry for a complex input element ``z = x + iy`` is the gradient
of that real function, written as one complex number in the convention of the API ``f``
is written for: ``d/dx - i d/dy`` for plain arrays (JAX's convention, ``fg.grad``'s) and
``d/dx + i d/dy`` for Tensors (PyTorch's, what ``.grad`` holds).  A VJP rule that
conjugates where it should not therefore fails the check.  Forward mode checks the
derivatives along the real and along the imaginary part of each complex input (tangents
``1`` and ``1j``; a tangent is convention-free).  Complex inputs are checked in complex128.
"""
from typing import Any, Callable

import numpy as np

from . import tree
from ._gradcheck_eager import eager_backward, eager_vjp, undefined_grad_failure
from ._gradcheck_inputs import _checked_dtype, _float_leaves, _prepare_inputs, _tensor_class
from ._gradcheck_messages import fast_message, mismatch_message
from .forward_mode import _jvp
from .api import vjp as _vjp
from .batched import vmap as _vmap

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """A derivative computed by funcgrad disagrees with central differences."""


def _numerical_columns(call, x, eps, direction=None, step=1.0):
    """Central-difference derivative of ``call`` along each element of ``x`` (or along
    ``direction``): a list per output leaf of arrays ``(out.size, n)``.  ``step=1j``
    perturbs the imaginary part of each (complex) element instead of the real part."""
    if direction is not None:
        up, down = x + eps * direction, x - eps * direction
        return [None if (p is None) else ((p - m) / (2 * eps)).reshape(-1, 1)
                for p, m in zip(call(up), call(down))]
    cols = None
    flat = x.reshape(-1)
    for j in range(flat.size):
        old = flat[j]
        flat[j] = old + eps * step
        plus = call(x)
        flat[j] = old - eps * step
        minus = call(x)
        flat[j] = old
        d = [None if p is None else ((p - m) / (2 * eps)).reshape(-1) for p, m in zip(plus, minus)]
        if cols is None:
            cols = [[] for _ in d]
        for c, v in zip(cols, d):
            c.append(v)
    if cols is None:
        return None
    return [None if c[0] is None else np.stack(c, axis=1) for c in cols]


def _forward(g, x0, tangents):
    """The tangent output of ``g`` at ``x0`` (forward mode)."""
    try:
        return _jvp(g, tuple(x0), tuple(tangents), False, "jvp")[1]
    except Exception as e:
        if hasattr(e, "add_note"):
            e.add_note("(raised while gradcheck checked forward mode; for a function that "
                       "defines only a VJP, pass check_forward_ad=False)")
        raise


def _fail(message, raise_exception):
    if raise_exception:
        raise GradcheckError(message)
    return False


def gradcheck(f: Callable[..., Any], inputs: Any, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, check_forward_ad: bool = False,
              fast_mode: bool = False, check_backward_ad: bool = True,
              check_batched_grad: bool = False, seed: int = 0, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False, *,
              check_batched_forward_grad: bool = False, masked: bool | None = None) -> bool:
    """Check the reverse-mode (and, with ``check_forward_ad``, forward-mode) derivatives
    of ``f`` at ``inputs`` against central differences, in float64.

    ``inputs``: a tuple of arrays or ``fg.Tensor``s (or a single one).  Tensors that
    require grad are differentiated, as in PyTorch (``f`` receives Tensors); with none,
    every floating-point or complex array is.  Inputs are converted to float64 (complex
    to complex128); others are passed through unchanged.  Complex inputs and outputs are
    checked as PyTorch checks them: a complex output as its real and its imaginary part,
    a complex input's gradient as one complex number per element, ``d/dx - i d/dy`` of
    the real function for plain arrays (JAX's convention, as ``fg.grad`` gives it) and
    ``d/dx + i d/dy`` for Tensors (PyTorch's ``.grad``).  ``check_batched_grad``: also
    check that ``vmap`` of the backward pass over a batch of cotangents equals one
    backward pass per cotangent.
    ``f`` returns an array, a scalar or a tuple/pytree of them.  Returns True; on a
    mismatch raises :class:`GradcheckError` showing the numerical and analytical
    Jacobians and where they differ most, or returns False if
    ``raise_exception=False``.  ``fast_mode=True`` compares random projections
    ``u^T J v`` (reproducible: ``seed``) instead of full Jacobians.
    ``check_undefined_grad`` (Tensors, as PyTorch): a backward pass in which one output
    gets no gradient (None in a ``Function``'s backward after
    ``set_materialize_grads(False)``) and the others zeros must work and give zeros.
    ``nondet_tol`` and ``check_grad_dtypes`` are accepted for PyTorch's signature:
    funcgrad's backward passes are deterministic, and a Tensor's gradient always has its
    dtype; so is ``masked`` (funcgrad has no sparse Tensors), and
    ``check_batched_forward_grad`` asks for the ``vmap`` check of ``check_batched_grad``.

    >>> import numpy as np, funcgrad as fg
    >>> fg.gradcheck(lambda x, y: np.sin(x) * y, (np.array([0.1, 0.2]), np.array([3.0, 4.0])))
    True
    >>> @fg.custom_vjp
    ... def bad_square(x):
    ...     return x * x
    >>> bad_square.defvjp(lambda x: (x * x, x), lambda x, g: (g * x,))   # should be 2*g*x
    >>> fg.gradcheck(bad_square, np.array([1.0, 2.0]), raise_exception=False)
    False
    >>> x = fg.Tensor([0.1, 0.2], requires_grad=True)   # PyTorch's idiom
    >>> fg.gradcheck(lambda t: (t * t).sum(), (x,))
    True
    >>> z = np.array([1 + 2j, 0.5 - 1j])                # complex in, complex out
    >>> fg.gradcheck(lambda z: np.exp(z) * np.conj(z), (z,), check_forward_ad=True)
    True
    >>> @fg.custom_vjp
    ... def norm2(z):
    ...     return np.sum(np.abs(z) ** 2)
    >>> norm2.defvjp(lambda z: (norm2(z), z), lambda z, g: (2 * g * z,))  # JAX wants conj(z)
    >>> fg.gradcheck(norm2, (z,), raise_exception=False)
    False
    """
    args, diff, tensors = _prepare_inputs(inputs, "gradcheck")
    f = _retensor(f, tensors)
    if tensors and check_undefined_grad and check_backward_ad:
        failure = undefined_grad_failure(getattr(f, "eager"), args, diff)
        if failure is not None:
            return _fail(failure, raise_exception)
    return _gradcheck(f, args, diff, eps, atol, rtol, raise_exception,
                      check_forward_ad, fast_mode, check_backward_ad,
                      check_batched_grad or check_batched_forward_grad, seed, str)


def _retensor(f, tensors):
    """``f`` called with Tensors again at the positions where the user gave Tensors (a
    traced value stays itself: ``fg.Tensor(traced)`` is the traced value)."""
    if not tensors:
        return f
    Tensor = _tensor_class()

    def plain(out):  # Tensor outputs as their values: the same structure traced or not
        if isinstance(out, Tensor):
            return out.detach().numpy()
        if isinstance(out, (tuple, list)):
            return type(out)(plain(o) for o in out)
        return out

    def eager(*values):
        return f(*[Tensor(v) if k in tensors and not isinstance(v, Tensor) else v
                   for k, v in enumerate(values)])

    def call(*values):
        return plain(eager(*values))
    call.eager = eager
    return call


def _output_parts(out, convention):
    """The real functions a (reverse-mode) check of one output consists of, as
    ``(label, cotangent weight, projection)``: the output itself if real; its real and its
    imaginary part if complex.  The weight is the cotangent whose backward pass is the
    gradient of that part: 1 for the real part; for the imaginary part ``-1j`` in JAX's
    real pairing ``Re(ct * dw)`` and ``1j`` in PyTorch's ``Re(conj(ct) * dw)``."""
    if out.dtype.kind != "c":
        return [(None, 1.0, None)]
    return [("real", 1.0, np.real),
            ("imaginary", -1j if convention == "jax" else 1j, np.imag)]


def _gradient_entries(columns, take, convention):
    """The numerical reverse-mode Jacobian of one real part of an output: ``columns`` are
    the central differences along the real parts (and, for a complex input, along the
    imaginary parts) of the input elements; a complex input's entry is the gradient of
    the part as one complex number, ``d/dx -+ i d/dy`` by the convention."""
    along_x, along_y = columns
    px = along_x if take is None else take(along_x)
    if along_y is None:
        return px
    py = along_y if take is None else take(along_y)
    return px + (-1j if convention == "jax" else 1j) * py


def _complex_randn(rng, like):
    """Standard normal draws shaped like ``like``, complex when it is (an array even for
    shape (), which the finite differences perturb in place)."""
    v = rng.standard_normal(like.shape)
    if like.dtype.kind == "c":
        v = np.asarray(v + 1j * rng.standard_normal(like.shape))
    return v


def _gradcheck(f, args, diff, eps, atol, rtol, raise_exception, check_forward_ad, fast_mode,
               check_backward_ad, check_batched_grad, seed, label_inputs):
    who = "gradcheck"
    eager = getattr(f, "eager", None) is not None
    vjp = eager_vjp(f.eager, args, diff) if eager else _vjp
    convention = "torch" if eager else "jax"
    if eps <= 0:
        raise ValueError(f"{who}: eps must be positive (got {eps}); the default 1e-6 suits "
                         f"float64")

    def with_diff(diff_values):
        full = list(args)
        for k, v in zip(diff, diff_values):
            full[k] = v
        return full

    def g(*diff_values):
        return f(*with_diff(diff_values))

    x0 = [args[k] for k in diff]
    out0, out_tree, raw_leaves = _float_leaves(f(*args))
    checked = [j for j, o in enumerate(out0) if o is not None]
    if not checked:
        raise ValueError(f"{who}: f returned no floating-point or complex output to check "
                         f"(got {[type(v).__name__ for v in raw_leaves]})")

    def evaluate_at(position, value):
        values = list(x0)
        values[position] = value
        return _float_leaves(g(*values))[0]

    def cotangent_tree(j, ct):
        leaves = [np.zeros(np.shape(leaf), np.asarray(leaf).dtype) for leaf in raw_leaves]
        leaves[j] = ct
        return tree.unflatten(out_tree, leaves)

    if fast_mode:
        return _fast_check(g, x0, out0, checked, diff, vjp, convention, evaluate_at,
                           cotangent_tree, eps, atol, rtol, raise_exception, check_forward_ad,
                           check_backward_ad, seed, label_inputs)

    # numerical[pos] = (along the real parts, along the imaginary parts or None): per
    # output leaf, the central differences (out.size, in.size), complex for complex outputs
    numerical = []
    for pos, x in enumerate(x0):
        def at(x, pos=pos):
            return evaluate_at(pos, x)
        along_x = _numerical_columns(at, x.copy(), eps)
        along_y = _numerical_columns(at, x.copy(), eps, step=1j) if x.dtype.kind == "c" \
            else None
        numerical.append((along_x, along_y))

    def expected(pos, j, k):
        """Central differences of output ``j`` along the real (k=0) or imaginary (k=1)
        parts of input ``pos``; None along imaginary parts of a real input."""
        if k == 1 and x0[pos].dtype.kind != "c":
            return None
        columns = numerical[pos][k]
        if columns is None:  # a size-0 input
            return np.zeros((out0[j].size, 0))
        return columns[j]

    def compare(mode, j, pos, analytical, n, part=None, complex_input=False):
        if analytical.shape != n.shape:
            return _fail(f"{who}: the {mode}-mode Jacobian of output {j} with respect to "
                         f"input {label_inputs(diff[pos])} has shape {analytical.shape}, "
                         f"expected {n.shape}", raise_exception)
        if not np.all(np.abs(analytical - n) <= atol + rtol * np.abs(n)):
            return _fail(mismatch_message(mode, j, diff[pos], n, analytical, out0[j].shape,
                                          x0[pos].shape, atol, rtol, label_inputs, part,
                                          convention if complex_input else None),
                         raise_exception)
        return True

    if check_backward_ad:
        _, vjp_fn = vjp(g, *x0)
        for j in checked:
            for part, weight, take in _output_parts(out0[j], convention):
                rows = [[] for _ in x0]
                for r in range(out0[j].size):
                    ct = np.zeros(out0[j].size, out0[j].dtype)
                    ct[r] = weight
                    cts = vjp_fn(cotangent_tree(j, ct.reshape(out0[j].shape)))
                    for pos, c in enumerate(cts):
                        c = np.asarray(c)
                        c = c.astype(_checked_dtype(c))
                        if c.shape != x0[pos].shape:
                            return _fail(f"{who}: the gradient for input "
                                         f"{label_inputs(diff[pos])} has shape {c.shape}, but "
                                         f"the input has shape {x0[pos].shape}; a VJP rule "
                                         f"returned a wrongly shaped cotangent", raise_exception)
                        rows[pos].append(c.reshape(-1))
                for pos in range(len(x0)):
                    jac = (np.stack(rows[pos]) if rows[pos]
                           else np.zeros((0, x0[pos].size)))
                    n = _gradient_entries((expected(pos, j, 0), expected(pos, j, 1)), take,
                                          convention)
                    label = None if part is None else f"{part} part of complex output {j}"
                    if compare("reverse", j, pos, jac, n, label,
                               x0[pos].dtype.kind == "c") is False:
                        return False

    if check_forward_ad:
        for pos in range(len(x0)):
            complex_input = x0[pos].dtype.kind == "c"
            steps = [("real", 1.0, 0), ("imaginary", 1j, 1)] if complex_input \
                else [(None, 1.0, 0)]
            for part, step, k in steps:
                cols = {j: [] for j in checked}
                for c in range(x0[pos].size):
                    tangents = [np.zeros_like(x) for x in x0]
                    tangents[pos].reshape(-1)[c] = step
                    t_leaves = tree.leaves(_forward(g, x0, tangents))
                    for j in checked:
                        t = np.asarray(t_leaves[j])
                        cols[j].append(t.astype(_checked_dtype(t)).reshape(-1))
                for j in checked:
                    jac = (np.stack(cols[j], axis=1) if cols[j]
                           else np.zeros((out0[j].size, 0)))
                    label = None if part is None else \
                        f"{part} part of complex input {label_inputs(diff[pos])}"
                    if compare("forward", j, pos, jac, expected(pos, j, k), label) is False:
                        return False
    if check_batched_grad:
        return _check_batched(g, x0, out0, checked, cotangent_tree, seed, atol, rtol,
                              raise_exception, lambda pos: label_inputs(diff[pos]))
    return True


def _fast_check(g, x0, out0, checked, diff, vjp, convention, evaluate_at, cotangent_tree,
                eps, atol, rtol, raise_exception, check_forward_ad, check_backward_ad, seed,
                label_inputs):
    """``fast_mode``: random projections instead of Jacobians.  Complex values are
    treated as pairs of real ones, so the projection is ``Re sum(conj(u) * J v)``; the
    backward pass of ``u`` gives it as ``Re sum(vjp(conj(u)) * v)`` in JAX's convention
    and ``Re sum(conj(grad(u)) * v)`` in PyTorch's."""
    rng = np.random.default_rng(seed)
    vs = [_complex_randn(rng, x) for x in x0]
    us = {j: _complex_randn(rng, out0[j]) for j in checked}
    complex_ = any(x.dtype.kind == "c" for x in x0) or \
        any(out0[j].dtype.kind == "c" for j in checked)

    def pairing(a, b):  # the real inner product of a and b viewed as real vectors
        return float(np.sum(np.real(np.conj(a) * b)))

    # projected[pos][j] = <u_j, J_{j,pos} v_pos> by central differences along v_pos
    projected = []
    for pos in range(len(x0)):
        num = _numerical_columns(lambda x, pos=pos: evaluate_at(pos, x), x0[pos], eps,
                                 vs[pos])
        projected.append({j: pairing(us[j].reshape(-1), num[j].reshape(-1)) for j in checked})

    def check(mode, j, pos, a):
        n = projected[pos][j]
        if not abs(a - n) <= atol + rtol * abs(n):
            return _fail(fast_message(mode, j, diff[pos], n, a, atol, rtol, label_inputs,
                                      complex_), raise_exception)
        return True

    if check_forward_ad:
        for pos in range(len(x0)):
            tangents = [np.zeros_like(x) for x in x0]
            tangents[pos] = vs[pos].astype(x0[pos].dtype)
            t_leaves = tree.leaves(_forward(g, x0, tangents))
            for j in checked:
                if check("forward", j, pos, pairing(us[j], np.asarray(t_leaves[j]))) is False:
                    return False
    if check_backward_ad:
        _, vjp_fn = vjp(g, *x0)
        for j in checked:
            u = us[j] if convention == "torch" else np.conj(us[j])
            cts = vjp_fn(cotangent_tree(j, u.astype(out0[j].dtype)))
            for pos in range(len(x0)):
                c = np.asarray(cts[pos])
                gradient = c if convention == "torch" else np.conj(c)
                if check("reverse", j, pos, pairing(gradient, vs[pos])) is False:
                    return False
    return True


def _check_batched(g, x0, out0, checked, cotangent_tree, seed, atol, rtol, raise_exception,
                   label_inputs):
    """``vmap`` of the backward pass over three random cotangents equals three passes."""
    rng = np.random.default_rng(seed + 1)
    _, vjp_fn = _vjp(g, *x0)
    for j in checked:
        batch = _complex_randn(rng, np.empty((3,) + out0[j].shape, out0[j].dtype))
        batched = _vmap(lambda u: vjp_fn(cotangent_tree(j, u)))(batch)
        for pos in range(len(x0)):
            want = np.stack([np.asarray(vjp_fn(cotangent_tree(j, u))[pos]) for u in batch])
            got = np.asarray(batched[pos])
            if got.shape != want.shape or not np.all(np.abs(got - want)
                                                     <= atol + rtol * np.abs(want)):
                return _fail(f"gradcheck: batched gradient mismatch for output {j} with "
                             f"respect to input {label_inputs(pos)}: vmap of the backward "
                             f"pass over a batch of cotangents gives\n{got}\nbut one pass "
                             f"per cotangent gives\n{want}\nCheck the batching rule of the "
                             f"operations the backward pass uses (or pass "
                             f"check_batched_grad=False).", raise_exception)
    return True


def gradgradcheck(f: Callable[..., Any], inputs: Any, grad_outputs: Any = None,
                  eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
                  raise_exception: bool = True, check_forward_ad: bool = False,
                  fast_mode: bool = False, check_batched_grad: bool = False,
                  seed: int = 0, nondet_tol: float = 0.0,
                  check_undefined_grad: bool = True, *, check_grad_dtypes: bool = False,
                  check_fwd_over_rev: bool = False, check_rev_over_rev: bool = True,
                  gen_non_contig_grad_outputs: bool = False, masked: bool = False) -> bool:
    """Check second derivatives: :func:`gradcheck` of the function
    ``(inputs, grad_outputs) -> vjp(f, *inputs)[1](grad_outputs)``, so the derivatives
    of the backward pass itself (reverse-over-reverse, and forward-over-reverse with
    ``check_forward_ad``) are compared with central differences.

    ``grad_outputs``: the cotangents, one per floating-point or complex output leaf (a
    single array for a single output); random (``seed``; complex for a complex output)
    when not given.  In messages, inputs are numbered as in ``inputs``, and
    ``grad_outputs[k]`` names a cotangent.  ``nondet_tol``, ``check_undefined_grad``:
    as in :func:`gradcheck` (the latter checks ``f``'s backward).  PyTorch's
    ``check_fwd_over_rev`` is ``check_forward_ad``, ``check_rev_over_rev=False`` leaves
    the reverse-over-reverse check out; ``check_grad_dtypes``, ``masked`` and
    ``gen_non_contig_grad_outputs`` are accepted for PyTorch's signature (funcgrad's
    arrays have no memory layout to vary).  Complex inputs, outputs and cotangents are
    checked as in :func:`gradcheck`.  With Tensor inputs (PyTorch's idiom) the backward
    pass differentiated is the Tensor tape's, recorded with ``create_graph=True`` as
    PyTorch does, so ``f`` may use Tensor methods and ``Function``s; with plain arrays,
    or with ``check_forward_ad`` / ``check_batched_grad`` (which run funcgrad's
    transforms, so ``f`` must be NumPy-style code), it is :func:`funcgrad.vjp`'s (JAX's
    convention; PyTorch's is its conjugate at the conjugate cotangent, so the derivatives
    are the same up to that fixed change of variables).

    >>> import numpy as np, funcgrad as fg
    >>> fg.gradgradcheck(lambda x: np.tanh(x) ** 2, (np.array([0.3, -0.5]),))
    True
    >>> fg.gradgradcheck(lambda z: np.abs(np.sin(z)) ** 2, (np.array([0.3 + 1j, -0.5j]),))
    True
    >>> x = fg.tensor([0.3, -0.5], dtype=fg.float64, requires_grad=True)
    >>> fg.gradgradcheck(lambda t: t.sin() ** 2, (x,))   # Tensor methods
    True
    """
    who = "gradgradcheck"
    check_forward_ad = check_forward_ad or check_fwd_over_rev
    args, diff, tensors = _prepare_inputs(inputs, who)
    f = _retensor(f, tensors)
    if tensors and check_undefined_grad:
        failure = undefined_grad_failure(getattr(f, "eager"), args, diff)
        if failure is not None:
            return _fail(failure, raise_exception)
    out_leaves, out_tree, raw_leaves = _float_leaves(f(*args))
    float_pos = [j for j, o in enumerate(out_leaves) if o is not None]
    if grad_outputs is None:
        rng = np.random.default_rng(seed)
        us = [_complex_randn(rng, out_leaves[j]) for j in float_pos]
    else:
        us = list(grad_outputs) if isinstance(grad_outputs, (tuple, list)) else [grad_outputs]
        us = [u.detach().numpy() if hasattr(u, "detach") else u for u in us]  # Tensors
        if len(us) != len(float_pos):
            raise ValueError(f"{who}: grad_outputs has {len(us)} entries, but f has "
                             f"{len(float_pos)} floating-point outputs; give one each")
        for k, (u, j) in enumerate(zip(us, float_pos)):
            if np.iscomplexobj(u) and out_leaves[j].dtype.kind != "c":
                raise TypeError(f"{who}: grad_outputs[{k}] is complex but output {j} of f "
                                f"is real; pass a real cotangent for a real output")
        us = [np.array(u, dtype=out_leaves[j].dtype) for u, j in zip(us, float_pos)]
        for u, j in zip(us, float_pos):
            if u.shape != out_leaves[j].shape:
                raise ValueError(f"{who}: grad_outputs entry for output {j} has shape "
                                 f"{u.shape}, the output has shape {out_leaves[j].shape}")
    n_diff = len(diff)

    def transforms_backward(*values):
        diff_values, cts = values[:n_diff], values[n_diff:]
        full = list(args)
        for k, v in zip(diff, diff_values):
            full[k] = v

        def g(*dv):
            inner = list(full)
            for k, v in zip(diff, dv):
                inner[k] = v
            return f(*inner)

        _, vjp_fn = _vjp(g, *diff_values)
        leaves = [np.zeros(np.shape(leaf), np.asarray(leaf).dtype) for leaf in raw_leaves]
        for j, ct in zip(float_pos, cts):
            leaves[j] = ct
        return tuple(vjp_fn(tree.unflatten(out_tree, leaves)))

    backward_of_f = transforms_backward
    if tensors and not (check_forward_ad or check_batched_grad):
        # PyTorch's idiom: the backward pass recorded on the Tensor tape (create_graph),
        # so f may use any Tensor method or Function; the transforms need NumPy-style code
        _, backward_of_f = eager_backward(getattr(f, "eager"), args, diff, float_pos)

    def label(i):
        return str(diff[i]) if i < n_diff else f"grad_outputs[{i - n_diff}]"

    start = [args[k] for k in diff] + us
    try:
        return _gradcheck(backward_of_f, list(start), list(range(len(start))), eps, atol,
                          rtol, raise_exception, check_forward_ad or check_fwd_over_rev,
                          fast_mode, check_rev_over_rev, check_batched_grad, seed, label)
    except GradcheckError as e:
        raise GradcheckError(
            f"gradgradcheck: the derivative of the backward pass of f is wrong (second "
            f"derivatives; 'output k' is the gradient with respect to input k of f).\n"
            f"{e}") from None
