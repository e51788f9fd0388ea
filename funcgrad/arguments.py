"""The arguments and results of the transforms: the differentiated leaves flattened out of
the arguments and checked (float, on one device), the outputs turned back into plain
arrays with the structure, shape, dtype and device of what came in, and ``argnums`` /
``has_aux`` read the way JAX reads them.  :mod:`funcgrad.api`, :mod:`funcgrad.jacobians`
and :mod:`funcgrad.forward_mode` share them.

>>> import numpy as np
>>> from funcgrad.arguments import _normalize_argnums
>>> _normalize_argnums((0, -1), 3, "grad")
((0, 2), False)
"""
import numbers
import sys

import numpy as np

from . import tree
from .core import WEAK_TYPES, Tracer, _special_classes, is_special
from .errors import ArgumentMismatchError
from .dtypes import is_integer as _integer
from .interpreters.forward import JVPTracer
from .interpreters.reverse import ReverseTracer
from .numpy._convert import asarray
from .primitives import structural as st


# --- inputs and outputs ------------------------------------------------------------------------

def _as_input(x, where, transform, weak=True):
    """A differentiable leaf as an array (or, with ``weak``, a Python float or complex as
    it is); raises TypeError for non-float inputs."""
    if type(x) is np.ndarray and x.dtype.kind in "fc":  # the common leaf, already fine
        return x
    if weak and type(x) is float:
        # A Python float stays one, weakly typed as NumPy 2 and JAX type it: the function
        # sees what it would see with the number written in (x * s keeps x's float32).
        # (Not a Python complex: rules read a Python number as a real constant.)
        return x
    if isinstance(x, Tracer):
        dtype = x.dtype
    elif isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{transform}: {where} is a bool ({x!r}); derivatives are taken with "
                        f"respect to floating-point values. Pass a float instead."
                        f"{_integer_hint(transform)}")
    elif isinstance(x, (numbers.Integral, np.integer)):
        raise TypeError(f"{transform}: {where} is an integer ({x!r}, dtype int); derivatives "
                        f"are taken with respect to floating-point values. Pass {float(x)!r} "
                        f"or an array of floats (np.asarray(x, dtype=float))."
                        f"{_integer_hint(transform)}")
    elif x is None:
        raise TypeError(f"{transform}: {where} is None, so there is nothing to differentiate "
                        f"with respect to. Pass a float or an array of floats.")
    else:
        try:
            x = asarray(x)
        except TypeError as e:
            raise TypeError(f"{transform}: {where} is not a numeric array: {e}") from None
        dtype = x.dtype
    if dtype.kind not in "fc":
        kind = {"i": "an integer", "u": "an unsigned integer", "b": "a boolean",
                "U": "a string", "S": "a bytes", "O": "an object"}.get(
                    dtype.kind, "a non-float")
        raise TypeError(f"{transform}: {where} has {kind} dtype ({dtype}); derivatives are "
                        f"taken with respect to floating-point arrays (float32, float64, "
                        f"complex64 or complex128). Convert it, e.g. "
                        f"np.asarray(x, dtype=np.float64)."
                        f"{_integer_hint(transform) if dtype.kind in 'biu' else ''}")
    return x


def _integer_hint(transform):
    """What else to do with an integer or boolean input to ``transform`` (JAX's jacfwd and
    jacrev point to jvp and vjp the same way)."""
    if transform in ("grad", "value_and_grad"):
        return (" To keep it an integer, leave it out of argnums, or pass allow_int=True: "
                "its gradient is then np.zeros(shape, fg.dtypes.float0).")
    if transform in ("jacrev", "jacobian"):
        return (" To keep it an integer, leave it out of argnums (it is then held fixed), or "
                "pass allow_int=True: its block is then np.zeros(out.shape + in.shape, "
                "fg.dtypes.float0).")
    if transform in ("jacfwd", "hessian", "elementwise_grad"):
        return (" To keep it an integer, leave it out of argnums (it is then held fixed), or "
                "use fg.jvp / fg.vjp, which take integer inputs with float0 tangents and "
                "cotangents.")
    return ""


