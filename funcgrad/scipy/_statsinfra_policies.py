"""What SciPy's new distribution objects carry beside their formulas: the parameters as
properties, the tolerance and the two policies (checked as SciPy checks them), and
``reset_cache``.

funcgrad's distributions compute every value from closed formulas with differentiable
operations, so there is no numerical fallback for ``tol`` to steer, no input checks for
``validation_policy='skip_all'`` to skip and no cache for ``cache_policy`` to turn off:
they are kept, validated, for code that sets or reads them.
"""
from typing import Any, Optional

import numpy as np

from ._statsinfra_dispatch import scalar

__all__ = ["PolicyAttributes", "parameter"]


def parameter(name: str, doc: str) -> Any:
    """A read-only property giving the distribution's parameter ``name`` (a NumPy scalar
    for a scalar parameter, as SciPy's; carrying its derivative)."""
    def get(self: Any) -> Any:
        return scalar(self._parameters[name])
    return property(get, doc=doc)


class PolicyAttributes:
    """``tol``, ``validation_policy``, ``cache_policy`` and ``reset_cache``, as SciPy's
    distributions have them."""

    _tol: Any = None
    _validation_policy: Optional[str] = None
    _cache_policy: Optional[str] = None

    @property
    def tol(self) -> Any:
        """The tolerance SciPy's numerical fallbacks would aim at (a positive float or
        ``None``); funcgrad's closed formulas do not use it."""
        return self._tol

    @tol.setter
    def tol(self, tol: Any) -> None:
        if tol is not None:
            value = np.asarray(tol)
            if (value.shape != () or not np.issubdtype(value.dtype, np.floating)
                    or not value > 0):
                raise ValueError(f"Attribute `tol` of `{type(self).__name__}` must be a "
                                 f"positive float, if specified.")
            tol = value[()]
        self._tol = tol

    @property
    def validation_policy(self) -> Optional[str]:
        """``None`` or ``'skip_all'`` (SciPy's switch for its input checks; funcgrad's are
        cheap and always made)."""
        return self._validation_policy

    @validation_policy.setter
    def validation_policy(self, policy: Optional[str]) -> None:
        policy = str(policy).lower() if policy is not None else None
        if policy not in (None, "skip_all"):
            raise ValueError(f"Attribute `validation_policy` of `{type(self).__name__}` "
                             f"must be one of {{None, 'skip_all'}}, if specified.")
        self._validation_policy = policy

    @property
    def cache_policy(self) -> Optional[str]:
        """``None`` or ``'no_cache'`` (SciPy's switch for its caches; funcgrad keeps
        none)."""
        return self._cache_policy

    @cache_policy.setter
    def cache_policy(self, policy: Optional[str]) -> None:
        policy = str(policy).lower() if policy is not None else None
        if policy not in (None, "no_cache"):
            raise ValueError(f"Attribute `cache_policy` of `{type(self).__name__}` must be "
                             f"one of {{None, 'no_cache'}}, if specified.")
        self._cache_policy = policy

    def reset_cache(self) -> None:
        """Clear the cached values, as SciPy's: funcgrad caches none, so there is nothing
        to clear.

        >>> import funcgrad.scipy.stats as fst
        >>> fst.Normal(mu=1.0, sigma=2.0).reset_cache()
        """
