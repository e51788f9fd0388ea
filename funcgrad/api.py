"""The reverse-mode transforms users call: grad, value_and_grad, vjp (jvp and linearize
are in :mod:`funcgrad.forward_mode`, vmap in :mod:`funcgrad.batched`).

Each wraps the user's function: it flattens the arguments being
differentiated into leaves, starts an interpreter, runs the function on that
interpreter's tracers, and turns the traced outputs back into plain arrays
with the structure, shape and dtype of what came in.
"""
from typing import Any, Callable, Literal, overload

import numpy as np

from . import tree
from .transformed import Transformed
from .core import WEAK_TYPES, Tracer, dtype_of, is_special, user_code
from .errors import ArgumentMismatchError
from .tree._nodes import _LEAF, TreeDef
from .dtypes import float0, float0_zeros as _float0_zeros, is_integer as _integer
from .interpreters.backprop import backpropagate
from .interpreters.reverse import ReverseInterpreter, ReverseTracer, backward_pass
from .interpreters.walk_programs import MISS, programs_of
from .numpy._convert import asarray
from .typing import ArgNums, PyTree
from .arguments import (_as_output, _check_device, _flatten_inputs, _normalize_argnums, _rebuild,
                        _split_aux, _strip, _substitute, ones_like_output)

__all__ = ["grad", "value_and_grad", "vjp"]


# user_code keeps no state: one instance serves every call (a gradient's fixed cost)
_USER_CODE = user_code()


# --- reverse mode -----------------------------------------------------------------------------

class _Reverse:
    """One forward pass under a ReverseInterpreter, ready for backward passes."""

    def __init__(self, fun, args, kwargs, argnums, has_aux, transform, weak=True,
                 allow_int=False):
        self.leaves, self.kinds, self.treedefs = _flatten_inputs(args, argnums, transform,
                                                                 weak, allow_int)
        interp = ReverseInterpreter()
        try:
            with interp:
                if "int" in self.kinds:
                    tracers = [x if k == "int" else interp.new_input(x)
                               for x, k in zip(self.leaves, self.kinds)]
                else:  # (every leaf traced: a gradient's usual inputs, without the zip,
                    # and by map, without a comprehension's loop in bytecode)
                    tracers = list(map(interp.new_input, self.leaves))
                with _USER_CODE:
                    result = fun(*_substitute(args, argnums, self.treedefs, tracers), **kwargs)
        finally:
            # tape -> tracers -> interp -> tape would be a reference cycle (also when fun raises)
            self.tape, interp.tape = interp.tape, None
        self.inputs = tracers
        self._take_outputs(result, interp, has_aux, transform)

    @classmethod
    def of_arrays(cls, leaves, treedef, tracers, tape, interp, result, transform):
        """The forward pass :func:`_grad_of_one_array` or :func:`_grad_of_dict` ran (of
        one argument of structure ``treedef`` whose leaves, float ndarrays, were traced
        as ``tracers``), as the constructor would have made it."""
        rev = object.__new__(cls)
        rev.leaves, rev.kinds, rev.treedefs = leaves, ["array"] * len(leaves), [treedef]
        rev.tape, rev.inputs = tape, tracers
        rev._take_outputs(result, interp, False, transform)
        return rev

    def _take_outputs(self, result, interp, has_aux, transform):
        if has_aux:
            result, aux = _split_aux(result, has_aux, transform)
            self.aux = _strip(aux, interp)
        else:
            self.aux = None
        if type(result) is ReverseTracer:  # a gradient's one traced output: a leaf
            out_leaves, self.out_tree = [result], _LEAF
        else:
            out_leaves, self.out_tree = tree.flatten(result, is_special)
        self.out_values, self.out_nodes = [], []
        for o in out_leaves:
            if type(o) is ReverseTracer and o._trace is interp:
                self.out_values.append(_strong(o.value))
                self.out_nodes.append(o)
            else:
                self.out_values.append(o if isinstance(o, Tracer) else asarray(o))
                self.out_nodes.append(None)

    def backward(self, cotangents, free=False):
        """The cotangent of each input leaf (None: zero), as :func:`output` of them
        would make it."""
        seeds = [(node, ct) for node, ct in zip(self.out_nodes, cotangents)
                 if node is not None and ct is not None]
        if "int" not in self.kinds:  # (every input traced: the lists below are the inputs)
            return backward_pass(self.tape, seeds, self.inputs, free)
        traced = [x for x, k in zip(self.inputs, self.kinds) if k != "int"]
        cts = iter(backward_pass(self.tape, seeds, traced, free))
        return [None if k == "int" else next(cts) for k in self.kinds]

    def output(self, cotangents):
        """Input cotangents as the user gets them: the structure, shapes and dtypes of
        the inputs (``float0`` zeros for integer ones)."""
        out = []
        for c, x, k in zip(cotangents, self.leaves, self.kinds):
            if (type(c) is np.ndarray and type(x) is np.ndarray and c.dtype is x.dtype
                    and c.shape == x.shape):  # _as_output_value's common case, without 2 calls
                out.append(c if c.flags.writeable else c.copy())
            else:
                out.append(_float0_zeros(x) if k == "int" else _as_output(c, x, k))
        return out


