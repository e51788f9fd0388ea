"""``fg.autograd.function``: PyTorch's ``torch.autograd.function`` names (the same objects
as ``fg.Function``).

>>> import funcgrad as fg
>>> fg.autograd.function.Function is fg.Function
True
"""
from ..custom import Function, FunctionCtx, once_differentiable

__all__ = ["Function", "FunctionCtx", "once_differentiable"]
