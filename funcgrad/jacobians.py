"""Jacobians and Hessians, built by batching ``jvp``/``vjp`` with ``vmap``.

``jacfwd`` pushes every input basis vector through one batched forward pass;
``jacrev`` pulls every output basis vector through one batched backward pass.
Results have shape ``out.shape + in.shape`` (per output leaf, per input leaf,
for pytrees), as in JAX.  ``chunk_size=`` bounds how many basis vectors are
batched at once, so a large Jacobian need not fit in memory as one batch.
"""
import math
from typing import Any, Callable, Literal

import numpy as np

from . import tree
from .dtypes import float0, is_integer
from .transformed import Transformed
from .api import (_Reverse, _plain, check_holomorphic_inputs, check_output_dtype, value_and_grad,
                  vjp)
from .arguments import (_as_output, _flatten_inputs, _normalize_argnums, _split_aux, _strip,
                        _substitute, in_type_of, on_device_of, ones_like_output)
from .batched import vmap
from .forward_mode import _jvp, _output_pair
from .core import ROOT, Tracer, _state, user_code
from .interpreters.forward import JVPInterpreter, JVPTracer
from .numpy._convert import asarray
from .primitives import structural as st
from .second_order import hessian_of_array, hvp_of_array
from .typing import ArgNums, PyTree

__all__ = ["jacfwd", "jacrev", "jacobian", "hessian", "hvp", "vhp", "elementwise_grad"]


def _size(x):
    """The number of elements of an array or tracer (math.prod of a shape: np.prod's
    array round trip costs more than the rest of a gradient's bookkeeping here)."""
    return math.prod(np.shape(x))


def _basis(leaves, dtype):
    """Split the identity over the flattened inputs into one batch per leaf, each on
    its leaf's device."""
    n = sum(_size(x) for x in leaves)
    eye = np.eye(n, dtype=dtype)
    out, k = [], 0
    for x in leaves:
        m = _size(x)
        out.append(on_device_of(x, eye[:, k:k + m].reshape((n,) + tuple(x.shape))))
        k += m
    return n, out


def _chunked_vmap(fn, batch_leaves, n, chunk_size):
    """``vmap(fn)(*batch_leaves)``, in chunks of at most ``chunk_size`` rows."""
    if n == 1:
        # One row (the gradient of a scalar function, as inside ``hessian``): the batch
        # of one is the function itself plus a leading axis.  A vmap would put one more
        # interpreter, and its rules' axis moves, under every operation of the pass.
        return [st.reshape(r, (1,) + tuple(r.shape)) for r in fn(*[b[0] for b in batch_leaves])]
    if chunk_size is None or chunk_size >= n:
        return vmap(fn)(*batch_leaves) if n else None
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive int, got {chunk_size}")
    parts = [vmap(fn)(*[b[i:i + chunk_size] for b in batch_leaves])
             for i in range(0, n, chunk_size)]
    return [np.concatenate([p[j] for p in parts]) if not any(isinstance(p[j], Tracer)
                                                            for p in parts)
            else _concat([p[j] for p in parts]) for j in range(len(parts[0]))]


def _concat(xs):
    from . import numpy as fnp
    return fnp.concatenate(xs, 0)


def _dtype(leaves):
    return np.result_type(*[x.dtype for x in leaves]) if leaves else np.float64


def _assemble(rows_per_out, out_leaves, in_leaves, in_first):
    """Cut the stacked rows into blocks of shape out.shape + in.shape."""
    blocks = []
    for o, rows in zip(out_leaves, rows_per_out):
        per_in, k = [], 0
        for x in in_leaves:
            m = _size(x)
            if in_first:   # rows: (n_in, *out.shape)
                block = st.moveaxis(st.reshape(rows[k:k + m], (m,) + tuple(o.shape)), 0,
                                    len(o.shape))
            else:          # rows: (n_out, *in.shape) for this output's rows
                block = rows[k:k + m]
            per_in.append(block)
            k += m
        blocks.append(per_in)
    return blocks


