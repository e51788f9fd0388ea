"""Views: in-place updates through ``x[0]``, ``x.view(-1)``, ``x.t()``... reach ``x``.

In PyTorch the result of a view operation (basic indexing, ``view``, ``reshape``,
``transpose``, ``narrow``, ``diagonal``, ``split``...) shares memory with its base, so
``x[0].fill_(1.0)``, ``x[0][1] = 5`` and ``w.view(-1)[:3].zero_()`` change ``x`` (and
every other view of it), a pattern of weight initialisation under ``no_grad``.  funcgrad
never writes into arrays, so it keeps the relation instead: a view's
:class:`~funcgrad.eager.graph.Storage` remembers its root base (the Tensor that is no
view) and ``replay``, the view operations that lead from the root's value to its own.

* An in-place update of a view writes the new value back into the root, as a recorded
  operation when gradients are on (the root's new value is its old value with the view's
  elements replaced, PyTorch's ``CopySlices``), so gradients flow to both the old root
  and whatever the update used.  Which elements of the root a view shows is found by
  replaying its operations on the root's element numbers; a view that shows one element
  twice (``expand``) cannot be written through, as in PyTorch.
* An in-place update of the root (or of a view, through the write-back) refreshes every
  view of it still held (by the user, or as a value a node saved): each takes
  ``replay(root)`` as its value, recorded from the root's new value, and its version
  counter moves, so a node that saved the old value raises PyTorch's "modified by an
  inplace operation" error in its backward pass, as PyTorch's shared counter does.
* A view of a leaf that requires grad cannot be updated in place while gradients are on
  (PyTorch's rule); under ``fg.no_grad()`` it can, and the leaf stays a leaf.
* A view made under ``fg.no_grad()`` of a Tensor that requires grad requires grad too
  (PyTorch's "view created in no_grad mode"), as a leaf that gradients never reach: its
  operations are recorded, but neither it nor its base gets a gradient through them.
  Updating it, or a view of it, in place while gradients are on raises PyTorch's error;
  once it or its base changed in place (gradients on or off) its ``grad_fn`` is
  PyTorch's ``<Invalid>``: recording an operation with it raises, reading it under
  ``no_grad`` does not (``row`` below).
* A view method that changes nothing (``x[:]``, ``x.view(x.shape)``, ``x.expand(3)`` of
  a ``(3,)`` ``x``, ``x.permute(0)``) still returns a new Tensor, a view of ``x`` with a
  node of its own (``SliceBackward0``...), as PyTorch; ``flatten()`` of a vector and
  ``contiguous()`` return ``x`` itself, as PyTorch.

``t_``, ``transpose_``, ``swapaxes_``, ``swapdims_``, ``squeeze_`` and ``unsqueeze_``
change the Tensor's shape: it becomes a view of its old self (its ``.detach()`` aliases
keep the old shape and still share the elements, as in PyTorch).

``.real``, ``.imag``, ``.H``, ``.mH`` and ``adjoint()`` are views too: of a real Tensor
they write through; of a complex one an in-place update raises (a write-back by element
positions cannot replace half of each element, or undo a conjugation), where PyTorch
writes through.

Unlike PyTorch, ``reshape`` and ``flatten`` are always views (PyTorch copies a
non-contiguous Tensor; funcgrad's strides only describe PyTorch's layout, see
:mod:`funcgrad.eager.strides`), and the pieces of ``split``, ``chunk`` and ``unbind``
may be updated in place.

>>> import funcgrad as fg
>>> w = fg.zeros(2, 3, requires_grad=True)
>>> with fg.no_grad():
...     row = w[0].fill_(1.0)
...     w.t()[2].add_(5.0)
tensor([6., 5.], grad_fn=<Invalid>)
>>> row, w
(tensor([1., 1., 6.], grad_fn=<Invalid>), tensor([[1., 1., 6.],
        [0., 0., 5.]], requires_grad=True))
"""
import functools
import re
import weakref
from typing import Any, Callable

import numpy as np

from .. import numpy as fnp
from ..core import _state
from .graph import AccumulateGrad, Storage
from .values import TensorBase

__all__ = ["attach", "write_back", "refresh", "check_leaf", "unview", "VIEW_METHODS",
           "InvalidNode"]

