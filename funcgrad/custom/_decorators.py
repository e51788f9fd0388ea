"""JAX's decorators for user-defined derivatives: ``custom_jvp`` and ``custom_vjp``.

Each call is a :class:`~funcgrad.custom._call.CallSite`: the arguments flattened
(pytrees; ``nondiff_argnums`` kept aside as plain values), the user's function and rules
wrapped as functions of the flat leaves, and ``custom_call`` bound on them.
"""
import functools
import inspect
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

import numpy as np

from .. import tree
from ..errors import ArgumentMismatchError, MissingRuleError
from ._call import CallSite, CustomRule, fit_shape, flatten_arguments
from ._reach import refuse_unreachable_captures

_F = TypeVar("_F", bound=Callable[..., Any])

__all__ = ["custom_jvp", "custom_vjp"]


class _CustomFunction:
    """What ``custom_jvp`` and ``custom_vjp`` share: the function, its nondiff_argnums,
    an optional JVP rule, and the call (subclasses check their rules and build them)."""

    jvp_rule: Callable[..., Any] | None = None
    if TYPE_CHECKING:  # set by functools.update_wrapper; defined by the subclasses
        __name__: str

        def _check_defined(self) -> None: ...

        def _rule(self, site: CallSite) -> CustomRule: ...

    def __init__(self, fun: Callable[..., Any], nondiff_argnums: Sequence[int] = (),
                 nondiff_argnames: Sequence[str] = ()) -> None:
        functools.update_wrapper(self, fun)
        self.fun = fun
        # fun's signature and count of positional parameters (-1: not read yet), named so
        # as not to shadow a wrapper's own attributes: functools.wraps copies this __dict__
        self._custom_signature: inspect.Signature | None = None
        self._custom_n_positional = -1
        self.nondiff_argnums = tuple(nondiff_argnums)
        if nondiff_argnames:
            # (JAX's: the names' positions join nondiff_argnums, in position order)
            self.nondiff_argnums = tuple(sorted(set(self.nondiff_argnums)
                                                | set(self._positions(nondiff_argnames))))

    def _positions(self, names: Sequence[str]) -> list[int]:
        """The positions of the parameters ``names`` of the function."""
        names = [names] if isinstance(names, str) else list(names)
        self._positional_count()
        parameters = [] if self._custom_signature is None else list(
            self._custom_signature.parameters)
        missing = [n for n in names if n not in parameters[:self._custom_n_positional]]
        if missing:
            raise ValueError(f"{self.__name__}: nondiff_argnames has {missing}, which are "
                             f"not positional parameters of the function; name its "
                             f"parameters (or use nondiff_argnums)")
        return [parameters.index(n) for n in names]

    def defjvp(self, jvp_rule: _F, symbolic_zeros: bool = False) -> _F:
        """Set the JVP rule ``jvp_rule(*nondiff, primals, tangents) -> (out, tangent_out)``
        (every tangent an array: ``symbolic_zeros=True`` is refused, see
        :func:`_refuse_symbolic_zeros`).

        >>> import funcgrad as fg, funcgrad.numpy as fnp
        >>> f = fg.custom_jvp(fnp.sin)
        >>> _ = f.defjvp(lambda p, t: (fnp.sin(p[0]), 2.0 * t[0]))
        >>> float(fg.grad(f)(0.0))
        2.0
        """
        _refuse_symbolic_zeros(symbolic_zeros, self.__name__, "defjvp")
        self.jvp_rule = jvp_rule
        return jvp_rule

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self._check_defined()
        if kwargs or len(args) < self._positional_count():
            args = self._positional(args, kwargs)
        site = CallSite(self.__name__, args, self.nondiff_argnums)
        kind = "custom_vjp" if isinstance(self, custom_vjp) else "custom_jvp"
        refuse_unreachable_captures(f"{kind}({self.__name__})", lambda: self._held(site),
                                    site.leaves)
        return site.bind(self._rule(site))

    def _held(self, site: CallSite) -> list[tuple[Any, str]]:
        """What the rule holds besides its arguments' leaves, described for an error: the
        nondiff arguments of this call and the user's functions (their closures, defaults
        and globals)."""
        rules = ((self.fun, "function"), (self.jvp_rule, "JVP rule"),
                 (getattr(self, "fwd", None), "fwd rule"), (getattr(self, "bwd", None), "bwd rule"))
        return ([(v, f"nondiff argument {i}") for i, v in zip(self.nondiff_argnums, site.nondiff)]
                + [(fn, _described(fn, f"the {what}")) for fn, what in rules if fn is not None])

    def _positional_count(self) -> int:
        """How many parameters ``fun`` takes by position (0 when its signature cannot be
        read: arguments are then taken as given)."""
        if self._custom_n_positional < 0:
            try:
                self._custom_signature = inspect.signature(self.fun)
            except (TypeError, ValueError):  # (a builtin without one)
                self._custom_signature = None
            kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            self._custom_n_positional = 0 if self._custom_signature is None else sum(
                p.kind in kinds for p in self._custom_signature.parameters.values())
        return self._custom_n_positional

    def _positional(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        """The arguments all by position, defaults filled in (JAX's rule): the rules take
        ``primals`` as one tuple, and ``nondiff_argnums`` count positions."""
        self._positional_count()
        if self._custom_signature is None:
            raise TypeError(f"{self.__name__} was called with keyword arguments "
                            f"{sorted(kwargs)}, but its signature cannot be read to put them "
                            f"in their positions; pass them positionally")
        try:
            bound = self._custom_signature.bind(*args, **kwargs)
        except TypeError as error:
            raise TypeError(f"{self.__name__}: {error}") from None
        bound.apply_defaults()
        if bound.kwargs:
            raise TypeError(f"{self.__name__} takes keyword-only arguments "
                            f"{sorted(bound.kwargs)}, which a custom_jvp or custom_vjp rule "
                            f"cannot receive (its primals are a tuple of positions): make "
                            f"them ordinary parameters, or close over them")
        return bound.args


class custom_jvp(_CustomFunction):
    """A function with a user-defined JVP rule (decorator, as ``jax.custom_jvp``).

    The rule takes ``(primals, tangents)`` tuples and returns ``(out, tangent_out)``.
    Reverse mode uses the same rule (it is linear in the tangents), so one rule
    serves grad, jvp, vmap and higher orders.  ``nondiff_argnums`` (or, by parameter
    name, ``nondiff_argnames``) are passed to the rule first, as plain values.  Keyword
    arguments of a call go to their positions and defaults are filled in (JAX's rule),
    so ``primals`` holds every argument.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> @fg.custom_jvp
    ... def log1pexp(x):
    ...     return fnp.log1p(fnp.exp(x))
    >>> @log1pexp.defjvp
    ... def log1pexp_jvp(primals, tangents):
    ...     x, = primals
    ...     t, = tangents
    ...     return log1pexp(x), t / (1.0 + fnp.exp(-x))   # stable at large x
    >>> float(fg.grad(log1pexp)(100.0))
    1.0
    """

    def defjvps(self, *jvps: Callable[..., Any] | None) -> None:
        """One tangent rule per argument, ``jvp_i(tangent_i, out, *primals)``, whose
        contributions are summed (``None`` for an argument without derivative), as
        ``jax.custom_jvp.defjvps``.

        >>> import funcgrad as fg, funcgrad.numpy as fnp
        >>> @fg.custom_jvp
        ... def f(x, y):
        ...     return fnp.sin(x) * y
        >>> f.defjvps(lambda tx, out, x, y: fnp.cos(x) * y * tx,
        ...           lambda ty, out, x, y: fnp.sin(x) * ty)
        >>> float(fg.grad(f, argnums=1)(0.5, 3.0)) == float(fnp.sin(0.5))
        True
        """
        if self.nondiff_argnums:
            raise TypeError(f"{self.__name__} has nondiff_argnums: defjvps cannot be used "
                            f"with them; define one rule with .defjvp instead")

        def jvp(primals, tangents):
            if len(jvps) != len(primals):
                raise TypeError(f"{self.__name__} takes {len(primals)} arguments but defjvps "
                                f"was given {len(jvps)} rules; give one per argument "
                                f"(None where there is no derivative)")
            out = self(*primals)
            total = None
            for rule, t in zip(jvps, tangents):
                if rule is None:
                    continue
                term = rule(t, out, *primals)
                total = term if total is None else tree.tree_map(lambda a, b: a + b, total, term)
            if total is None:
                total = tree.tree_map(lambda o: np.zeros(np.shape(o), np.result_type(o)), out)
            return out, total
        self.defjvp(jvp)

    def _check_defined(self):
        if self.jvp_rule is None:
            raise MissingRuleError(f"{self.__name__} is a custom_jvp function without a rule: "
                                   f"define one with @{self.__name__}.defjvp")

    # JAX's contract for a user's rule: a tangent stating another dtype than its output's
    # raises TypeError (see fit_tangents); funcgrad's own rules cast (_casting_custom_jvp).
    _strict_tangents = True

    def _rule(self, site):
        return CustomRule(f"custom_jvp({self.__name__})", site.flat_fun(self.fun),
                          jvp=site.flat_jvp(self.jvp_rule),
                          strict_tangents=self._strict_tangents)


class _casting_custom_jvp(custom_jvp):
    """:class:`custom_jvp` for funcgrad's own rules (scipy, lax, numpy.polynomial): a
    tangent of another precision than its output's is cast to the output's dtype, not
    refused.  Those rules compute some tangents in float64 for float32 inputs (a float64
    constant, a SciPy call); a user's rule is held to JAX's contract instead."""
    _strict_tangents = False


class custom_vjp(_CustomFunction):
    """A function with a user-defined VJP (decorator, as ``jax.custom_vjp``).

    ``f.defvjp(fwd, bwd)``: ``fwd(*args) -> (out, residuals)``;
    ``bwd(*nondiff, residuals, cotangent) -> tuple with one cotangent per
    (differentiable) argument`` (``None`` for zero).  Forward mode (``jvp``,
    ``jacfwd``, ``hessian``) raises an error unless a JVP is also given with
    ``f.defjvp(rule)``.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> @fg.custom_vjp
    ... def clip_gradient(x):
    ...     return x
    >>> clip_gradient.defvjp(lambda x: (x, None),
    ...                      lambda res, g: (fnp.clip(g, -1.0, 1.0),))
    >>> float(fg.grad(lambda x: 10.0 * clip_gradient(x))(2.0))
    1.0
    """

    fwd: Callable[..., Any] | None = None
    bwd: Callable[..., Any] | None = None

    def defvjp(self, fwd: Callable[..., Any], bwd: Callable[..., Any],
               symbolic_zeros: bool = False, optimize_remat: bool = False) -> None:
        """Set the rules ``fwd(*args) -> (out, residuals)`` and
        ``bwd(*nondiff, residuals, cotangent) -> cotangents``.  ``optimize_remat`` (JAX's
        option to recompute a cheap ``fwd`` in the backward pass rather than keep its
        residuals) is accepted and changes no value; ``symbolic_zeros=True`` is refused
        (see :func:`_refuse_symbolic_zeros`).

        >>> import funcgrad as fg, funcgrad.numpy as fnp
        >>> f = fg.custom_vjp(fnp.sin)
        >>> f.defvjp(lambda x: (fnp.sin(x), fnp.cos(x)), lambda cos_x, g: (cos_x * g,),
        ...          optimize_remat=True)
        >>> float(fg.grad(f)(0.0))
        1.0
        """
        _refuse_symbolic_zeros(symbolic_zeros, self.__name__, "defvjp")
        self.fwd, self.bwd = fwd, bwd

    def _check_defined(self):
        if self.fwd is None:
            raise MissingRuleError(f"{self.__name__} is a custom_vjp function without rules: "
                                   f"define them with {self.__name__}.defvjp(fwd, bwd)")

    def _rule(self, site):
        name = self.__name__

        def fwd(*xs):
            ys = site.shown(xs)
            outs, residuals = fwd_on(ys)
            return site.plain(outs, ys, xs), residuals  # (residuals: as fwd made them)

        def fwd_on(xs):
            pair = self.fwd(*site.args(xs))
            if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
                raise TypeError(f"the fwd rule of {name} must return a pair (output, "
                                f"residuals), got {type(pair).__name__}"
                                + (f" of length {len(pair)}" if isinstance(pair, (tuple, list))
                                   else "") + "; return (out, residuals), e.g. "
                                "(fnp.sin(x), fnp.cos(x)), with None for no residuals")
            out, residuals = pair
            return site.record(out)[0], residuals

        def bwd(residuals, cts):
            shown = site.shown(cts)
            return site.plain(bwd_on(shown, residuals), shown, cts)

        def bwd_on(cts, residuals):
            grads = self.bwd(*site.nondiff, residuals, tree.unflatten(site.out_tree[0],
                                                                      list(cts)))
            if not isinstance(grads, (tuple, list)):
                raise TypeError(f"the bwd rule of {name} must return a tuple with one "
                                f"cotangent per differentiable argument; got "
                                f"{type(grads).__name__}")
            n_dynamic = site.n - len(site.static)
            if len(grads) != n_dynamic:
                raise ArgumentMismatchError(
                    f"the bwd rule of {name} returned {len(grads)} cotangents "
                                 f"for {n_dynamic} differentiable arguments")
            flat = []
            for g, sub in zip(grads, site.dynamic(site.leaves)):
                sub_leaves, sub_tree = flatten_arguments(sub)
                if g is None:
                    flat += [None] * len(sub_leaves)
                    continue
                g_leaves, g_tree = flatten_arguments(g)
                if g_tree != sub_tree:
                    raise ArgumentMismatchError(
                        f"the bwd rule of {name} returned a cotangent with "
                                     f"structure {g_tree} for an argument of structure "
                                     f"{sub_tree}")
                flat += g_leaves
            return [np.zeros(x.shape, x.dtype) if g is None else fit_shape(
                        g, tuple(x.shape), lambda got, x=x: (
                            f"the backward of {name} returned a gradient of shape {got} "
                            f"for an input of shape {tuple(x.shape)}"))
                    for g, x in zip(flat, site.leaves)]

        jvp = None if self.jvp_rule is None else site.flat_jvp(self.jvp_rule)
        return CustomRule(f"custom_vjp({name})", site.flat_fun(self.fun), jvp=jvp, fwd=fwd,
                          bwd=bwd)


def _described(fn: Any, what: str) -> str:
    """``what``, with ``fn``'s name where it has one of its own."""
    name = getattr(fn, "__name__", "<lambda>")
    return what if name == "<lambda>" else f"{what} {name}"


def _refuse_symbolic_zeros(symbolic_zeros: bool, name: str, method: str) -> None:
    """JAX's ``symbolic_zeros=True`` changes what the rules receive (``CustomVJPPrimal``
    wrappers, ``SymbolicZero`` tangents and cotangents); funcgrad's rules always get
    arrays (zeros where nothing flows), so a rule written for those objects would fail
    inside: refuse it here, where the fix is clear."""
    if symbolic_zeros:
        raise NotImplementedError(
            f"{name}.{method}(..., symbolic_zeros=True): funcgrad hands rules arrays only "
            f"(zeros where no derivative flows), not JAX's SymbolicZero / CustomVJPPrimal "
            f"objects. Drop symbolic_zeros=True and write the rule for arrays.")