def _flatten_inputs(args, argnums, transform, weak=True, allow_int=False):
    """Leaves (as arrays; Python floats kept weakly typed where ``weak``, see
    :func:`_as_input`) of ``args[argnums]`` and what is needed to rebuild them.  With
    ``allow_int``, integer and boolean leaves are kept as they are, of kind ``"int"``
    (not differentiated: their derivative is ``float0`` zeros)."""
    leaves, kinds, treedefs = [], [], []
    for i in argnums:
        a = args[i]
        arg_leaves, treedef = tree.flatten(a) if type(a) is np.ndarray else tree.flatten(
            a, is_special)
        if args[i] is None:
            _as_input(None, f"argument {i}", transform)
        treedefs.append(treedef)
        for leaf in arg_leaves:
            if type(leaf) is not np.ndarray or leaf.dtype.kind not in "fc":
                break
        else:  # every leaf a float array, already fine (the common case): taken at once
            leaves += arg_leaves
            kinds += ["array"] * len(arg_leaves)
            continue
        for j, leaf in enumerate(arg_leaves):
            if type(leaf) is np.ndarray and leaf.dtype.kind in "fc":
                # the common leaf, already fine: no call, and no _Where made for messages
                kinds.append("array")
                leaves.append(leaf)
                continue
            if allow_int and _integer(leaf):
                kinds.append("int")
                leaves.append(leaf)
                continue
            kinds.append(_kind(leaf))
            leaves.append(_as_input(leaf, _Where(i, j, treedef), transform, weak))
    return leaves, kinds, treedefs


class _Where:
    """Names an input leaf in an error message ("argument 0 (leaf 2 of {...})"), written
    only when a message needs it: the structure's repr costs more than checking the leaf."""

    __slots__ = ("arg", "leaf", "treedef")

    def __init__(self, arg, leaf, treedef):
        self.arg, self.leaf, self.treedef = arg, leaf, treedef

    def __str__(self):
        treedef = self.treedef
        if treedef.num_leaves == 1 and treedef.node is None:
            return f"argument {self.arg}"
        return f"argument {self.arg} (leaf {self.leaf} of {treedef})"


def _kind(leaf):
    if type(leaf) is np.ndarray:
        return "array"
    if isinstance(leaf, (float, np.generic)) or (isinstance(leaf, numbers.Number)
                                                 and not isinstance(leaf, np.ndarray)):
        return "scalar"
    return "array"


def _substitute(args, argnums, treedefs, leaves):
    args = list(args)
    k = 0
    for i, treedef in zip(argnums, treedefs):
        n = treedef.num_leaves
        args[i] = tree.unflatten(treedef, leaves[k:k + n])
        k += n
    return args


# --- devices: funcgrad's own arrays go where the user's live; the user's are checked ----------

def _device_array(x):
    """Is ``x`` an array that lives on a device (a GPU array)?  (The GPU tier is loaded
    once such an array exists, so it is not imported here.)"""
    gpu = sys.modules.get("funcgrad.gpu")
    return gpu is not None and isinstance(x, gpu.GpuArray)


def on_device_of(like, value):
    """``value``, a NumPy array funcgrad made (a seed, a zero gradient, a basis), on the
    device where ``like`` lives.

    >>> on_device_of(np.zeros(2), np.ones(2))
    array([1., 1.])
    """
    if _device_array(like):
        return sys.modules["funcgrad.gpu"].device_put(value, like.device)
    return value


def _check_device(value, like, what, partner):
    """Refuse ``value``, a tangent or cotangent the user passed (``what``), when it is a
    NumPy array and ``like``, its ``partner`` (primal, output), lives on a GPU: the rule
    for mixing them in one operation (funcgrad.gpu.dispatch), said where it applies."""
    if isinstance(value, np.ndarray) and value.ndim and _device_array(like):
        raise sys.modules["funcgrad.gpu"].DeviceMismatchError(
            f"{what} is a NumPy array (on the CPU), but its {partner} lives on {like.device}. "
            f"funcgrad does not move your data between devices behind your back: copy it "
            f"first with fg.device_put(v, 'cuda').")


def ones_like_output(value):
    """The seed cotangent of an output: ones, on the output's device."""
    seed = np.empty(getattr(value, "shape", ()), value.dtype)
    seed.fill(1)  # np.ones's values, without its Python-level wrapper (a gradient's fixed cost)
    if type(value) is np.ndarray:  # (a NumPy output: the seed is where it belongs)
        return seed
    return on_device_of(value, seed)


def in_type_of(like, value):
    """``value``, a plain array, as a Tensor where the input ``like`` is one (off the
    graph): torch.func gives a Tensor a Tensor derivative, also one that does not depend on
    the graph (a constant gradient, a zero one), which a rule hands back as an array.

    >>> import funcgrad as fg
    >>> in_type_of(fg.Tensor([1.0]), np.array([2.0], np.float32))
    tensor([2.])
    """
    if type(like) in _special_classes and not isinstance(like, Tracer) and isinstance(
            value, (np.ndarray, np.generic)):
        node = tree.flatten(like)[1]  # a Tensor's pytree node around its value
        if node.node is not None:
            return tree.unflatten(node, [np.asarray(value)])
    return value