# The Tensor methods whose results are views of the Tensor (and ``__getitem__`` with a
# basic index, ``T`` and ``mT``)
VIEW_METHODS = ("view", "view_as", "reshape", "reshape_as", "flatten", "ravel", "unsqueeze",
                "broadcast_to",
                "squeeze", "permute", "transpose", "swapaxes", "swapdims", "moveaxis",
                "movedim", "t", "expand", "expand_as", "narrow", "select", "unflatten",
                "diagonal", "split", "split_with_sizes", "chunk", "tensor_split", "hsplit",
                "vsplit", "dsplit", "unbind", "unfold")

OVERLAP_MESSAGE = (
    "unsupported operation: more than one element of the written-to tensor refers to a "
    "single memory location. Please clone() the tensor before performing the operation.")
LEAF_VIEW_MESSAGE = ("a view of a leaf Variable that requires grad is being used in an "
                     "in-place operation.")
_AMBIGUOUS = (" Given that this use case is ambiguous and error-prone, it is forbidden. You can "
              "clarify your code by moving both the view and the inplace either both inside the "
              "no_grad block (if you don't want the inplace to be tracked) or both outside (if "
              "you want the inplace to be tracked).")
NO_GRAD_VIEW_MESSAGE = ("A view was created in no_grad mode and is being modified inplace with "
                        "grad mode enabled." + _AMBIGUOUS)
# PyTorch's name (``grad_fn.name()``) for the node of an update through a view
COPY_SLICES = "torch::autograd::CopySlices"

STALE_VIEW_MESSAGE = ("A view was created in no_grad mode and its base or another view of its "
                      "base has been modified inplace with grad mode enabled." + _AMBIGUOUS)


class InvalidNode:
    """The ``grad_fn`` of a view made under ``no_grad`` once its base changed in place with
    gradients on (PyTorch's ``<Invalid>``): whether gradients should reach the base through
    the view is ambiguous, so recording an operation on it raises, as in PyTorch; under
    ``no_grad`` its value is still read freely."""
    __slots__ = ()
    _retained = None

    def name(self) -> str:
        return "Invalid"

    def __repr__(self) -> str:
        return "<Invalid>"

    def __getattr__(self, name: str) -> Any:  # (the record and the walk read .prim...)
        if name.startswith("__"):  # (hasattr(node, "__wrapped__") and other protocols)
            raise AttributeError(name)
        raise RuntimeError(STALE_VIEW_MESSAGE)


_INVALID = InvalidNode()

# What a view method that changes nothing (``x[:]``, ``x.expand(3)`` of a ``(3,)`` ``x``)
# is named: PyTorch still returns a new Tensor, a view with a node of its own.  ``flatten``
# is not here: PyTorch returns the Tensor itself.
SAME = {"view": "ViewBackward0", "view_as": "ViewBackward0", "reshape": "ViewBackward0",
        "reshape_as": "ViewBackward0", "ravel": "ViewBackward0", "unflatten": "ViewBackward0",
        "squeeze": "SqueezeBackward0", "permute": "PermuteBackward0", "T": "PermuteBackward0",
        "movedim": "PermuteBackward0", "moveaxis": "PermuteBackward0",
        "transpose": "TransposeBackward0", "swapaxes": "TransposeBackward0",
        "swapdims": "TransposeBackward0", "t": "TBackward0", "mT": "TransposeBackward0",
        "expand": "ExpandBackward0", "expand_as": "ExpandBackward0",
        "broadcast_to": "ExpandBackward0", "narrow": "SliceBackward0"}


def _basic(key):
    """Whether ``t[key]`` is a view in PyTorch: integers, slices, None and ``...`` only."""
    parts = key if isinstance(key, tuple) else (key,)
    return all(k is None or k is Ellipsis or isinstance(k, slice) or
               (isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)))
               for k in parts)


def _mark(out, base, replay):
    """Make ``out`` a view of ``base``: ``replay(base)`` computes it."""
    if not isinstance(out, TensorBase) or out._storage is base._storage:
        return
    link = base._storage.base
    if link is not None:  # a view of a view: of the same root, through both replays
        root, inner, _ = link
        replay = _compose(inner, replay)
    else:
        root = base
    mine = out._storage
    mine.base = (root, replay, weakref.ref(out))
    # (the storage, not the Tensor: a node may have saved the value of a view that is
    # gone, and must still see the version move when the root changes)
    storage = root._storage
    views = storage.views
    if views is None:
        storage.views = [weakref.ref(mine)]
        return
    views.append(weakref.ref(mine))
    n = len(views)
    if n >= 8 and n & (n - 1) == 0:  # (at powers of two: amortised O(1) per view)
        views[:] = [v for v in views if v() is not None]


