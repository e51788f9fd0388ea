"""SciPy's special functions as ufuncs: :func:`ufunc_front` gives a function of
:mod:`funcgrad.scipy.special` whose SciPy counterpart is a ``numpy.ufunc`` everything a
ufunc has, with ``funcgrad.numpy``'s own machinery:

- NumPy's keywords ``out=``, ``where=``, ``casting=``, ``order=``, ``dtype=``, ``subok=``
  and ``signature=`` (:func:`funcgrad.numpy._ufunc_keywords.call_with_keywords` asked of
  SciPy's ufunc: ``dtype=`` picks SciPy's loop and the inputs are cast to it,
  differentiably; ``out=`` writes into a plain array, and a traced value, which cannot be
  written into one without dropping its derivative, raises a ``TypeError`` naming
  ``y = f(x)``, as ``funcgrad.numpy``'s ufuncs do; ``where=`` keeps ``out``'s values where
  it is False, and without ``out=`` is refused, naming ``out=`` and ``fnp.where``);
  outputs also by position (``sici(x, si, ci)``), as NumPy's;
- the attributes ``nin``, ``nout``, ``nargs``, ``ntypes``, ``types``, ``identity``,
  ``signature`` and ``__name__`` with SciPy's values (:mod:`._special_ufunc_table`);
- the methods ``outer``, ``reduce``, ``accumulate``, ``reduceat`` and ``at``
  (:mod:`funcgrad.numpy._ufunc_methods`'s, the first four differentiable), valid where
  NumPy's ufunc allows them (``outer``, ``reduce``... on two-input functions; else NumPy's
  ``ValueError``);
- ``inspect.signature``: the inputs by position, then the keywords.

The call without keywords is the function itself, one Python call away.  SciPy is
imported only by a call that needs its ufunc (a keyword, a method): without SciPy, ``out=``
alone still writes into a plain array, and the rest raise an ``ImportError`` naming
``pip install scipy``.
"""
import functools
import inspect
from typing import Any, Callable, Optional

import numpy as np

from ..numpy import _methods as _fnp_methods, _ufunc_methods
from ..numpy._convert import operand, write_out
from ..numpy._ufunc_keywords import ORDER_K, SAME_KIND, call_with_keywords, presented_signature
from ._special_ufunc_table import SCIPY_NAMES, UFUNCS

__all__ = ["ufunc_front", "is_scipy_ufunc", "scipy_ufunc"]


def is_scipy_ufunc(name: str) -> bool:
    """Whether ``scipy.special.<name>`` is a ``numpy.ufunc`` (by the table: SciPy is not
    imported).

    >>> is_scipy_ufunc("gammaln"), is_scipy_ufunc("logsumexp")
    (True, False)
    """
    return name in UFUNCS


def scipy_ufunc(name: str) -> Optional[np.ufunc]:
    """SciPy's ufunc ``scipy.special.<name>``, imported now; None without SciPy.

    >>> scipy_ufunc("jv").types
    ['ff->f', 'dd->d', 'fF->F', 'dD->D']
    """
    try:
        import scipy.special
    except ImportError:
        return None
    return getattr(scipy.special, name)


def ufunc_front(f: Callable[..., Any], name: Optional[str] = None) -> Callable[..., Any]:
    """``f``, the function of :mod:`funcgrad.scipy.special` standing for SciPy's ufunc
    ``name`` (``f.__name__`` by default), as that ufunc: keywords, attributes, methods and
    signature (see the module docstring).

    >>> import numpy as np, funcgrad as fg
    >>> def log_gamma(x, /):
    ...     return fg.scipy.special.gammaln(x)
    >>> log_gamma.__name__ = "gammaln"
    >>> f = ufunc_front(log_gamma)
    >>> f.nin, f.nout, f.types
    (1, 1, ['d->d', 'f->f'])
    >>> f(np.array([1.0, 4.0]), dtype=np.float32)
    array([0.       , 1.7917595], dtype=float32)
    """
    name = name or f.__name__
    nin, nout, identity, loops = UFUNCS[name]
    label = f"funcgrad.scipy.special.{name}"

    @functools.wraps(f)
    def front(*args: Any, out: Any = None, where: Any = True, casting: str = SAME_KIND,
              order: str = ORDER_K, dtype: Any = None, subok: bool = True,
              signature: Any = None) -> Any:
        if len(args) != nin:
            args, out = _positional_outputs(name, nin, nout, args, out)
        if out is None and where is True and dtype is None and casting is SAME_KIND and \
                order is ORDER_K and subok is True and signature is None:
            return f(*args)
        return _keywords(name, label, nout, f, args, out, where, casting, order, dtype, subok,
                         signature)

    shown = inspect.signature(f)
    operands = [p.name for p in shown.parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][:nin]
    if len(operands) != nin:
        raise AssertionError(f"{name}: {len(operands)} inputs in its signature, SciPy's ufunc "
                             f"takes {nin}")
    front.__signature__ = presented_signature(  # type: ignore[attr-defined]
        operands, shown.return_annotation)
    front.__name__ = SCIPY_NAMES.get(name, name)  # (psi for digamma, as SciPy's)
    types = [t.replace(">", "->") for t in loops.split()]
    front.nin, front.nout, front.nargs = nin, nout, nin + nout  # type: ignore[attr-defined]
    front.ntypes, front.types = len(types), types  # type: ignore[attr-defined]
    front.identity, front.signature = identity, None  # type: ignore[attr-defined]
    for method in _forwarded_methods(name):
        setattr(front, method.__name__, method)
    return front


