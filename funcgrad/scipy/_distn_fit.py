"""The univariate distributions' methods for fitting a distribution to data: ``fit``, ``nnlf``,
``fit_loc_scale`` (and censored data).

Mixed into :class:`funcgrad.scipy._distn.rv_continuous` (so also ``rv_discrete``; a frozen
distribution has no ``fit``, as SciPy's); kept here so that ``_distn`` holds the densities
and their direct relatives.
"""


class DistnFit:
    """Methods of ``rv_continuous`` and ``rv_discrete`` (see the module docstring)."""
