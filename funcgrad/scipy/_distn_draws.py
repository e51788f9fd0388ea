"""The univariate distributions' methods for drawing and describing a distribution: ``rvs``
(differentiable draws), ``support``, ``interval``, ``freeze`` and SciPy's attributes.

Mixed into :class:`funcgrad.scipy._distn.rv_continuous` (so also ``rv_discrete``) and
:class:`funcgrad.scipy._distn.rv_frozen`; kept here so that ``_distn`` holds the densities
and their direct relatives.
"""


class DistnDraws:
    """Methods of ``rv_continuous`` and ``rv_discrete`` (see the module docstring)."""


class FrozenDraws:
    """Methods of ``rv_frozen`` (see the module docstring)."""
