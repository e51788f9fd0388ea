"""``funcgrad.scipy.cluster``: ``vq.vq``, SciPy's vector quantization (as
``jax.scipy.cluster``), and ``vq.whiten``, ``vq.kmeans``, ``vq.kmeans2`` (SciPy's clusters,
the centroids differentiable as the means of their points); ``hierarchy``, SciPy's
hierarchical clustering with differentiable merge heights.

>>> import numpy as np, funcgrad.scipy.cluster as fsc
>>> fsc.vq.vq(np.array([[0.1], [0.9]]), np.array([[0.0], [1.0]]))[0]
array([0, 1], dtype=int32)
"""
from . import hierarchy, vq  # noqa: F401

__all__ = ["vq", "hierarchy"]