def check_holomorphic_inputs(leaves, holomorphic, transform):
    """``holomorphic=True`` differentiates complex functions of complex inputs: refuse a
    real input then, naming it (JAX's rule)."""
    if not holomorphic:
        return
    for i, x in enumerate(leaves):
        if dtype_of(x).kind != "c":
            raise TypeError(f"{transform}(..., holomorphic=True) needs complex inputs, but "
                            f"input leaf {i} has dtype {dtype_of(x)}. Pass it as complex "
                            f"(np.asarray(x, dtype=complex)), or drop holomorphic=True for "
                            f"a real input.")


def check_output_dtype(value, holomorphic, transform):
    """Reverse-mode derivatives seed the output with ones: of a real output, or with
    ``holomorphic=True`` of a complex one (a complex output of a function that is not
    holomorphic has no single gradient: JAX's rule)."""
    dtype = getattr(value, "dtype", None)
    if holomorphic:
        if dtype is None or dtype.kind != "c":
            raise TypeError(f"{transform}(..., holomorphic=True) needs a complex output, but "
                            f"the function returned dtype {dtype}. Drop holomorphic=True "
                            f"for a real-valued function.")
        return
    if dtype is not None and dtype.kind == "c":
        raise TypeError(f"{transform} needs a real-valued output, but the function returned "
                        f"a complex one (dtype {dtype}). For a holomorphic function pass "
                        f"holomorphic=True; otherwise differentiate a real quantity (e.g. "
                        f"np.abs(out) ** 2, out.real) or use fg.vjp with a cotangent of your "
                        f"choice.")
    if dtype is None or dtype.kind != "f":
        raise TypeError(f"{transform} needs a real floating-point output, but the function "
                        f"returned dtype {dtype}. Make sure the output is computed from the "
                        f"float inputs.")


def _check_scalar_output(value, transform, holomorphic=False):
    shape = getattr(value, "shape", ())
    size = int(np.prod(shape)) if shape else 1
    if size != 1:
        raise TypeError(f"grad can be implicitly created only for scalar outputs: {transform} "
                        f"needs the function to return a scalar, but it returned an array of "
                        f"shape {shape}. Reduce it (e.g. .sum()), or use fg.vjp / fg.jacobian "
                        f"for non-scalar outputs.")
    check_output_dtype(value, holomorphic, transform)


def value_and_grad(fun: Callable[..., Any], argnums: ArgNums = 0, has_aux: bool = False,
                   holomorphic: bool = False, allow_int: bool = False
                   ) -> Callable[..., tuple[Any, PyTree]]:
    """A function returning ``(fun(*args), gradient)``; ``((value, aux), gradient)``
    with ``has_aux=True``.  ``holomorphic``, ``allow_int``: as in :func:`grad`.

    >>> import numpy as np, funcgrad as fg
    >>> value, g = fg.value_and_grad(lambda x: np.sum(x ** 2))(np.array([1.0, 2.0]))
    >>> float(value), g
    (5.0, array([2., 4.]))
    """
    def value_and_grad_fun(*args, **kwargs):
        nums, single = _normalize_argnums(argnums, len(args), "grad")
        rev = _Reverse(fun, args, kwargs, nums, has_aux, "grad", allow_int=allow_int)
        return _value_and_gradient(rev, has_aux, holomorphic, single)

    if type(argnums) is int and not has_aux and not holomorphic:
        general = value_and_grad_fun
        programs = programs_of(fun)

        def value_and_grad_fun(*args, **kwargs):  # (the usual calls first: see _one_array)
            if 0 <= argnums < len(args):
                x = args[argnums]
                if type(x) is np.ndarray and x.dtype.kind in "fc":
                    return _grad_of_one_array(fun, args, kwargs, argnums, x, programs)
                if type(x) is dict:
                    out = _grad_of_dict(fun, args, kwargs, argnums, x, programs)
                    if out is not None:
                        return out
            return general(*args, **kwargs)

    options = dict(argnums=argnums, has_aux=has_aux, holomorphic=holomorphic,
                   allow_int=allow_int)
    return Transformed(value_and_grad_fun, value_and_grad, fun, options)


