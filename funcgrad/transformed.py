"""What the function-making transforms (``grad``, ``vmap``, ``jacrev``...) return.

A transform's result used to be a closure.  Python's ``pickle`` stores every function by
its importable name, so a closure cannot be pickled, and shipping a transformed function
to another process (``multiprocessing``, Dask workers) failed.  A :class:`Transformed`
calls like the closure and is named like the user's function, but pickles as the recipe
"apply this transform, with these options, to this function": the receiving process
rebuilds it from the user's function, which travels by name (plain ``pickle``, for an
importable function) or by value (``cloudpickle``, for a lambda or a closure).
"""
import functools
import types

__all__ = ["Transformed"]


class Transformed:
    """A transformed function: ``Transformed(call, transform, fun, options)`` calls
    ``call`` and pickles as ``transform(fun, **options)``.

    >>> import pickle, numpy as np, funcgrad as fg
    >>> g = pickle.loads(pickle.dumps(fg.grad(np.sin)))
    >>> float(g(0.0))
    1.0
    """

    def __init__(self, call, transform, fun, options):
        # Named and documented like `fun` (functools.wraps' attributes, __wrapped__ too,
        # so inspect.signature sees the user's parameters); then our own state.
        functools.update_wrapper(self, fun)
        self._transform_call = call
        self._transform = transform
        self._transform_options = options

    def __call__(self, *args, **kwargs):
        return self._transform_call(*args, **kwargs)

    def __get__(self, obj, objtype=None):
        # As a class attribute it binds like the function it stands for.
        return self if obj is None else types.MethodType(self, obj)

    def __reduce__(self):
        return (_rebuild, (self._transform, self.__wrapped__, self._transform_options))

    def __repr__(self):
        name = getattr(self.__wrapped__, "__qualname__", None) or repr(self.__wrapped__)
        return f"<function {self._transform.__name__}({name})>"


def _rebuild(transform, fun, options):
    return transform(fun, **options)
