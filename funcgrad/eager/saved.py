"""What a node saved, under PyTorch's names: ``grad_fn._saved_self``, ``_saved_other``,
``_saved_result``... and ``_raw_saved_*`` (pack/unpack hooks on one saved value).

The names come from the primitive's facts, not from a table of operations: argument 0
is ``self``, argument 1 ``other``, the output ``result``, unless the primitive's
``saved_names`` renames a position (``power``: ``exponent``; ``matmul``: ``mat2``).
Which of them a node has follows ``vjp_reads`` (what the rule reads when every input
wants a gradient); one the rule does not read for this node's inputs is ``None``, as
in PyTorch (``(x * c)`` with only ``x`` requiring grad saves ``c``, not ``x``).

A saved leaf is the leaf itself (``x is y.grad_fn._saved_self``); a saved output is a
new Tensor on the same node (equal to the output, not the output).  Other saved
Tensors come back as new Tensors on the same graph edge (PyTorch returns the input
object itself; funcgrad's nodes do not keep non-leaf inputs alive).  Python numbers
come back as they are.  After a backward pass freed the node, access raises PyTorch's
error; after an in-place change to a saved Tensor, PyTorch's version error.

>>> import funcgrad as fg
>>> x = fg.Tensor([1.0, 2.0], requires_grad=True)
>>> y = x * 2
>>> y.grad_fn._saved_self is None, y.grad_fn._saved_other
(True, 2)
>>> (x * x).grad_fn._saved_self is x
True
"""
from ..core import SHAPES_ONLY
from .graph import AccumulateGrad, FREED_MESSAGE
from .hooks import OUTPUT, hooks_of
from .tensor import _attached, make

__all__ = ["attach", "SavedTensor", "names"]

_DEFAULT = ("self", "other")

HOOKS_FREED_MESSAGE = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate "
    "values of the graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if you "
    "need to access saved variables after calling backward.")


def _reads(node, needs):
    prim = node.prim
    reads = prim.vjp_reads
    if reads is None:
        return None, False
    return reads(needs, **(node.params or {}))


def names(node):
    """``{name: position}`` of what ``node`` shows as ``_saved_<name>`` (``OUTPUT`` for
    the output).

    >>> import funcgrad as fg
    >>> x = fg.Tensor([1.0], requires_grad=True)
    >>> names((x ** x).grad_fn), names(x.exp().grad_fn)
    ({'self': 0, 'exponent': 1, 'result': 'output'}, {'result': 'output'})
    """
    prim = node.prim
    # a primitive, or a node that states what it reads (eager.named.SavesOutput: softmax)
    if getattr(prim, "vjp_reads", SHAPES_ONLY) is SHAPES_ONLY:
        return {}
    if node.params and "rule" in node.params:  # custom rules: ctx.saved_tensors instead
        return {}
    n = len(node.needs)
    inputs_read, output_read = _reads(node, (True,) * n)
    override = getattr(prim, "saved_names", None) or {}
    out = {}
    for i in range(n):
        if inputs_read is not None and not inputs_read[i]:
            continue
        name = override.get(i) or (_DEFAULT[i] if i < len(_DEFAULT) else None)
        if name is not None:
            out[name] = i
    if output_read and not prim.multiple_results:
        out["result"] = OUTPUT
    return out


def _read_now(node, position):
    """Whether this node's rule reads ``position`` for the inputs it has."""
    inputs_read, output_read = _reads(node, node.needs)
    if position == OUTPUT:
        return output_read
    return inputs_read is None or inputs_read[position]


def _value(node, position):
    """The saved value at ``position`` as PyTorch shows it (see the module docstring)."""
    if node._freed:
        raise RuntimeError(FREED_MESSAGE)
    if not _read_now(node, position):
        return None
    hooks = node._hooks
    if hooks is not None and position in hooks.saved:
        unpack, packed = hooks.saved[position]
        return unpack(packed)
    node._check_saved()
    if position == OUTPUT:
        t = make(node.value, True)
        t.grad_fn = node
        return t
    v = node.args[position]
    if isinstance(v, (bool, int, float, complex)):
        return v
    parent = node.parents[position]
    if parent is not None:
        edge = parent._edge()
        if type(edge[0]) is AccumulateGrad or edge[0].prim is not None:
            return _attached(v, edge)
    return make(v, False)


class SavedTensor:
    """One saved value of a node (``grad_fn._raw_saved_self``...):
    ``register_hooks(pack_hook, unpack_hook)`` packs it now and unpacks it when the
    backward pass (or ``_saved_*``) uses it, as ``torch.autograd.SavedTensor``.

    >>> import funcgrad as fg
    >>> x = fg.Tensor([1.0, 2.0], requires_grad=True)
    >>> y = x * x
    >>> y.grad_fn._raw_saved_self.register_hooks(lambda t: t.tolist(), fg.Tensor)
    >>> y.sum().backward()
    >>> x.grad
    tensor([2., 4.])
    """

    __slots__ = ("_node", "_position")

    def __init__(self, node, position):
        self._node = node
        self._position = position

    def register_hooks(self, pack_hook, unpack_hook):
        """Call ``pack_hook(tensor)`` now; ``unpack_hook(packed)`` gives the value back
        (a Tensor of the same shape) whenever it is needed."""
        node = self._node
        if node._freed:
            raise RuntimeError(HOOKS_FREED_MESSAGE)
        table = hooks_of(node).saved
        if self._position in table:
            raise RuntimeError("SavedTensor hooks have already been set on this saved "
                               "tensor: register_hooks can be called once per saved value")
        packed = pack_hook(_value(node, self._position))
        table[self._position] = (unpack_hook, packed)

    def __repr__(self):
        return f"<SavedTensor of {self._node.name()}>"


def _getattr(node, name):
    """``Node.__getattr__``: ``_saved_<name>`` and ``_raw_saved_<name>``."""
    raw = name.startswith("_raw_saved_")
    if raw or name.startswith("_saved_"):
        key = name[len("_raw_saved_"):] if raw else name[len("_saved_"):]
        position = names(node).get(key)
        if position is not None:
            if raw:
                return SavedTensor(node, position) if _read_now(node, position) else None
            return _value(node, position)
    raise AttributeError(f"'{node.name()}' object has no attribute '{name}'")


def attach(cls):
    """Give the node class ``cls`` the ``_saved_*`` attributes."""
    cls.__getattr__ = _getattr