def _block(b, o, x):
    """One Jacobian block ``b`` in shape out.shape + in.shape (``float0`` ones, of an
    integer input under ``allow_int``, store nothing: no reshape to run), a Tensor for a
    Tensor input ``x``."""
    shape = tuple(o.shape) + np.shape(x)
    if getattr(b, "dtype", None) == float0:
        return np.zeros(shape, float0)
    return in_type_of(x, _plain(st.reshape(b, shape)))


def _structure(blocks, out_tree, in_treedefs, single, out_leaves, in_leaves):
    out = []
    for o, per_in in zip(out_leaves, blocks):
        shaped = [_block(b, o, x) for b, x in zip(per_in, in_leaves)]
        out.append(_rebuild_in(in_treedefs, shaped, single))
    return tree.unflatten(out_tree, out)


def _rebuild_in(treedefs, flat, single):
    res, k = [], 0
    for td in treedefs:
        res.append(tree.unflatten(td, flat[k:k + td.num_leaves]))
        k += td.num_leaves
    return res[0] if single else tuple(res)


def _check_jacfwd_inputs(leaves, holomorphic):
    check_holomorphic_inputs(leaves, holomorphic, "jacfwd")
    if not holomorphic:
        for i, x in enumerate(leaves):
            if x.dtype.kind == "c":
                raise TypeError(f"jacfwd needs real inputs, but input leaf {i} is complex "
                                f"({x.dtype}). For a holomorphic function pass "
                                f"holomorphic=True; otherwise push tangents with fg.jvp.")


def _check_jac_outputs(outs, holomorphic, transform):
    for o in outs:
        check_output_dtype(o, holomorphic, transform)


# Jacobians take a Python float they differentiate as a float64 array (strongly typed, as
# before weak arguments, see funcgrad.arguments._as_input): their bases and blocks need its shape.

def jacfwd(fun: Callable[..., Any], argnums: ArgNums = 0, has_aux: bool = False,
           holomorphic: bool = False, *, chunk_size: int | None = None
           ) -> Callable[..., PyTree]:
    """Jacobian by forward mode (one batched ``jvp``): best when inputs are few.
    ``holomorphic=True``: the complex Jacobian of a holomorphic function of complex
    inputs (JAX's convention; without it, inputs must be real).  The positional
    parameters are JAX's, in its order; ``chunk_size`` (torch.func's) is keyword-only.

    >>> import numpy as np, funcgrad as fg
    >>> fg.jacfwd(lambda x: x ** 2)(np.array([1.0, 2.0]))
    array([[2., 0.],
           [0., 4.]])
    >>> fg.jacfwd(lambda z: z ** 2, holomorphic=True)(np.array([1j]))
    array([[0.+2.j]])
    """
    def jac(*args, **kwargs):
        nums, single = _normalize_argnums(argnums, len(args), "jacfwd")
        leaves, kinds, treedefs = _flatten_inputs(args, nums, "jacfwd", weak=False)
        _check_jacfwd_inputs(leaves, holomorphic)
        n, basis = _basis(leaves, _dtype(leaves))
        holder = {}

        def push(*tangents):
            interp = JVPInterpreter(defer=True)
            with interp:
                duals = [JVPTracer(interp, x, t) for x, t in zip(leaves, tangents)]
                with user_code():
                    result = fun(*_substitute(args, nums, treedefs, duals), **kwargs)
            out, aux = _split_aux(result, has_aux, "jacfwd")
            outs, out_tree = tree.flatten(out)
            primals, touts = [], []
            for o in outs:
                if type(o) is JVPTracer and o._trace is interp:
                    primals.append(o.primal)
                    touts.append(o.tangent)
                else:
                    o = o if isinstance(o, Tracer) else asarray(o)
                    primals.append(o)
                    touts.append(np.zeros(o.shape, o.dtype))
            # The aux leaves its interpreter as plain values (as jacrev's does), not tracers.
            holder["tree"], holder["primals"] = out_tree, primals
            holder["aux"] = _strip(aux, interp)
            return touts

        if n == 0:
            push(*[np.zeros(x.shape, x.dtype) for x in leaves])
            rows = [np.zeros((0,) + tuple(getattr(p, "shape", ())), _dtype(leaves))
                    for p in holder["primals"]]
        else:
            rows = _chunked_vmap(push, basis, n, chunk_size)
        out_leaves = [p if isinstance(p, Tracer) else asarray(p) for p in holder["primals"]]
        if holomorphic:
            _check_jac_outputs(out_leaves, holomorphic, "jacfwd")
        blocks = _assemble(rows, out_leaves, leaves, in_first=True)
        result = _structure(blocks, holder["tree"], treedefs, single, out_leaves, leaves)
        return (result, holder["aux"]) if has_aux else result

    options = dict(argnums=argnums, has_aux=has_aux, chunk_size=chunk_size,
                   holomorphic=holomorphic)
    return Transformed(jac, jacfwd, fun, options)


