"""The digest of what generated kernels depend on besides their own text, part of every
cached kernel's name (the Numba-compiled modules', :mod:`.cache`, and the IR kernels'
object code, :mod:`.irkernelcall`), so that a kernel compiled by another version is
never loaded."""
import functools
import hashlib
import os

import numpy as np

__all__ = ["runtime_files", "runtime_tag"]


def runtime_files():
    """The files whose text generated kernels depend on besides their own: the runtime
    they call (and the modules it takes functions from), the IR loop writers and the
    vector maths."""
    from ..kernels.cpu import _pairwise, leaves, vbodies, vmath
    here = os.path.dirname(os.path.abspath(__file__))
    return [os.path.join(here, "runtime.py"), os.path.join(here, "irloop.py"),
            os.path.join(here, "irwrite.py"), leaves.__file__, vmath.__file__,
            vbodies.__file__, _pairwise.__file__]


@functools.cache
def runtime_tag():
    """A digest of the :func:`runtime_files` and Numba's and NumPy's versions.

    >>> len(runtime_tag())
    16
    """
    import numba  # (imported on the first compilation, never by `import funcgrad`)
    text = b""
    for path in runtime_files():
        with open(path, "rb") as f:
            text += f.read()
    return hashlib.sha256(text + numba.__version__.encode() + np.__version__.encode()
                          ).hexdigest()[:16]
