"""Implementations of primitives on other devices, registered by the modules that
declare the primitives.

A primitive that only evaluates other primitives (``custom_call`` runs the user's rule,
``cond``/``scan``/``while_loop``/``jit_call`` evaluate graphs) works on any array type;
on a GPU its implementation is that evaluation, and its module registers it here, by the
primitive object.  The GPU tier (``funcgrad.gpu``) reads this table, so the modules that
declare primitives never import the GPU tier and nothing imports in a circle.
"""

__all__ = ["GPU", "register_gpu"]

GPU: dict = {}
"""Primitive -> its implementation on GPU arrays (for primitives the GPU tier does not
implement itself)."""


def register_gpu(impls):
    """Add ``{primitive: impl}`` to the GPU table (``impl(*args, **params)``).

    >>> from funcgrad import devices
    >>> "cond" in {p.name for p in devices.GPU}
    True
    """
    GPU.update(impls)