def jacrev(fun: Callable[..., Any], argnums: ArgNums = 0, has_aux: bool = False,
           holomorphic: bool = False, allow_int: bool = False, *,
           chunk_size: int | None = None) -> Callable[..., PyTree]:
    """Jacobian by reverse mode (one forward pass, one batched ``vjp``): best when
    outputs are few.  ``holomorphic=True``: the complex Jacobian of a holomorphic function
    (without it, outputs must be real; complex inputs get JAX's ``d/dx - i d/dy`` rows).
    The positional parameters are JAX's, in its order; ``chunk_size`` is keyword-only.
    ``allow_int=True``: an integer or boolean input is held fixed, and its block is
    ``np.zeros(out.shape + in.shape, fg.dtypes.float0)`` (as :func:`grad`'s; JAX's jacrev
    documents float0 too, though JAX 0.10 casts those blocks to zeros of the input's dtype).

    >>> import numpy as np, funcgrad as fg
    >>> fg.jacrev(lambda x: np.sin(x) * 2.0)(np.array([0.0]))
    array([[2.]])
    >>> fg.jacrev(lambda z: z ** 2, holomorphic=True)(np.array([1j]))
    array([[0.+2.j]])
    >>> dx, dn = fg.jacrev(lambda x, n: x * n, (0, 1), allow_int=True)(np.ones(2), np.arange(2))
    >>> dx, dn.shape, dn.dtype == fg.dtypes.float0
    (array([[0., 0.],
           [0., 1.]]), (2, 2), True)
    """
    def jac(*args, **kwargs):
        nums, single = _normalize_argnums(argnums, len(args), "jacrev")
        rev = _Reverse(fun, args, kwargs, nums, has_aux, "jacrev", weak=False,
                       allow_int=allow_int)
        return _jacrev_from(rev, single, chunk_size, has_aux, holomorphic, "jacrev")

    options = dict(argnums=argnums, has_aux=has_aux, holomorphic=holomorphic,
                   allow_int=allow_int, chunk_size=chunk_size)
    return Transformed(jac, jacrev, fun, options)


