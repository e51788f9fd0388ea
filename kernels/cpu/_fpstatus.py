"""The CPU's floating-point status flags, and reporting them as NumPy does (NumPy only).

NumPy reports a ufunc's floating-point errors (``divide by zero encountered in log``)
from the status flags its loop left (C's ``fetestexcept``).  A loop of funcgrad's own that
NumPy does not run (the flat elementwise driver of :mod:`._loops`) clears the flags,
reads them at its end (with :data:`MASK`) and returns them; :func:`report` then raises,
warns or calls as the caller's ``np.errstate`` says, so a large array's kernel reports
what a small array's ufunc does.  The twins (:mod:`._twins`) report through it too, which
is why this module imports no Numba.  The flags' values are the C library's, per
architecture; elsewhere (Windows' C library among them) the mask is 0 and nothing is read.
"""
import platform
import warnings

import numpy as np

# NumPy's names of the errors, in the order it reports them -> (errstate key, FPE flag)
_ERRORS = {"divide by zero": ("divide", 1), "overflow": ("over", 2),
           "underflow": ("under", 4), "invalid value": ("invalid", 8)}
_FE = {"x86_64": {4: "divide by zero", 8: "overflow", 16: "underflow", 1: "invalid value"},
       "aarch64": {2: "divide by zero", 4: "overflow", 8: "underflow", 1: "invalid value"}}
_FE["arm64"] = _FE["aarch64"]  # (macOS's name; its C library's values are these)
FLAGS = _FE.get(platform.machine(), {})  # C's FE_* bit -> NumPy's name of the error
MASK = sum(FLAGS)


def kinds(flags):
    """NumPy's names of the errors in ``flags`` (C's FE_* bits, as a loop read them)."""
    return {kind for bit, kind in FLAGS.items() if flags & bit}


def report(errors, display):
    """Report the floating-point errors named in ``errors`` ("divide by zero",
    "overflow", "underflow", "invalid value") as NumPy reports a ufunc's named
    ``display``: once per kind, in NumPy's order, under the caller's ``np.errstate``
    (warn, raise, call, print, log, ignore).

    >>> import numpy as np
    >>> with np.errstate(divide="raise"):
    ...     report({"divide by zero"}, "a kernel")
    Traceback (most recent call last):
    FloatingPointError: divide by zero encountered in a kernel
    """
    modes = np.geterr()
    for kind, (key, flag) in _ERRORS.items():
        if kind not in errors:
            continue
        mode = modes[key]
        message = f"{kind} encountered in {display}"
        if mode == "ignore":
            continue
        if mode == "raise":
            raise FloatingPointError(message)
        if mode == "call":
            np.geterrcall()(kind, flag)
        elif mode == "log":
            np.geterrcall().write(f"Warning: {message}\n")
        elif mode == "print":
            print(f"Warning: {message}")
        else:
            warnings.warn(message, RuntimeWarning, stacklevel=4)
