"""Linear rules that the elementwise VJPs recognise by identity and compute without a call
(:mod:`._elementwise`): a call of a one-line function costs about as much as the
arithmetic it runs on small arrays.  Each is still a rule like any other, which the
fused kernels, ``jit`` and forward mode capture and call.
"""

__all__ = ["identity", "negated", "times_second", "times_first"]


def identity(g, *args, **params):
    """The linear rule of an argument the output follows with slope one (``add``'s, the
    first of ``subtract``): ``g`` itself, which the VJP passes on without calling it.

    >>> identity(2.0, 5.0, 7.0)
    2.0
    """
    return g


def negated(g, *args, **params):
    """The linear rule of an argument the output follows with slope minus one (the second
    of ``subtract``): ``-g``, which the two-argument VJP computes without calling it.

    >>> negated(2.0, 5.0, 7.0)
    -2.0
    """
    return -g


def times_second(g, x, y, out):
    """The linear rule of the first factor of a product (``multiply``'s): ``g`` times the
    second, which the two-argument VJP computes without calling it.

    >>> times_second(2.0, 5.0, 7.0, 35.0)
    14.0
    """
    return g * y


def times_first(g, x, y, out):
    """The linear rule of the second factor of a product: ``g`` times the first (see
    :func:`times_second`).

    >>> times_first(2.0, 5.0, 7.0, 35.0)
    10.0
    """
    return g * x
