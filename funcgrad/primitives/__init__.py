"""All primitives, one module per family.  Importing this registers them in
:data:`funcgrad.core.REGISTRY`."""
from . import (structural, elementwise, special, special_scipy, special_scipy_more,  # noqa: F401
               reductions, linalg, indexing, decompositions, eig, pinv)
from ..core import REGISTRY

__all__ = ["REGISTRY"]