def _jacrev_from(rev, single, chunk_size, has_aux, holomorphic=False, transform="jacrev"):
    # integer inputs (allow_int) are not pulled through: their blocks are float0, built
    # whole afterwards, since a batch of arrays that store nothing has nothing to batch
    held = [k == "int" for k in rev.kinds]
    check_holomorphic_inputs([x for x, h in zip(rev.leaves, held) if not h], holomorphic,
                             transform)
    outs = [o if isinstance(o, Tracer) else asarray(o) for o in rev.out_values]
    _check_jac_outputs(outs, holomorphic, transform)
    if len(outs) == 1 and _size(outs[0]) == 1:
        # One output element (a gradient, as inside ``hessian``): the basis is a seed of
        # ones, without building and cutting an identity.
        m, basis = 1, [[ones_like_output(outs[0])]]
    else:
        m, basis = _basis(outs, _dtype(outs) if outs else np.float64)

    def pull(*cts):
        return [_as_output(c, x, "array")
                for c, x, h in zip(rev.backward(list(cts)), rev.leaves, held) if not h]

    def with_held(rows, rows_shape):
        rows = iter(rows)
        return [np.zeros(rows_shape + np.shape(x), float0) if h else next(rows)
                for x, h in zip(rev.leaves, held)]

    if m == 1 and len(outs) == 1:
        # One output element (a gradient, as inside ``hessian``): one pull, and its
        # cotangents are the Jacobian's blocks as they are (no row axis added and cut).
        rows = with_held(pull(*[b[0] for b in basis]), ())
        result = _structure([rows], rev.out_tree, rev.treedefs, single, outs, rev.leaves)
        return (result, rev.aux) if has_aux else result
    if m == 0:
        rows_in = [np.zeros((0,) + np.shape(x), float0 if h else x.dtype)
                   for x, h in zip(rev.leaves, held)]
    elif all(held):
        rows_in = with_held([], (m,))
    else:
        rows_in = with_held(_chunked_vmap(pull, basis, m, chunk_size), (m,))
    # rows_in[j]: (m, *in_j.shape); cut the m rows per output leaf.
    blocks, k = [], 0
    for o in outs:
        size = _size(o)
        blocks.append([r[k:k + size] for r in rows_in])
        k += size
    result = _structure(blocks, rev.out_tree, rev.treedefs, single, outs, rev.leaves)
    return (result, rev.aux) if has_aux else result


def jacobian(fun: Callable[..., Any], argnums: ArgNums = 0,
             strategy: Literal["auto", "forward-mode", "reverse-mode"] = "auto",
             vectorize: bool = True, chunk_size: int | None = None, has_aux: bool = False,
             holomorphic: bool = False, allow_int: bool = False) -> Callable[..., PyTree]:
    """The Jacobian of ``fun``, shape ``out.shape + in.shape``.

    ``strategy``: ``"forward-mode"``, ``"reverse-mode"``, or ``"auto"`` (forward when
    the inputs have fewer elements than the outputs, reverse otherwise).
    ``vectorize=False`` computes it row by row in a Python loop (slower; the route
    torch.autograd.functional takes by default, kept for comparison and memory).
    ``holomorphic``: as in :func:`jacfwd` and :func:`jacrev`; ``allow_int``: as in
    :func:`jacrev` (integer inputs keep the reverse route, which holds them fixed).

    >>> import numpy as np, funcgrad as fg
    >>> fg.jacobian(lambda x: x[0] * x[1], strategy="reverse-mode")(np.array([2.0, 3.0]))
    array([3., 2.])
    """
    if strategy not in ("auto", "forward-mode", "reverse-mode"):
        raise ValueError(f"jacobian: strategy must be 'auto', 'forward-mode' or "
                         f"'reverse-mode', got {strategy!r}")
    if not vectorize:
        chunk_size = 1

    def jac(*args, **kwargs):
        if strategy == "forward-mode":
            if allow_int:
                nums, _ = _normalize_argnums(argnums, len(args), "jacobian")
                if any(is_integer(leaf) for i in nums for leaf in tree.leaves(args[i])):
                    raise ValueError("jacobian: allow_int=True holds integer inputs fixed "
                                     "on the reverse route only (JAX's jacfwd has no "
                                     "allow_int); pass strategy='reverse-mode' or 'auto', "
                                     "or leave the integer input out of argnums")
            return jacfwd(fun, argnums, has_aux, holomorphic, chunk_size=chunk_size)(
                *args, **kwargs)
        nums, single = _normalize_argnums(argnums, len(args), "jacobian")
        rev = _Reverse(fun, args, kwargs, nums, has_aux, "jacobian", weak=False,
                       allow_int=allow_int)
        n_in = sum(_size(x) for x in rev.leaves)
        n_out = sum(_size(o) for o in rev.out_values)
        if strategy == "auto" and n_in < n_out and "int" not in rev.kinds and (
                holomorphic or not any(x.dtype.kind == "c" for x in rev.leaves)):
            return jacfwd(fun, argnums, has_aux, holomorphic, chunk_size=chunk_size)(
                *args, **kwargs)
        return _jacrev_from(rev, single, chunk_size, has_aux, holomorphic, "jacobian")

    options = dict(argnums=argnums, strategy=strategy, vectorize=vectorize,
                   chunk_size=chunk_size, has_aux=has_aux, holomorphic=holomorphic,
                   allow_int=allow_int)
    return Transformed(jac, jacobian, fun, options)


