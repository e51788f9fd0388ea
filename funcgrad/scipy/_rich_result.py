"""``RichResult``: a result as SciPy's newer functions return it, a dict whose keys are also
attributes (``res.x`` and ``res["x"]``)."""

__all__ = ["RichResult"]


class RichResult(dict):
    """A dict whose keys are also attributes, shown one field a line.

    >>> r = RichResult(x=1.0, success=True)
    >>> r.x, r["success"]
    (1.0, True)
    """

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self):
        return "\n".join(f"{k:>8}: {v!r}" for k, v in self.items())
