"""Refusing a custom rule that holds a differentiated value it was not given.

The guard (:mod:`._guard`) refuses a captured traced value when a rule *uses* it.  A rule
that is never run cannot be caught that way: a custom function called on constants
inside ``grad`` runs below ``grad`` (see ``_call._below_untouched_differentiation``), so
its ``bwd`` (or JVP rule) never runs, and a derivative it would have given through a
value it reaches by a closure, a ``nondiff_argnums`` argument, a ``functools.partial``,
an object's attribute or a global is dropped without a word.  That is the shape of the
implicit-function-theorem rule: a root found on concrete values, passed in as a constant,
and its derivative restored by a ``bwd`` that differentiates a residual closing over the
parameters (session 19's Radau event times gave 0).

So, when a call would bypass a differentiating transform, what the rule can reach
besides its arguments is searched for that transform's traced values, before the call;
on the eager tape, whose backward pass records nothing, for Tensors that require grad.
A transform below the one that differentiates the call is not refused its values: it
sees the rule run (``grad`` of ``grad`` differentiates the inner ``bwd``).  A value held
but never used is refused too: the search cannot tell, and the message names the rewrite.
"""
import functools
import types
import weakref
from typing import Any

import numpy as np

from ..core import ROOT, Tracer, _special_classes, _state
from ._eager import eager_tensor_type
from ._guard import CapturedTracerError

__all__ = ["refuse_unreachable_captures", "on_the_tape"]

# (a bound on the objects searched: a rule's closures are small; a huge object graph is
# not walked to its end, and what lies past the bound is not refused)
_MAX_VISITED = 4000
_ATOMS = (str, bytes, int, float, complex, bool, type(None), np.generic, types.ModuleType,
          type, types.BuiltinFunctionType, types.CodeType)
_ATOM_TYPES = frozenset(_ATOMS) | {np.float64, np.float32, np.int64, np.bool_, np.complex128}


_DIFFERENTIATING: tuple = ()


def _differentiating():
    """The interpreter classes that take derivatives (imported late: they import this
    package)."""
    global _DIFFERENTIATING
    if not _DIFFERENTIATING:
        from ..interpreters.forward import JVPInterpreter
        from ..interpreters.reverse import ReverseInterpreter
        _DIFFERENTIATING = (ReverseInterpreter, JVPInterpreter)
    return _DIFFERENTIATING


def _bypassed_differentiation(operands):
    """The ids of the active differentiating interpreters (grad's, jvp's) that will not
    see this call's rule: neither owning one of ``operands`` nor below one that does (a
    transform below the one that differentiates the call sees the rule's computations,
    as ``grad`` of a ``grad`` sees the inner ``bwd``)."""
    differentiating = _differentiating()
    owners = {id(x._trace) for x in operands if isinstance(x, Tracer)}
    bypassed = set()
    interp = _state.interpreter
    while interp is not None:
        if isinstance(interp, differentiating):
            if id(interp) in owners:
                return bypassed  # (this one and those below see the rule)
            bypassed.add(id(interp))
        interp = interp.parent
    return bypassed


def _names_in(code):
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _names_in(c)
    return names


# function -> (its code, the names it reads): weakly, and by the function, since hashing a
# code object hashes its whole contents
_GLOBAL_NAMES: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()


def _global_names(fn):
    """The global names ``fn``'s code and the functions defined in it read (attribute
    names too: those not in the globals are passed over)."""
    code = fn.__code__
    known = _GLOBAL_NAMES.get(fn)
    if known is None or known[0] is not code:
        known = _GLOBAL_NAMES[fn] = (code, tuple(_names_in(code)))
    return known[1]


def _function_parts(fn):
    """What a function holds: its closure's values, its defaults and the values of the
    globals it reads (not functions, classes or modules: code, not its data)."""
    parts = []
    closure = fn.__closure__
    if closure:
        for name, cell in zip(fn.__code__.co_freevars, closure):
            try:
                parts.append((cell.cell_contents, ("closure variable", name)))
            except ValueError:  # (a cell not yet filled)
                pass
    if fn.__defaults__:
        parts += [(d, ("default argument", i)) for i, d in enumerate(fn.__defaults__)]
    if fn.__kwdefaults__:
        parts += [(d, ("default argument", name)) for name, d in fn.__kwdefaults__.items()]
    found = fn.__globals__
    for name in _global_names(fn):
        value = found.get(name)
        if value is not None and type(value) not in _ATOM_TYPES and not callable(value):
            parts.append((value, ("global", name)))
    return parts