def _value_and_gradient(rev, has_aux, holomorphic, single):
    """``grad``'s checks of a forward pass's output, and its backward pass."""
    if holomorphic:
        check_holomorphic_inputs([x for x, k in zip(rev.leaves, rev.kinds) if k != "int"],
                                 holomorphic, "grad")
    if rev.out_tree.num_leaves != 1 or rev.out_tree.node is not None:
        raise TypeError(f"grad can be implicitly created only for scalar outputs: the "
                        f"function returned a {rev.out_tree} structure instead of one "
                        f"scalar. Return a single scalar, or use has_aux=True for extras.")
    value = rev.out_values[0]
    if type(value) in _REAL_SCALARS and not holomorphic:
        # a loss's usual value, a NumPy float scalar: the checks below pass, the seed is
        # a one of its dtype and the value is returned as it is
        seed = np.array(1, value.dtype)
    else:
        _check_scalar_output(value, "grad", holomorphic)
        seed = ones_like_output(value)
        value = _plain(value)
    grads = rev.output(rev.backward([seed], free=True))
    out = _rebuild(rev.treedefs, grads, single)
    return ((value, rev.aux), out) if has_aux else (value, out)


# --- the usual gradient: one float ndarray in, a NumPy float scalar out ------------------------
# What _Reverse, _value_and_gradient and their lists, structures and checks come to when
# the argument differentiated is one float ndarray and the function returns a NumPy float
# scalar computed from it (a loss), done in one frame: 40% of the instructions of the
# gradient of a sum of 16 elements (benchmarks/results/session14-w1fix.md).  Any other
# output goes on from the same forward pass through the general checks, which raise the
# same errors.

def _grad_of_one_array(fun, args, kwargs, argnums, x, programs):
    """``(fun(*args, **kwargs), gradient)`` for ``value_and_grad`` with ``argnums`` an int,
    whose argument ``x`` is a float ndarray; ``programs``: the gradient function's
    :class:`~funcgrad.interpreters.walk_programs.WalkPrograms`."""
    interp = ReverseInterpreter()
    tracer = interp.new_input(x)
    try:
        with interp, _USER_CODE:
            if len(args) == 1 and not kwargs:
                result = fun(tracer)
            else:
                args = list(args)
                args[argnums] = tracer
                result = fun(*args, **kwargs)
    finally:
        # tape -> tracers -> interp -> tape would be a reference cycle (also when fun raises)
        tape, interp.tape = interp.tape, None
    if type(result) is ReverseTracer and result._trace is interp:
        value = result.value
        if type(value) in _REAL_SCALARS:
            seed = np.array(1, value.dtype)
            c = programs.backward(interp, tape, (tracer,), result, seed)
            if c is MISS:
                c = backpropagate(tape, [(result, seed)], consume=True,
                                  numbered=True).get(id(tracer))  # (backward_pass's walk)
            else:
                c = c[0]
            if type(c) is np.ndarray and c.dtype is x.dtype and c.shape == x.shape:
                return value, (c if c.flags.writeable else c.copy())
            return value, _as_output(c, x, "array")
    rev = _Reverse.of_arrays([x], _LEAF, [tracer], tape, interp, result, "grad")
    return _value_and_gradient(rev, False, False, True)


# --- a model's usual gradient: a dict of float ndarrays in, a NumPy float scalar out ----------
# The same for a plain dict whose values are all float ndarrays (a model's parameters,
# W3's): what _flatten_inputs, _substitute, _Reverse, output and _rebuild come to there,
# in one frame: the leaves in sorted key order, the function given a dict of their
# tracers in that order, the gradient a dict in that order (flatten and unflatten's).
# W3's transform API: 1,077 -> 425 bytecodes a call, about 20 frames fewer, -50 K
# instructions at its tiny size (benchmarks/results/session17-w3lean.md).