def unview(out, inputs):
    """Make ``out``, the result of a composition of several operations, no view (its
    storage its own) when one of them made it one: ``x.flip(0)`` reads ``x`` through
    basic indexing, but PyTorch's flip copies, so an in-place update of either must not
    reach the other.  A composition that is a view method is marked again by
    :func:`_viewing`, with its replay on the Tensor it was called on.

    >>> import funcgrad as fg
    >>> x = fg.zeros(2)
    >>> y = unview(x[::-1], [x]); _ = x.add_(1.0); y
    tensor([0., 0.])
    """
    if not isinstance(out, TensorBase):
        return out
    mine = out._storage
    link = mine.base
    if link is None or any(isinstance(t, TensorBase) and t._storage is mine for t in inputs):
        return out
    mine.base = None
    views = link[0]._storage.views
    if views:
        views[:] = [v for v in views if v() is not None and v() is not mine]
    return out


def _compose(first, then):
    composed = lambda t: then(first(t))  # noqa: E731
    composed.part = getattr(first, "part", None) or getattr(then, "part", None)
    return composed


def _part(method, name):
    """``.real`` / ``.imag``: a view, but of part of each complex element, which the
    element positions of a write-back cannot express."""
    def replay(t):
        return method(t)
    replay.part = name
    return replay


def _made(out, base, replay, same):
    """``out``, the result of a view method on ``base``, marked as its view.  ``same``:
    the name of the node of a new view when ``out`` is ``base`` itself (a view that
    changes nothing), or None to return ``base`` (PyTorch's ``flatten``).

    A view made while gradients are off is PyTorch's "view created in no_grad mode": of a
    Tensor that requires grad it requires grad too, but as a leaf of its own that
    gradients never reach (nor its base through it), and an in-place update of it, or of
    a view of it, while gradients are on raises (:func:`check_leaf`)."""
    if not isinstance(out, TensorBase):
        return out
    if out is base:
        if same is None:
            return out
        out = _same_view(base, same)
        replay = lambda t: _same_view(t, same)  # noqa: E731  (recorded: refresh needs a node)
    _mark(out, base, replay)
    link = out._storage.base
    if link is None or link[0] is out:
        return out
    replay = link[1]
    if not _state.grad_enabled:
        replay.no_grad = "view"
        # (view(dtype) is not differentiable: its result never requires grad)
        reinterpreted = out.dtype != base.dtype and getattr(replay, "part", None) is None
        if base._requires_grad and not out._requires_grad and not reinterpreted:
            # requires grad, yet is cut from the graph: its operations are recorded, and
            # the gradients they send it go to a node of a Tensor nobody sees
            out._requires_grad = True
            sink = _alias(out, out._storage.value)
            sink._requires_grad = True
            out._accumulator = AccumulateGrad(sink)  # (held strongly: sink is not out)
    elif base._storage.base is not None and getattr(base._storage.base[1], "no_grad", None):
        replay.no_grad = "view of a view"
    return out


def _same_view(t, name):
    """A new Tensor showing ``t``'s value: with a node named ``name`` when ``t`` requires
    grad and gradients are on, else a leaf."""
    out = _record_same(t, name)
    return _alias(t, t._storage.value) if out is t else out


_record_same: Callable[[Any, str], Any]  # named.record_same, given by attach (named imports us)


