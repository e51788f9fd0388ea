"""The text of a generated module: fresh names, one ``@njit`` function being written, and
the small pieces of source (shapes, literals, casts) every part of the lowering writes.
"""
import itertools

from ..primitives.scalar import literal
from .elementwise import Writer

__all__ = ["Names", "Function", "shape_text", "cast", "literal"]


class Names:
    """Fresh names for one generated module, and its writer of elementwise code (which
    collects the helper functions the module defines)."""

    def __init__(self, vector_math):
        self.counter = itertools.count()
        self.writer = Writer(vector_math)

    def fresh(self, prefix="v"):
        """A name not used before in this module: ``prefix`` and a number."""
        return f"{prefix}{next(self.counter)}"


class Function:
    """One ``@njit`` kernel being written: its lines, and the constants it reads."""

    def __init__(self, names, consts):
        self.names = names
        self.consts = consts  # id(array) -> parameter name (shared by the module)
        self.lines = []
        self.parallel = False
        self.used_consts = {}

    def emit(self, indent, text):
        """Append the line ``text`` at ``indent`` levels."""
        self.lines.append("    " * indent + text)

    def const(self, array):
        """The parameter name of a constant array (which becomes a parameter)."""
        name = self.consts[id(array)]
        self.used_consts[name] = array
        return name


def shape_text(shape):
    """A shape as a tuple literal: ``(3,)``, ``(2, 4)``, ``()``."""
    return "(" + "".join(f"{d}, " for d in shape).rstrip(" ") + ")"


def cast(expr, src, dst):
    """``expr`` (of dtype ``src``) converted to ``dst``; ``dst`` None: as it is."""
    if dst is None or src == dst:
        return expr
    if dst.kind == "b":
        return f"({expr} != 0)"
    return f"np.{dst.name}({expr})"