def _grad_of_dict(fun, args, kwargs, argnums, d, programs):
    """``(fun(*args, **kwargs), gradient)`` for ``value_and_grad`` with ``argnums`` an int,
    whose argument ``d`` is a plain dict; None, before anything ran, where a value is not
    a float ndarray or the keys do not sort (the general path takes those).  ``programs``:
    as :func:`_grad_of_one_array`'s."""
    try:
        keys = sorted(d)  # (tree._sorted_keys', where the keys sort)
    except TypeError:
        return None
    leaves = list(map(d.__getitem__, keys))  # (no comprehension's frame)
    for x in leaves:
        if type(x) is not np.ndarray or x.dtype.kind not in "fc":
            return None
    interp = ReverseInterpreter()
    tracers = list(map(interp.new_input, leaves))
    args = list(args)
    args[argnums] = dict(zip(keys, tracers))
    try:
        with interp, _USER_CODE:
            result = fun(*args, **kwargs)
    finally:
        # tape -> tracers -> interp -> tape would be a reference cycle (also when fun raises)
        tape, interp.tape = interp.tape, None
    if type(result) is ReverseTracer and result._trace is interp:
        value = result.value
        if type(value) in _REAL_SCALARS:
            seed = np.array(1, value.dtype)
            cts = programs.backward(interp, tape, tuple(tracers), result, seed)
            if cts is MISS:
                table = backpropagate(tape, [(result, seed)], consume=True,
                                      numbered=True)  # (backward_pass's walk)
                cts = map(table.get, map(id, tracers))
            grads = {}
            for k, x, c in zip(keys, leaves, cts):
                if type(c) is np.ndarray and c.dtype is x.dtype and c.shape == x.shape:
                    grads[k] = c if c.flags.writeable else c.copy()
                else:
                    grads[k] = _as_output(c, x, "array")
            return value, grads
    treedef = TreeDef(dict, tuple(keys), (_LEAF,) * len(keys))  # (flatten's of d)
    rev = _Reverse.of_arrays(leaves, treedef, tracers, tape, interp, result, "grad")
    return _value_and_gradient(rev, False, False, True)


_REAL_SCALARS = frozenset({np.float32, np.float64})


def _plain(value):
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value[()]
    if type(value) in WEAK_TYPES:  # an input returned as it is: as NumPy scalar (like f(x))
        return np.asarray(value)[()]
    return value


def _strong(value):
    """A Python number (an input returned as it is) as a 0-d array: its dtype is needed."""
    return np.asarray(value) if type(value) in WEAK_TYPES else value


def grad(fun: Callable[..., Any], argnums: ArgNums = 0, has_aux: bool = False,
         holomorphic: bool = False, allow_int: bool = False) -> Callable[..., PyTree]:
    """The gradient of a scalar function: ``grad(f)(x)`` has ``x``'s structure, shape
    and dtype.  ``argnums`` (int or tuple) picks the arguments; ``has_aux=True`` means
    ``fun`` returns ``(scalar, aux)`` and the result is ``(gradient, aux)``.

    Complex numbers follow JAX: for a real-valued ``f`` of ``z = x + iy`` the gradient is
    ``df/dx - i df/dy``; ``holomorphic=True`` differentiates a holomorphic ``f: C -> C``
    and gives ``f'(z)``.  A complex output without ``holomorphic=True`` is an error.

    An integer or boolean argument in ``argnums`` raises TypeError, unless
    ``allow_int=True``: then it is not differentiated, and its gradient is
    ``np.zeros(x.shape, fg.dtypes.float0)`` (JAX's: see :data:`funcgrad.dtypes.float0`).

    >>> import numpy as np, funcgrad as fg
    >>> fg.grad(np.sin)(0.0)
    np.float64(1.0)
    >>> fg.grad(fg.grad(np.sin))(1.0) == -np.sin(1.0)
    np.True_
    >>> fg.grad(lambda z: np.abs(z) ** 2)(3 + 4j)     # JAX's convention: conj(2z)
    np.complex128(6-8j)
    >>> fg.grad(np.sin, holomorphic=True)(1 + 1j) == np.cos(1 + 1j)
    np.True_
    >>> fg.grad(lambda x, n: x ** n, argnums=(0, 1), allow_int=True)(2.0, 3)
    (np.float64(12.0), array((b'',), dtype=[('float0', 'V')]))
    """
    # the function inside value_and_grad's Transformed: calling the wrapper object would
    # add a __call__ (and Python's slower call of a class instance) to every gradient
    vg = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int)._transform_call  # type: ignore[attr-defined]

    if type(argnums) is int and not has_aux and not holomorphic:
        programs = programs_of(fun)

        def grad_fun(*args, **kwargs):  # (value_and_grad's usual call, without its frame)
            if 0 <= argnums < len(args):
                x = args[argnums]
                if type(x) is np.ndarray and x.dtype.kind in "fc":
                    return _grad_of_one_array(fun, args, kwargs, argnums, x, programs)[1]
                if type(x) is dict:
                    out = _grad_of_dict(fun, args, kwargs, argnums, x, programs)
                    if out is not None:
                        return out[1]
            return vg(*args, **kwargs)[1]
    else:
        def grad_fun(*args, **kwargs):
            if has_aux:
                (_, aux), g = vg(*args, **kwargs)
                return g, aux
            return vg(*args, **kwargs)[1]

    return Transformed(grad_fun, grad, fun, dict(argnums=argnums, has_aux=has_aux,
                                                 holomorphic=holomorphic,
                                                 allow_int=allow_int))