def _viewing(method: Callable[..., Any], same: str | None = None) -> Callable[..., Any]:
    """``method``, whose results are marked as views of the Tensor it was called on."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        out = method(self, *args, **kwargs)
        if isinstance(out, (tuple, list)):
            for i, piece in enumerate(out):
                _made(piece, self, lambda t, i=i: method(t, *args, **kwargs)[i], None)
            return out
        return _made(out, self, lambda t: method(t, *args, **kwargs), same)
    return wrapper


def _part_view(method, name):
    def part(self):
        return _made(method(self), self, _part(method, name), None)
    return part


def _getitem(method):
    @functools.wraps(method)
    def getitem(self, key):
        out = method(self, key)
        if isinstance(out, TensorBase) and _basic(key):
            parts = key if isinstance(key, tuple) else (key,)
            same = "SliceBackward0" if any(isinstance(k, slice) for k in parts) \
                else "AliasBackward0"
            return _made(out, self, lambda t: method(t, key), same)
        return out
    return getitem


def check_leaf(t, out=None):
    """Refuse an in-place update of a view (gradients on) of a leaf that requires grad, or
    made while gradients were off (:func:`_made`) when the update would be recorded:
    ``out``, the new value once computed, requires grad (PyTorch's rules)."""
    link = t._storage.base
    if link is not None and _state.grad_enabled:
        made = getattr(link[1], "no_grad", None)
        if made is not None and (t._requires_grad or (out is not None and out._requires_grad)):
            if made == "view":
                raise RuntimeError(NO_GRAD_VIEW_MESSAGE)
            name = t.grad_fn.name() if t.grad_fn is not None else "View"
            name = re.sub(r"Backward\d*$", "", name)
            raise RuntimeError(f"Output {t._output_nr} of {name} is a view of a view which "
                               f"was created in no_grad mode and is being modified inplace "
                               f"with grad mode enabled." + _AMBIGUOUS)
        root = link[0]
        if out is None and root._requires_grad and root.grad_fn is None:
            raise RuntimeError(LEAF_VIEW_MESSAGE)


def _alias(root, value):
    """A Tensor of ``root``'s class showing ``value`` under a storage of its own."""
    t = root.detach()
    t._storage = Storage(value)
    return t


def _positions(root, replay):
    """The flat positions in ``root`` of the elements the view shows (view-shaped)."""
    numbers = _alias(root, np.arange(root._storage.value.size).reshape(root.shape))
    with _no_grad():
        return np.asarray(replay(numbers)._storage.value)


class _no_grad:
    def __enter__(self):
        self.mode, _state.grad_enabled = _state.grad_enabled, False

    def __exit__(self, *exc):
        _state.grad_enabled = self.mode


def write_back(view, adopt):
    """After an in-place update of ``view``, give its root base the new elements (and
    refresh the root's other views).  ``adopt(tensor, out)`` makes ``tensor`` show ``out``
    (the in-place machinery's own step)."""
    root, replay, _ = view._storage.base
    part = getattr(replay, "part", None)
    if part is not None and root.dtype.kind == "c":
        raise RuntimeError(
            f"an in-place update of a complex Tensor's .{part} cannot reach the Tensor in "
            f"funcgrad (its values are never written in place); compute the new Tensor "
            f"instead, e.g. z = z.real * 2 + 1j * z.imag")
    if view.dtype != root.dtype:
        raise RuntimeError(
            f"an in-place update of a Tensor made by view({view.dtype.name}) of a "
            f"{root.dtype.name} Tensor cannot reach it in funcgrad (its values are never "
            f"written in place): update the {root.dtype.name} Tensor instead, or clone() "
            f"the view first")
    positions = _positions(root, replay).reshape(-1)
    if np.unique(positions).size != positions.size:
        raise RuntimeError(OVERLAP_MESSAGE)
    old = root
    if _state.grad_enabled and root._requires_grad:
        # the write-back's node saves the old root under a storage of its own, so that the
        # version bump below invalidates only earlier savers of the root
        old = _alias(root, root._storage.value)
        old._requires_grad = True
        old.grad_fn, old._output_nr = root.grad_fn, root._output_nr
    new = fnp.reshape(fnp.at(fnp.ravel(old))[positions].set(fnp.ravel(view)), root.shape)
    adopt(root, new)
    name_copy_slices(root)
    refresh(root._storage, skip=view._storage)
    if getattr(replay, "no_grad", None):
        _invalidate(view)


def name_copy_slices(root):
    """Name the node of an update of ``root`` through a view (``root[1:].mul_(3)``,
    ``root[0] = v``) as PyTorch does: ``CopySlices``."""
    node = root.grad_fn
    if node is not None and hasattr(node, "_name"):
        node._name = COPY_SLICES


def refresh(storage, skip=None):
    """Give each live view of the root ``storage`` its value replayed from the root."""
    views = storage.views
    if not views:
        return
    for ref in list(views):
        mine = ref()
        if mine is None or mine is skip or mine.base is None:
            continue
        root, replay, view = mine.base
        if root._storage is not storage:
            continue
        out = replay(root)
        mine.value = out._storage.value
        mine.version += 1
        view = view()
        if view is None:
            continue
        if getattr(replay, "no_grad", None):
            _invalidate(view)
        elif out._requires_grad:
            view.grad_fn, view._output_nr, view._requires_grad = \
                out.grad_fn, out._output_nr, True


def _invalidate(view):
    """A view made under no_grad that requires grad, once it or its base changed in place
    (with gradients on or off): PyTorch refuses to record with it, as whether gradients
    should reach the base's new graph through it is ambiguous."""
    if view._requires_grad:
        view.grad_fn = _INVALID


def _reshaping_in_place(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """``name_`` (``t_``, ``unsqueeze_``...): the Tensor becomes ``method``'s view of its
    old self, whose storage (shared with its ``.detach()`` aliases, which keep their
    shape) and views it hands to an alias."""
    def update(self, *args, **kwargs):
        if self._inference and not _state.inference:
            raise RuntimeError("Inplace update to inference tensor outside InferenceMode is "
                               "not allowed. You can make a clone to get a normal tensor "
                               "before doing inplace update.")
        leaf = self.grad_fn is None
        if leaf and self._requires_grad and _state.grad_enabled:
            raise RuntimeError("a leaf Variable that requires grad is being used in an "
                               "in-place operation.")
        out = method(self, *args, **kwargs)
        old = self.detach()  # the old self: its storage, shape and place in the graph
        if not leaf:
            old.grad_fn, old._output_nr, old._requires_grad = \
                self.grad_fn, self._output_nr, self._requires_grad
        storage = self._storage
        for ref in storage.views or ():  # the views of the old self are views of the alias
            mine = ref()
            if mine is not None and mine.base is not None and mine.base[0] is self:
                mine.base = (old, *mine.base[1:])
        self._storage = out._storage
        if not leaf or out._requires_grad:
            self.grad_fn, self._output_nr = out.grad_fn, out._output_nr
        _mark(self, old, lambda t: method(t, *args, **kwargs))
        return self
    update.__name__ = update.__qualname__ = name + "_"
    update.__doc__ = f":meth:`{name}` in place: the Tensor takes the new shape."
    return update


def attach(cls: Any, record_same: Callable[[Any, str], Any]) -> None:
    """Mark the results of ``cls``'s (the Tensor's) view methods as views.
    ``record_same(t, name)``: ``t`` as the result of a node named ``name`` when gradients
    are recorded and ``t`` requires grad, else ``t`` itself (:func:`funcgrad.eager.named.record_same`)."""
    global _record_same
    _record_same = record_same
    for name in ("t", "transpose", "swapaxes", "swapdims", "squeeze", "unsqueeze"):
        setattr(cls, name + "_", _reshaping_in_place(name, getattr(cls, name)))
    for name in VIEW_METHODS:
        method = getattr(cls, name, None)
        if method is not None:
            setattr(cls, name, _viewing(method, SAME.get(name)))
    for name in ("T", "mT"):
        prop = getattr(cls, name)
        setattr(cls, name, property(_viewing(prop.fget, SAME[name]), doc=prop.__doc__))
    for name in ("real", "imag", "H", "mH"):  # (conjugating: complex ones cannot write back)
        prop = getattr(cls, name)
        setattr(cls, name, property(_part_view(prop.fget, name), doc=prop.__doc__))
    cls.adjoint = functools.wraps(cls.adjoint)(_part_view(cls.adjoint, "adjoint()"))
    cls.__getitem__ = _getitem(cls.__getitem__)
    cls._base = property(base_of)
    cls._is_view = lambda self: base_of(self) is not None


def base_of(t: Any) -> Any:
    """PyTorch's ``t._base``: the Tensor ``t`` is a view of (the first one: a view of a
    view has the same base), or None; ``t._is_view()`` says whether there is one.

    >>> import funcgrad as fg
    >>> x = fg.zeros(3)
    >>> x[1:]._base is x, x[1:][1:]._base is x, x._base, x[1:]._is_view()
    (True, True, None, True)
    """
    link = t._storage.base
    return None if link is None else link[0]
