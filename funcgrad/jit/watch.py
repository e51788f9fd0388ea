"""What a jitted function reads without being passed it: the arrays it reaches (globals,
closures, attributes, defaults, partial arguments) and the links on the way to them, so
that a call can tell whether they changed since the trace (then it traces again)."""
import functools
import types

import numpy as np
from numpy import ndarray

from ..core import Tracer, _special_classes

__all__ = ["reachable_arrays", "same_bits", "relinked", "changed"]


_same_words = None  # funcgrad.jit.runtime.same_words, once Numba is loaded


def same_bits(array, value):
    """Are ``array``'s contents the same bits as ``value`` (its copy, C-contiguous)?  One
    pass over machine words where the layout allows (NaN equals itself; -0.0 and 0.0
    differ, which only costs a retrace), in compiled code: several times faster than
    ``np.array_equal``, which builds a boolean array first."""
    global _same_words
    if array.shape != value.shape or array.dtype != value.dtype:
        return False
    if array.flags.c_contiguous:
        if _same_words is None:
            from .runtime import same_words as _same_words
        word = np.uint64 if array.nbytes % 8 == 0 else np.uint8
        return _same_words(array.reshape(-1).view(word), value.reshape(-1).view(word))
    return np.array_equal(array, value, equal_nan=array.dtype.kind in "fc")


def reachable_arrays(fun, depth=6, links=None):
    """The NumPy arrays ``fun`` can read without being passed them: through its closure,
    the globals it names (and those of the functions it names), default arguments, bound
    objects' attributes, ``functools.partial`` arguments, and lists/tuples/dicts of them.
    ``links``, a list, receives ``(container, key, value)`` for each changeable step on
    the way to those arrays (a global's name, a closure's cell, an attribute, a list's or
    a dict's item): rebinding one (``W = new_array``) changes what ``fun`` reads."""
    found, seen = {}, {}

    def names(code):
        out = set(code.co_names)
        for c in code.co_consts:
            if isinstance(c, types.CodeType):
                out |= names(c)
        return out

    def via(container, key, value, depth):
        """Visit ``value``, held at ``container[key]``: record the link if it leads to
        an array."""
        leads = visit(value, depth)
        if leads and links is not None:
            links.append((container, key, value))
        return leads

    def visit(obj, depth):
        """Does ``obj`` lead to an array?"""
        if depth < 0 or obj is None:
            return False
        if id(obj) in seen:
            return seen[id(obj)]
        seen[id(obj)] = False
        leads = False
        if type(obj) is ndarray:
            if obj.dtype.kind in "biufc":
                found[id(obj)] = obj
                leads = True
        elif type(obj) in _special_classes and not isinstance(obj, Tracer):
            # An eager Tensor is passed to the compiled code at each call (so its
            # contents are read then): only rebinding it (w = new_tensor) needs a trace
            leads = True
        elif isinstance(obj, tuple):
            for o in obj[:256]:
                leads |= visit(o, depth - 1)
        elif isinstance(obj, list):
            for i, o in enumerate(obj[:256]):
                leads |= via(obj, i, o, depth - 1)
        elif isinstance(obj, dict):
            for k, o in list(obj.items())[:256]:
                leads |= via(obj, k, o, depth - 1)
        elif isinstance(obj, types.FunctionType):
            for cell in obj.__closure__ or ():
                try:
                    leads |= via(cell, _CELL, cell.cell_contents, depth - 1)
                except ValueError:  # an empty cell
                    pass
            leads |= visit(obj.__defaults__, depth - 1)
            leads |= visit(obj.__kwdefaults__, depth - 1)
            g = obj.__globals__
            for name in names(obj.__code__):
                if name in g and not isinstance(g[name], types.ModuleType):
                    leads |= via(g, name, g[name], depth - 1)
        elif isinstance(obj, types.MethodType):
            leads |= visit(obj.__func__, depth - 1)
            leads |= visit(getattr(obj.__self__, "__dict__", None), depth - 1)
        elif isinstance(obj, functools.partial):
            leads |= visit(obj.func, depth - 1)
            leads |= visit(obj.args, depth - 1)
            leads |= visit(obj.keywords, depth - 1)
        elif getattr(type(obj), "_watch_through", False):  # a JitFunction: its function
            leads |= visit(obj.fun, depth - 1)
        elif hasattr(obj, "__call__") and hasattr(obj, "__dict__") and not isinstance(
                obj, type):
            leads |= visit(obj.__dict__, depth - 1)  # a callable object: its state
        seen[id(obj)] = leads
        return leads

    visit(fun, depth)
    return list(found.values())


_CELL = object()  # the key of a closure cell's contents in a link


def relinked(links):
    """Does any ``(container, key, value)`` of ``links`` hold another value now?"""
    for container, key, value in links:
        try:
            if key is _CELL:
                now = container.cell_contents
            else:
                now = container[key]
        except (KeyError, IndexError, ValueError):
            return True
        if now is not value:
            return True
    return False


def changed(watched, links):
    """Has an array of ``watched`` (``(array, its value when traced)`` pairs) changed, or
    a link on the way to one (see :func:`relinked`) been rebound?"""
    if relinked(links):
        return True
    for array, value in watched:
        if not same_bits(array, value):
            return True
    return False
