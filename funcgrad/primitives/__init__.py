"""All primitives, one module per family.  Importing this registers them in
:data:`funcgrad.core.REGISTRY`."""
from . import (structural, elementwise, special, reductions, linalg, indexing,  # noqa: F401
               decompositions, eig)
from ..core import REGISTRY

__all__ = ["REGISTRY"]
