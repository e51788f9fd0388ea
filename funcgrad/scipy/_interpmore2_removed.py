"""``interp2d``, removed from SciPy in 1.14: constructing one raises, as SciPy's does,
naming the replacements."""
from typing import Any

__all__ = ["interp2d"]

_REMOVED = """`interp2d` has been removed in SciPy 1.14.0 (and is not in funcgrad either).

For legacy code, nearly bug-for-bug compatible replacements are
`RectBivariateSpline` on regular grids, and `bisplrep`/`bisplev` for
scattered 2D data.

In new code, for regular grids use `RegularGridInterpolator` instead.
For scattered data, prefer `LinearNDInterpolator` or
`CloughTocher2DInterpolator`.

For more details see
https://scipy.github.io/devdocs/tutorial/interpolate/interp_transition_guide.html
"""


class interp2d:
    """Removed from SciPy in 1.14.0 (``scipy.interpolate.interp2d``): constructing one
    raises ``NotImplementedError`` naming the replacements (``RectBivariateSpline`` or
    ``RegularGridInterpolator`` on grids; ``bisplrep``/``bisplev``,
    ``LinearNDInterpolator`` or ``CloughTocher2DInterpolator`` for scattered data).

    >>> import funcgrad.scipy.interpolate as fi
    >>> fi.interp2d([0.0, 1.0], [0.0, 1.0], [[0.0, 1.0], [1.0, 2.0]])
    Traceback (most recent call last):
    ...
    NotImplementedError: `interp2d` has been removed in SciPy 1.14.0 ...
    """

    def __init__(self, x: Any, y: Any, z: Any, kind: str = "linear", copy: bool = True,
                 bounds_error: bool = False, fill_value: Any = None) -> None:
        raise NotImplementedError(_REMOVED)
