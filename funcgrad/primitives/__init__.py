"""All primitives, one module per family.  Importing this registers them in
:data:`funcgrad.core.REGISTRY`."""
from . import (structural, elementwise, special, incomplete, special_scipy,  # noqa: F401
               special_scipy_more, special_scipy_extra, smirnov,
               reductions, linalg, indexing, decompositions, eig, pinv)
from . import special_scipy_kelvin, special_scipy_rest  # noqa: F401
from . import special_scipy_spheroidal  # noqa: F401
from ..core import REGISTRY

__all__ = ["REGISTRY"]
