"""``funcgrad.numpy.testing``: NumPy's ``numpy.testing``, whose array assertions also take
funcgrad's eager Tensors (``requires_grad`` or not) and traced values whose values are
known (under ``grad``, ``jvp`` and ``vjp``): an assertion only reads values, so comparing
them drops no derivative.  Under ``vmap`` and ``jit`` the values are not known, and the
error names the assertion.

>>> import numpy as np, funcgrad as fg
>>> from funcgrad.numpy import testing
>>> testing.assert_allclose(fg.Tensor(np.ones(2), requires_grad=True), np.ones(2))
"""
import functools

import numpy as np
import numpy.testing as _nt

from ..core import Tracer
from . import _convert
from ._convert import concrete_values

_ASSERTIONS = ("assert_equal", "assert_almost_equal", "assert_approx_equal",
               "assert_array_equal", "assert_array_less", "assert_array_almost_equal",
               "assert_array_almost_equal_nulp", "assert_array_max_ulp", "assert_allclose")
# (the arguments of each docstring's example: these two need unequal or scalar values)
_EXAMPLES = {"assert_array_less": "np.ones(2), requires_grad=True), np.full(2, 2.0)",
             "assert_approx_equal": "1.0, requires_grad=True), 1.0"}


def _values(x, name):
    """``x``'s values as NumPy's assertions read them (lists and tuples walked)."""
    if isinstance(x, Tracer):
        return concrete_values(x, f"numpy.testing.{name}",
                               "Assert on the function's returned values instead.")
    if isinstance(x, _convert._extra_array_types):
        detach = getattr(x, "detach", None)
        return np.asarray(detach() if detach is not None else x)
    if isinstance(x, (list, tuple)) and any(isinstance(e, (Tracer, list, tuple)) or
                                             isinstance(e, _convert._extra_array_types)
                                             for e in x):
        return type(x)(_values(e, name) for e in x)
    return x


def _reading_values(name):
    numpy_assertion = getattr(_nt, name)

    @functools.wraps(numpy_assertion)
    def assertion(*args, **kwargs):
        return numpy_assertion(*[_values(a, name) for a in args],
                               **{k: _values(v, name) for k, v in kwargs.items()})
    example = _EXAMPLES.get(name, "np.ones(2), requires_grad=True), np.ones(2)")
    assertion.__doc__ = (
        f"``numpy.testing.{name}``, also on funcgrad Tensors and traced values whose "
        f"values are known (it compares values; nothing is differentiated).\n\n"
        f"    >>> import numpy as np, funcgrad as fg\n"
        f"    >>> from funcgrad.numpy import testing\n"
        f"    >>> {'_ = ' if name == 'assert_array_max_ulp' else ''}"  # (it returns the ulps)
        f"testing.{name}(fg.Tensor({example})\n")
    assertion.__module__ = __name__
    return assertion


# NumPy's namespace as it is (assert_raises, suppress_warnings...), then the assertions
# that read values
globals().update({_name: getattr(_nt, _name) for _name in _nt.__all__})
globals().update({_name: _reading_values(_name) for _name in _ASSERTIONS})

__all__ = list(_nt.__all__)