def _as_output(value, like, kind):
    """Give a cotangent/tangent the shape, dtype and type of the input ``like``.  That of a
    Python float is a float64 scalar (JAX's cotangent of a weakly typed float is its
    weakly typed float64); that of a Tensor a Tensor (see :func:`in_type_of`)."""
    if type(like) in _special_classes:
        return in_type_of(like, _as_output_value(value, like, kind))
    return _as_output_value(value, like, kind)


def _as_output_value(value, like, kind):
    if type(like) in WEAK_TYPES:
        like = np.asarray(like)
    if (type(value) is np.ndarray and kind == "array" and value.dtype == like.dtype
            and value.shape == like.shape):  # the common case: only ownership to settle
        return value if value.flags.writeable else value.copy()
    if value is None:
        value = np.zeros(like.shape, like.dtype)
        if _device_array(like):  # gradients stay where their input lives
            return on_device_of(like, value)
    if isinstance(value, Tracer):
        return value
    if _device_array(value) or type(value) in _special_classes:  # (GPU arrays, Tensors)
        if value.dtype != like.dtype:
            value = st.convert_element_type(value, like.dtype)
        if tuple(value.shape) != tuple(like.shape):
            value = st.broadcast_to(value, tuple(like.shape))
        return value
    if getattr(value, "dtype", None) != like.dtype:
        value = np.asarray(value, like.dtype)
    if getattr(value, "shape", ()) != like.shape:
        value = np.broadcast_to(value, like.shape).copy()
    if kind == "scalar":
        return value[()] if isinstance(value, np.ndarray) else value
    if not isinstance(value, np.ndarray):
        return np.asarray(value)
    # Rules may hand back read-only broadcast views; users expect to own their gradients.
    return value if value.flags.writeable else value.copy()


def _rebuild(treedefs, flat, single):
    out, k = [], 0
    for treedef in treedefs:
        n = treedef.num_leaves
        out.append(tree.unflatten(treedef, flat[k:k + n]))
        k += n
    return out[0] if single else tuple(out)


def _normalize_argnums(argnums, nargs, transform):
    if type(argnums) is int and 0 <= argnums < nargs:  # the common case
        return (argnums,), True
    single = isinstance(argnums, (int, np.integer))
    try:
        nums = (argnums,) if single else tuple(argnums)
    except TypeError:  # (not an int nor a sequence: the check below names it)
        nums = (argnums,)
    for a in nums:
        if not isinstance(a, (int, np.integer)) or not -nargs <= a < nargs:
            raise ArgumentMismatchError(
                f"{transform}: argnums={argnums!r} does not fit a function called "
                f"with {nargs} positional argument{'s' * (nargs != 1)}: pass "
                f"an int or a tuple of ints, each below {nargs}")
    nums = tuple(int(a) % nargs for a in nums)
    if len(set(nums)) != len(nums):
        raise ValueError(f"{transform}: argnums={argnums!r} names an argument twice; each "
                         f"argument's derivative is taken once (name each position once)")
    return nums, single


def _same_precision(given, wanted):
    """Whether a tangent (cotangent) of dtype ``given`` is one of dtype ``wanted``: the
    same dtype in any byte order, or the real dtype of a complex one's parts (a real
    direction in the complex plane: funcgrad's tests move complex inputs along real ones;
    JAX asks for the complex dtype there too)."""
    given, wanted = given.newbyteorder("="), wanted.newbyteorder("=")
    return given == wanted or (wanted.kind == "c" and given.kind == "f"
                               and given.itemsize * 2 == wanted.itemsize)


def _split_aux(result, has_aux, transform):
    if not has_aux:
        return result, None
    if not (isinstance(result, (tuple, list)) and len(result) == 2):
        raise TypeError(f"{transform}(..., has_aux=True) needs the function to return a pair "
                        f"(output, aux); it returned {type(result).__name__}")
    return result[0], result[1]


def _strip(x, interp):
    """Replace ``interp``'s tracers in a pytree by their values (for aux outputs); a
    Tensor stays one leaf, on its graph."""
    if x is None:  # (no aux)
        return None

    def leaf(v):
        while isinstance(v, (ReverseTracer, JVPTracer)) and v._trace is interp:
            v = v.value if isinstance(v, ReverseTracer) else v.primal
        return v
    return tree.tree_map(leaf, x, is_leaf=is_special)
