"""``fg.autograd.graph``: PyTorch's ``torch.autograd.graph`` names -- saved-value hooks
(the same objects as ``fg.graph.*``) and the graph's node class.

>>> import funcgrad as fg
>>> fg.autograd.graph.saved_tensors_hooks is fg.graph.saved_tensors_hooks
True
"""
from ..eager import Node
from ..graph import disable_saved_tensors_hooks, save_on_cpu, saved_tensors_hooks

__all__ = ["saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks", "Node"]
