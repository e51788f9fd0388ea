"""One jitted function per process however often it arrives pickled.

A jitted function sent to another process (a Dask task, ``multiprocessing``) travels as
its recipe: the user's function and the static arguments, never the traced graphs or the
compiled kernels.  A Dask worker unpickles the function again for every task (and for
every step of an optimisation loop that ships it anew); if each copy started with empty
caches, each would trace and compile again.  So the receiving process keeps the
``JitFunction`` it built for a recipe and hands the same object back when the same recipe
arrives again: it traces and compiles once per process and signature.

The key is a digest of the recipe's pickled bytes, which include the values the function
closes over (a closure's arrays, a lambda's globals, pickled by value): a function whose
captured values changed pickles to other bytes and gets a fresh ``JitFunction``, never the
compiled code of the old values.  Functions pickled by reference (importable ones) key on
their names, and each process reads its own module state, which ``jit`` watches there as
it does anywhere.  Bytes that differ for equal recipes only cost a compilation; so that a function passed on
from one worker to another (whose pickle of the rebuilt function differs in bytes from the
original's) keeps its identity, a rebuilt function travels on with the key it came with,
as long as the arrays it reaches hold the values they had when it arrived.
"""
import collections
import hashlib
import pickle
import sys
import threading

__all__ = ["recipe_key", "arrays_digest", "shared"]

# This process's jitted functions, by recipe key: a bounded cache (least recently used
# first out), like the kernels' caches the only process-wide state jit keeps.
_MAX_SHARED = 128
_shared: collections.OrderedDict = collections.OrderedDict()
_lock = threading.Lock()


def recipe_key(recipe):
    """A digest of ``recipe``'s pickled bytes (with cloudpickle when the process has it,
    as Dask's does), or None when it cannot be pickled here."""
    dumps = getattr(sys.modules.get("cloudpickle"), "dumps", pickle.dumps)
    try:
        data = dumps(recipe, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # the outer pickler reports its own error on the same function
        return None
    return hashlib.sha256(data).hexdigest()


def arrays_digest(arrays):
    """A digest of the arrays' shapes, dtypes and contents."""
    h = hashlib.sha256()
    for a in arrays:
        h.update(repr((a.shape, a.dtype.str)).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def shared(key, make):
    """The object this process holds for ``key``, made by ``make()`` on first sight
    (every time when ``key`` is None)."""
    if key is None:
        return make()
    with _lock:
        obj = _shared.get(key)
        if obj is None:
            obj = _shared[key] = make()
            while len(_shared) > _MAX_SHARED:
                _shared.popitem(last=False)
        else:
            _shared.move_to_end(key)
        return obj
