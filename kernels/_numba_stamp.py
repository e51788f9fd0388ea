"""Numba's on-disk cache of the kernels, invalidated by a change to any kernel file.

Numba keys a cached function by its own file's timestamp and size; a function that
inlines another module's (``_loops`` sums with ``_pairwise``, takes ``exp`` from
``vmath``) keeps its stale machine code after only that other module changed (a
``git pull`` or an edit in a checkout: wrong values, no error).  :func:`install` puts
a digest of every kernel file into the stamp of the functions defined in this package
(and in the files named to it), so that any change recompiles them.  Numba's cache
classes are private: a Numba that lays them out otherwise keeps its own stamps.
"""
import functools
import hashlib
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_extra = set()  # files outside this package whose functions take the stamp


@functools.cache
def kernels_digest():
    """A digest of the text of every ``.py`` file of this package.

    >>> len(kernels_digest())
    16
    """
    digest = hashlib.sha256()
    for folder, _, files in sorted(os.walk(_HERE)):
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, _HERE).encode() + b"\0")
                with open(path, "rb") as f:
                    digest.update(f.read())
    return digest.hexdigest()[:16]


def _covered(path):
    path = os.path.abspath(path)
    return path.startswith(_HERE + os.sep) or path in _extra


class _Stamped:
    """A locator of Numba's (the class it is mixed into) for covered files only, whose
    stamp also holds :func:`kernels_digest`."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _covered(py_file):
            return None
        return super().from_function(py_func, py_file)

    def get_source_stamp(self):
        return (super().get_source_stamp(), kernels_digest())


@functools.cache
def _register():
    try:
        from numba.core import caching
        bases = [caching.UserProvidedCacheLocator, caching.InTreeCacheLocator,
                 caching.UserWideCacheLocator]
        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
        classes = impl._locator_classes
    except (ImportError, AttributeError):
        return False
    # (before Numba's own, in Numba's order: a cache folder set by the user first)
    classes[:0] = [type("Stamped" + base.__name__, (_Stamped, base), {"__module__": __name__})
                   for base in bases]
    return True


def install(*files):
    """Stamp the cached functions of this package, and of ``files``, from now on:
    called by each module that defines cached functions, before it defines them.
    True where Numba's cache classes could take the stamp."""
    _extra.update(os.path.abspath(f) for f in files)
    return _register()
