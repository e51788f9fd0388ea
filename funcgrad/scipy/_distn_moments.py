"""The univariate distributions' methods for a distribution's moments: ``moment``, ``stats``
and ``expect``.

Mixed into :class:`funcgrad.scipy._distn.rv_continuous` (so also ``rv_discrete``) and
:class:`funcgrad.scipy._distn.rv_frozen`; kept here so that ``_distn`` holds the densities
and their direct relatives.
"""


class DistnMoments:
    """Methods of ``rv_continuous`` and ``rv_discrete`` (see the module docstring)."""


class FrozenMoments:
    """Methods of ``rv_frozen`` (see the module docstring)."""