def hessian(fun: Callable[..., Any], argnums: ArgNums = 0, has_aux: bool = False,
            holomorphic: bool = False, *, chunk_size: int | None = None
            ) -> Callable[..., PyTree]:
    """The Hessian of a scalar function, by forward-over-reverse (``jacfwd(jacrev(f))``).
    Called on one plain float array with no transform around it, ``fun`` runs once and
    the Hessian is derived from its recording (:mod:`funcgrad.second_order`), with the
    composition's bits.
    ``holomorphic=True``: the second complex derivative of a holomorphic function.
    ``has_aux=True``: ``fun`` returns ``(value, aux)`` and the result is ``(H, aux)``.
    The positional parameters are JAX's, in its order (``hessian(f, 0, True)`` is
    ``has_aux=True``); ``chunk_size`` is keyword-only.

    >>> import numpy as np, funcgrad as fg
    >>> fg.hessian(lambda x: np.sum(x ** 3))(np.array([1.0, 2.0]))
    array([[ 6.,  0.],
           [ 0., 12.]])
    >>> fg.hessian(lambda z: np.sum(z ** 3), holomorphic=True)(np.array([1j]))
    array([[0.+6.j]])
    >>> fg.hessian(lambda x: (np.sum(x ** 3), "aux"), has_aux=True)(np.array([1.0]))
    (array([[6.]]), 'aux')
    """
    general = jacfwd(jacrev(fun, argnums, has_aux=has_aux, holomorphic=holomorphic), argnums,
                     has_aux=has_aux, chunk_size=chunk_size, holomorphic=holomorphic)
    if has_aux or holomorphic or chunk_size is not None or argnums != 0:
        return general

    def hess(*args, **kwargs):
        # One plain float array, no transform around: the function runs once, and the
        # Hessian comes from its recording (funcgrad.second_order); else the composition.
        if len(args) == 1 and _one_sweep_allowed():
            x = args[0]
            if type(x) is np.ndarray and x.dtype.kind == "f" and x.size:
                return hessian_of_array(fun, x, kwargs, _composed_hessian)
        return general(*args, **kwargs)

    return Transformed(hess, hessian, fun, dict(argnums=argnums, has_aux=has_aux,
                                                holomorphic=holomorphic,
                                                chunk_size=chunk_size))


def _composed_hessian(fun):
    return jacfwd(jacrev(fun))


