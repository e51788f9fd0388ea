"""``funcgrad.nn``: ``jax.nn``'s functions, with its names, signatures and numerics.

Activations (``relu``, ``gelu``, ``silu``...), ``softmax``/``log_softmax``/``logsumexp``
with ``where=`` masks, ``standardize``, ``one_hot``, and :mod:`funcgrad.nn.initializers`
(JAX's weight initialisers, drawing from a NumPy ``np.random.Generator``).  Everything
is written with ``funcgrad.numpy``, so every transform differentiates it; derivatives
are JAX's where JAX chooses one (``relu'(0) = 0``; ``softplus``, ``log_sigmoid`` and
``logsumexp`` exact for inputs of any size).

>>> import numpy as np, funcgrad as fg, funcgrad.nn as nn
>>> nn.relu(np.array([-1.0, 2.0]))
array([0., 2.])
>>> fg.grad(lambda x: nn.log_softmax(x)[1])(np.array([0.0, 0.0]))
array([-0.5,  0.5])

Modules: ``_activations`` (elementwise), ``_reductions`` (functions of whole axes),
``_attention`` (``dot_product_attention``), ``initializers``.
"""
from . import initializers
from ._activations import (celu, elu, gelu, glu, hard_sigmoid, hard_silu, hard_swish,
                           hard_tanh, identity, leaky_relu, log1mexp, log_sigmoid, mish, relu,
                           relu6, selu, sigmoid, silu, soft_sign, softplus, sparse_plus,
                           sparse_sigmoid, squareplus, swish, tanh)
from ._attention import dot_product_attention
from ._reductions import log_softmax, logmeanexp, logsumexp, one_hot, softmax, standardize

__all__ = ["relu", "relu6", "sigmoid", "log_sigmoid", "softplus", "soft_sign", "silu",
           "swish", "mish", "gelu", "elu", "celu", "selu", "leaky_relu", "hard_tanh",
           "hard_sigmoid", "hard_silu", "hard_swish", "glu", "sparse_plus", "sparse_sigmoid",
           "squareplus", "log1mexp", "identity", "tanh", "softmax", "log_softmax",
           "logsumexp", "logmeanexp", "standardize", "one_hot", "dot_product_attention",
           "initializers"]