def _positional_outputs(name, nin, nout, args, out):
    """NumPy's outputs given by position after the inputs (``gammaln(x, y)``)."""
    if len(args) < nin or len(args) > nin + nout:
        raise TypeError(f"{name}() takes from {nin} to {nin + nout} positional arguments but "
                        f"{len(args)} were given")
    if out is not None:
        raise TypeError("cannot specify 'out' as both a positional and keyword argument")
    outs = args[nin:]
    return args[:nin], (outs + (None,) * (nout - len(outs)) if nout > 1 else outs[0])


def _keywords(name, label, nout, f, args, out, where, casting, order, dtype, subok,
              signature):
    ufunc = scipy_ufunc(name)
    if ufunc is not None:
        return call_with_keywords(ufunc, f, args, out, where, casting, order, dtype, subok,
                                  signature, label=label)
    if where is True and dtype is None and casting is SAME_KIND and order is ORDER_K and \
            subok is True and signature is None:  # (out= alone: no loop to choose)
        result = f(*[operand(x) for x in args])
        if nout == 1:
            return write_out(name, out, result)
        if not isinstance(out, tuple) or len(out) != nout:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        return tuple(r if o is None else write_out(name, o, r) for o, r in zip(out, result))
    raise ImportError(f"{label}(..., where=/casting=/order=/dtype=/subok=/signature=) chooses "
                      f"among SciPy's loops, which needs SciPy: pip install scipy (out= alone "
                      f"works without it)")


@functools.cache
def _scipy_methods(name):
    """``funcgrad.numpy``'s ufunc methods (reduce, accumulate, reduceat, outer, at) of
    SciPy's ufunc ``name``, computed by the traced values' ``__array_ufunc__``."""
    ufunc = scipy_ufunc(name)
    if ufunc is None:
        raise ImportError(f"scipy.special.{name}'s ufunc methods follow SciPy's ufunc, which "
                          f"needs SciPy: pip install scipy")
    methods = _ufunc_methods.methods_of(ufunc, _fnp_methods._array_ufunc,
                                        label=f"funcgrad.scipy.special.{name}")
    return {m.__name__: m for m in methods}


def _forwarded_methods(name):
    """The five ufunc methods of ``name``, each reaching :func:`_scipy_methods`'s on its
    first call (SciPy is imported then, not when funcgrad.scipy.special is)."""
    def forward(method, doc):
        def call(*args: Any, **kwargs: Any) -> Any:
            return _scipy_methods(name)[method](*args, **kwargs)
        call.__name__ = method
        call.__qualname__ = f"{name}.{method}"
        call.__doc__ = doc.format(f"scipy.special.{name}", name)
        return call
    return [forward("reduce", "``{0}.reduce``: the elements along ``axis`` combined by {1} "
                              "from the left, differentiably."),
            forward("accumulate", "``{0}.accumulate``: the running {1} along ``axis``, "
                                  "differentiably."),
            forward("reduceat", "``{0}.reduceat``: {1} over the slices between ``indices``, "
                                "differentiably."),
            forward("outer", "``{0}.outer``: {1} of every element of ``A`` with every "
                             "element of ``B`` (shape ``A.shape + B.shape``), differentiably."),
            forward("at", "``{0}.at``: in place on a plain NumPy array (SciPy's values); a "
                          "traced array is immutable: use ``a.at[indices]``.")]
