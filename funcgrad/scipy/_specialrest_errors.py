"""SciPy's error handling for special functions, re-exported by
:mod:`funcgrad.scipy.special`: ``errstate``, ``seterr``, ``geterr``,
``SpecialFunctionError`` and ``SpecialFunctionWarning`` are ``scipy.special``'s own
objects, looked up on first use (importing funcgrad never loads SciPy).

They govern the functions whose values come from SciPy's ufuncs (``jv``, ``ber``,
``pbdv``, ``wright_bessel``...: those whose docstrings say "SciPy's values"), eagerly and
under ``jit`` alike; the ones computed by funcgrad's own kernels (``gammaln``, ``erf``...)
follow NumPy's ``np.errstate`` instead.

>>> import numpy as np, funcgrad.scipy.special as fsp
>>> with fsp.errstate(all="raise"):
...     try:
...         fsp.yv(0.0, 0.0)  # (-inf: SciPy's overflow error, raised)
...     except fsp.SpecialFunctionError as e:
...         print(type(e).__name__)
SpecialFunctionError
"""
from typing import Any

NAMES = ["errstate", "seterr", "geterr", "SpecialFunctionError", "SpecialFunctionWarning"]


def scipys(name: str) -> Any:
    """``scipy.special.<name>``."""
    import scipy.special  # (here: importing funcgrad never loads SciPy)
    return getattr(scipy.special, name)