def _parts(obj):
    """``(value, step)`` for what ``obj`` holds, ``step`` saying where (see _path)."""
    kind = type(obj)
    if kind is tuple or kind is list:
        for i, v in enumerate(obj):
            yield v, ("[]", i)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield v, ("[]", k)
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            yield v, ("[]", i)
    elif isinstance(obj, (set, frozenset)):
        for v in obj:
            yield v, ("an element",)
    elif isinstance(obj, functools.partial):
        yield obj.func, (".", "func")
        yield obj.args, (".", "args")
        yield obj.keywords, (".", "keywords")
    elif isinstance(obj, types.MethodType):
        yield obj.__self__, ("its object",)
        yield obj.__func__, ("its function",)
    elif isinstance(obj, types.FunctionType):
        yield from _function_parts(obj)
    elif isinstance(obj, (staticmethod, classmethod)):
        yield from _function_parts(obj.__func__)
    elif isinstance(obj, types.GeneratorType):
        if obj.gi_frame is not None:
            for name, v in obj.gi_frame.f_locals.items():
                yield v, ("generator local", name)
    elif isinstance(obj, np.ndarray):
        if obj.dtype == object:
            for i, v in enumerate(obj.flat):
                yield v, (".", f"flat[{i}]")
    elif not isinstance(obj, _ATOMS) and not kind.__module__.startswith("funcgrad"):
        # (an object of the user's: its attributes; funcgrad's own hold no user data)
        attributes = getattr(obj, "__dict__", None)
        if isinstance(attributes, dict):
            for name, v in attributes.items():
                yield v, (".", name)
        for cls in kind.__mro__:
            for name in cls.__dict__.get("__slots__", ()):
                if isinstance(name, str) and hasattr(obj, name):
                    yield getattr(obj, name), (".", name)


def _path(link):
    """The description of a value found: ``link`` is ``(parent link, step)``, the root's
    parent its description."""
    steps = []
    while isinstance(link, tuple):
        link, step = link
        steps.append(step)
    where = link
    for step in reversed(steps):
        if step[0] == "[]":
            where += f"[{step[1]!r}]"
        elif step[0] == ".":
            where += f".{step[1]}"
        else:
            where += f" -> {step[0]}" + (f" {step[1]!r}" if len(step) > 1 else "")
    return where


def _find(roots, wanted, wanted_special=None):
    """The first tracer for which ``wanted`` holds (or value of the root's handlers, an
    eager Tensor, for which ``wanted_special`` does) that ``roots`` (``(value,
    description)`` pairs) reach, with its description; ``(None, None)`` if none."""
    stack = list(reversed(roots))
    seen = set()
    while stack and len(seen) < _MAX_VISITED:
        obj, link = stack.pop()
        kind = type(obj)
        if kind in _ATOM_TYPES:
            continue
        if isinstance(obj, Tracer):
            if wanted(obj):
                return obj, _path(link)
            continue
        if kind in _special_classes:
            if wanted_special is not None and wanted_special(obj):
                return obj, _path(link)
            continue
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        parts = _function_parts(obj) if kind is types.FunctionType else _parts(obj)
        stack.extend(reversed([(v, (link, step)) for v, step in parts]))
    return None, None


def on_the_tape(operands):
    """Whether the call is on eager Tensors the tape records (grad enabled, no transform):
    its ``bwd`` then runs on the tape's backward pass, which records nothing (as
    PyTorch's), so a Tensor that requires grad and that the rule reached by capture would
    get no gradient from it."""
    Tensor = eager_tensor_type()
    return (Tensor is not None and _state.interpreter is ROOT and _state.grad_enabled
            and any(isinstance(x, Tensor) for x in operands))


def refuse_unreachable_captures(name, held, operands):
    """Raise :class:`CapturedTracerError` if what the custom rule ``name`` holds besides
    its arguments (``held()``: ``(value, description)`` pairs -- its nondiff arguments,
    its functions; called only where there is something to look for) reaches a traced
    value of a differentiating transform that will not run the rule on ``operands`` (or,
    on the eager tape, a Tensor that requires grad): the derivative through that value
    would be dropped."""
    if on_the_tape(operands):
        Tensor = eager_tensor_type()
        value, where = _find(held(), lambda t: False, lambda x: isinstance(x, Tensor)
                             and x.requires_grad)
        if value is None:
            return
        what = "a Tensor that requires grad"
    else:
        bypassed = _bypassed_differentiation(operands)
        if not bypassed:
            return
        value, where = _find(held(), lambda t: t._trace.active and id(t._trace) in bypassed)
        if value is None:
            return
        what = (f"a value traced by an enclosing {value._trace.transform} (interpreter "
                f"#{value._trace.tag})")
    error = CapturedTracerError(
        f"{name} holds {what} that it was not given as an argument: {where} "
        f"holds it. A custom rule gives derivatives with respect to its arguments only, so "
        f"the derivative through that value would be dropped silently. Pass the value as "
        f"a regular (array) argument instead -- for a function, fg.closure_convert(fn, "
        f"*example_args) returns it with the traced values it captures, to pass on as "
        f"arguments -- or, if no derivative should flow through it, hold "
        f"fg.stop_gradient(value) (a Tensor's value.detach()) instead of the value.")
    error.captured = [value]
    raise error