@overload
def vjp(fun: Callable[..., Any], *primals: PyTree, has_aux: Literal[False] = False
        ) -> tuple[PyTree, Callable[[PyTree], tuple[PyTree, ...]]]: ...
@overload
def vjp(fun: Callable[..., Any], *primals: PyTree, has_aux: Literal[True]
        ) -> tuple[PyTree, Callable[[PyTree], tuple[PyTree, ...]], Any]: ...
def vjp(fun: Callable[..., Any], *primals: PyTree, has_aux: bool = False
        ) -> tuple[Any, ...]:
    """``(fun(*primals), vjp_fn)``: ``vjp_fn(cotangent)`` returns a tuple with one
    cotangent per primal (``cotangent`` has the structure and shapes of the output).
    Integer and boolean primals are not differentiated: their cotangent is
    ``np.zeros(shape, fg.dtypes.float0)`` (JAX's, see :data:`funcgrad.dtypes.float0`),
    and an integer output takes a ``float0`` (or integer) cotangent, which has no effect.

    >>> import numpy as np, funcgrad as fg
    >>> out, vjp_fn = fg.vjp(np.sin, np.array([0.0, 1.0]))
    >>> vjp_fn(np.array([1.0, 1.0]))[0] == np.cos([0.0, 1.0])
    array([ True,  True])

    A float cotangent of another precision than its output's is cast to the output's
    dtype (``vjp_fn(np.ones(y.shape))`` for a float32 ``y``: as PyTorch casts
    ``grad_outputs``; JAX refuses it); a complex cotangent for a real output raises.
    """
    return _vjp(fun, primals, has_aux)


def _vjp(fun, primals, has_aux):
    rev = _Reverse(fun, primals, {}, tuple(range(len(primals))), has_aux, "vjp",
                   allow_int=True)
    out = tree.unflatten(rev.out_tree, [_plain(v) for v in rev.out_values])
    shapes = [(getattr(v, "shape", ()), getattr(v, "dtype", None)) for v in rev.out_values]

    def vjp_fn(cotangent):
        ct_leaves, ct_tree = tree.flatten(cotangent, is_special)
        if ct_tree != rev.out_tree:
            raise ArgumentMismatchError(
                f"vjp_fn: the cotangent has structure {ct_tree}, but the output "
                f"has structure {rev.out_tree}; pass one cotangent per output")
        cts = []
        for k, (ct, (shape, dtype)) in enumerate(zip(ct_leaves, shapes)):
            if getattr(ct, "dtype", None) == float0 or (
                    dtype is not None and dtype.kind not in "fc" and _integer(ct)):
                # an output without tangent space (integer, boolean): nothing to pull back
                if tuple(np.shape(ct)) != tuple(shape):
                    raise ArgumentMismatchError(
                        f"vjp_fn: cotangent shape {tuple(np.shape(ct))} does "
                        f"not match the output shape {tuple(shape)}")
                cts.append(None)
                continue
            ct = ct if isinstance(ct, Tracer) else asarray(ct)
            _check_device(ct, rev.out_values[k], f"vjp_fn: cotangent {k}", "output")
            if tuple(ct.shape) != tuple(shape):
                raise ArgumentMismatchError(
                    f"vjp_fn: cotangent shape {tuple(ct.shape)} does not match the "
                    f"output shape {tuple(shape)}")
            if dtype is not None and ct.dtype != dtype and not isinstance(ct, Tracer):
                if ct.dtype.kind == "c" and dtype.kind != "c":
                    raise TypeError(f"vjp_fn: cotangent {k} is complex ({ct.dtype}) but the "
                                    f"output is real ({dtype}); its imaginary part would be "
                                    f"dropped. Pass a real cotangent.")
                ct = ct.astype(dtype)
            cts.append(ct)
        return _rebuild(rev.treedefs, rev.output(rev.backward(cts)), False)

    return (out, vjp_fn, rev.aux) if has_aux else (out, vjp_fn)