def _one_sweep_allowed():
    """No transform around the call, and no instruments watching (their view of the
    general route's backward rules is kept)."""
    return _state.interpreter is ROOT and _state.recording != 2


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def hvp(fun: Callable[..., Any], primals: PyTree, tangents: PyTree) -> tuple[PyTree, PyTree]:
    """``(fun(*primals), H @ tangents)`` by forward-over-reverse, without building H.
    For one plain float array with no transform around it, ``fun`` runs once and the
    product is derived from its recording (:mod:`funcgrad.second_order`).

    >>> import numpy as np, funcgrad as fg
    >>> fg.hvp(lambda x: np.sum(x ** 3), (np.array([1.0, 2.0]),), (np.array([1.0, 0.0]),))
    (np.float64(9.0), (array([6., 0.]),))
    >>> fg.hvp(lambda x: np.sum(x ** 3), np.array([1.0, 2.0]), np.array([1.0, 0.0]))[1]
    array([6., 0.])

    ``primals`` is a tuple of the arguments, with a tuple of products; one argument may
    also be passed bare, with its product bare (as ``torch.autograd.functional.hvp``).
    """
    single = not isinstance(primals, (tuple, list))
    primals, tangents = _as_tuple(primals), _as_tuple(tangents)
    if len(primals) == 1 and len(tangents) == 1:
        x, t = primals[0], tangents[0]
        if (type(x) is np.ndarray and type(t) is np.ndarray and x.dtype.kind == "f"
                and t.dtype == x.dtype and t.shape == x.shape):
            if _one_sweep_allowed():
                value, product = hvp_of_array(fun, x, t, {}, _hvp_of_array)
            else:
                value, product = _hvp_of_array(fun, x, t)
            return value, (product if single else (product,))
    everything = tuple(range(len(primals)))

    def gradient_and_value(*xs):
        value, g = value_and_grad(fun, everything)(*xs)
        return g, value

    # Deferred tangents: of the forward pass, only those the gradient's rules read are
    # computed (not those of the value and what only it depends on).
    _, product, value = _jvp(gradient_and_value, primals, tangents, True, "hvp", defer=True)
    return _plain(value), (product[0] if single else product)


def _hvp_of_array(fun, x, t):
    """:func:`hvp` of one plain float array along a tangent of its shape and dtype: what
    ``jvp``'s flattening and checks of primals, tangents and outputs would find is known
    (they were a fifth of an hvp of Rosenbrock at n = 100)."""
    interp = JVPInterpreter(defer=True)
    with interp:
        dual = JVPTracer(interp, x, t)
        with user_code():
            value, g = value_and_grad(fun)(dual)
    return _plain(_strip(value, interp)), _output_pair(g, interp)[1]


def vhp(fun: Callable[..., Any], primals: PyTree, tangents: PyTree) -> tuple[PyTree, PyTree]:
    """``(fun(*primals), tangents @ H)`` by reverse-over-reverse.

    >>> import numpy as np, funcgrad as fg
    >>> fg.vhp(lambda x: np.sum(x ** 3), (np.array([1.0, 2.0]),), (np.array([0.0, 1.0]),))
    (np.float64(9.0), (array([ 0., 12.]),))

    One argument may be passed bare, with its product bare (as in :func:`hvp`).
    """
    single = not isinstance(primals, (tuple, list))
    primals, tangents = _as_tuple(primals), _as_tuple(tangents)
    everything = tuple(range(len(primals)))

    def gradient_and_value(*xs):
        value, g = value_and_grad(fun, everything)(*xs)
        return g, value

    # (as hvp, and PyTorch's vhp: a vector of another float precision is cast, not refused)
    _, vjp_fn, value = vjp(gradient_and_value, *primals, has_aux=True)
    product = vjp_fn(tangents)
    return _plain(value), (product[0] if single else product)


def elementwise_grad(fun: Callable[..., Any], argnum: int = 0) -> Callable[..., PyTree]:
    """For a function applied elementwise, the derivative at every element
    (HIPS autograd's ``elementwise_grad``: the VJP with a cotangent of ones).

    >>> import numpy as np, funcgrad as fg
    >>> fg.elementwise_grad(np.tanh)(np.array([0.0, 0.0]))
    array([1., 1.])
    """
    def egrad(*args, **kwargs):
        nums, _ = _normalize_argnums(argnum, len(args), "elementwise_grad")
        rev = _Reverse(fun, args, kwargs, nums, False, "elementwise_grad", weak=False)
        seeds = [ones_like_output(o) for o in rev.out_values]
        cts = rev.backward(seeds, free=True)
        grads = [_as_output(c, x, k) for c, x, k in zip(cts, rev.leaves, rev.kinds)]
        return tree.unflatten(rev.treedefs[0], grads)

    return Transformed(egrad, elementwise_grad, fun, dict(argnum=argnum))
