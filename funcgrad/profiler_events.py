"""What :mod:`funcgrad.profiler` records: events, their averages and the table printed of them.

An event holds nanosecond stamps; times read in microseconds, as PyTorch's profiler
reports them.
"""


class FunctionEvent:
    """One range: a primitive (``kind="forward"``), a backward rule (``"backward"``)
    or a :class:`record_function` block (``"user_annotation"``).  Times in microseconds
    from the start of the profile.

    >>> import numpy as np, funcgrad as fg
    >>> with fg.profiler.profile() as prof:
    ...     g = fg.grad(lambda x: np.sum(np.sin(x)))(np.ones(3))
    >>> event = prof.events()[0]
    >>> event.name, event.kind
    ('sin', 'forward')
    """

    __slots__ = ("name", "kind", "start_ns", "end_ns", "child_ns", "input_shapes", "nbytes",
                 "child_bytes", "seq", "stack", "load_ns")

    def __init__(self, name, kind, seq):
        self.name = name
        self.kind = kind
        self.seq = seq
        self.child_ns = 0
        self.load_ns = 0  # kernel loading it waited for: its own row, not this one's time
        self.nbytes = 0
        self.child_bytes = 0
        self.input_shapes = None
        self.stack = None
        self.start_ns = self.end_ns = 0

    @property
    def cpu_time_total(self):
        return (self.end_ns - self.start_ns - self.load_ns) / 1e3

    @property
    def self_cpu_time_total(self):
        return (self.end_ns - self.start_ns - self.child_ns - self.load_ns) / 1e3

    @property
    def cpu_memory_usage(self):
        return self.nbytes

    @property
    def self_cpu_memory_usage(self):
        return max(self.nbytes - self.child_bytes, 0)

    def __repr__(self):
        return (f"<FunctionEvent {self.name} ({self.kind}) seq={self.seq} "
                f"total={_format_time(self.cpu_time_total)}>")


class FunctionEventAvg:
    """The events of one key (name, and shapes/stack when grouped by them), summed.

    >>> import numpy as np, funcgrad as fg
    >>> with fg.profiler.profile() as prof:
    ...     for _ in range(2):
    ...         g = fg.grad(lambda x: np.sum(np.sin(x)))(np.ones(3))
    >>> [(e.key, e.count) for e in prof.key_averages() if e.key == "sin"]
    [('sin', 2)]
    """

    def __init__(self, key, kind, input_shapes=None, stack=None):
        self.key = key
        self.kind = kind
        self.input_shapes = input_shapes
        self.stack = stack
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0

    def add(self, event):
        self.count += 1
        self.cpu_time_total += event.cpu_time_total
        self.self_cpu_time_total += event.self_cpu_time_total
        self.cpu_memory_usage += event.cpu_memory_usage
        self.self_cpu_memory_usage += event.self_cpu_memory_usage

    @property
    def cpu_time(self):
        return self.cpu_time_total / self.count if self.count else 0.0

    @property
    def self_cpu_time(self):
        return self.self_cpu_time_total / self.count if self.count else 0.0

    def __repr__(self):
        return (f"<FunctionEventAvg {self.key} count={self.count} "
                f"self={_format_time(self.self_cpu_time_total)} "
                f"total={_format_time(self.cpu_time_total)}>")


_SORT_KEYS = ("self_cpu_time_total", "cpu_time_total", "self_cpu_time", "cpu_time", "count",
              "cpu_memory_usage", "self_cpu_memory_usage")


def _format_time(us):
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


def _format_memory(nbytes):
    for unit, size in (("Gb", 1 << 30), ("Mb", 1 << 20), ("Kb", 1 << 10)):
        if abs(nbytes) >= size:
            return f"{nbytes / size:.2f} {unit}"
    return f"{nbytes} b"


class EventList(list):
    """A list of :class:`FunctionEvent` or :class:`FunctionEventAvg` with :meth:`table`.

    >>> import numpy as np, funcgrad as fg
    >>> with fg.profiler.profile() as prof:
    ...     y = np.sin(fg.tensor([1.0, 2.0], requires_grad=True))
    >>> events = prof.key_averages()
    >>> type(events).__name__, events[0].key
    ('EventList', 'sin')
    """

    def __init__(self, items=(), profile_memory=False, record_shapes=False, with_stack=False):
        super().__init__(items)
        self._profile_memory = profile_memory
        self._record_shapes = record_shapes
        self._with_stack = with_stack

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def table(self, sort_by=None, row_limit=100, max_name_column_width=55,
              max_shapes_column_width=80, header=None):
        """The events as a text table, like PyTorch's.

        ``sort_by``: one of ``self_cpu_time_total`` (the default, usually what you
        want), ``cpu_time_total``, ``self_cpu_time``, ``cpu_time``, ``count``,
        ``cpu_memory_usage``, ``self_cpu_memory_usage``, or None for the order in
        which the operations first ran; descending.  ``row_limit`` rows at most
        (``-1``: all).
        """
        rows = list(self)
        if sort_by is not None:
            if sort_by not in _SORT_KEYS:
                raise ValueError(f"table(sort_by={sort_by!r}) is not a column this profiler "
                                 f"records; use one of {', '.join(_SORT_KEYS)}")
            rows.sort(key=lambda e: getattr(e, sort_by), reverse=True)
        if row_limit is not None and row_limit >= 0:
            rows = rows[:row_limit]
        total_self = self.self_cpu_time_total or 1e-12
        show_shapes = any(getattr(e, "input_shapes", None) for e in rows)
        show_stack = any(getattr(e, "stack", None) for e in rows)
        names = [str(getattr(e, "key", getattr(e, "name", ""))) for e in rows]
        name_w = min(max([len(n) for n in names] + [4]), max_name_column_width)
        cols = [("Name", name_w)] + [(h, 12) for h in (
            "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg")]
        if self._profile_memory:
            cols += [("CPU Mem", 12), ("Self CPU Mem", 12)]
        cols.append(("# of Calls", 12))
        if show_shapes:
            width = max(len(str(getattr(e, "input_shapes", None) or [])) for e in rows)
            cols.append(("Input Shapes", min(max(width, 12), max_shapes_column_width)))
        if show_stack:
            cols.append(("Source Location", 60))
        rule = "  ".join("-" * w for _, w in cols)

        def fmt(values):
            parts = []
            for k, ((_, w), v) in enumerate(zip(cols, values)):
                v = v if len(v) <= w else v[:w - 3] + "..."
                parts.append(v.ljust(w) if k == 0 or w > 12 else v.rjust(w))
            return "  ".join(parts).rstrip()

        lines = [header] if header else []
        lines += [rule, fmt([h for h, _ in cols]), rule]
        for name, e in zip(names, rows):
            count = getattr(e, "count", 1)
            avg = e.cpu_time_total / count if count else 0.0
            values = [name, f"{100 * e.self_cpu_time_total / total_self:.2f}%",
                      _format_time(e.self_cpu_time_total),
                      f"{100 * e.cpu_time_total / total_self:.2f}%",
                      _format_time(e.cpu_time_total), _format_time(avg)]
            if self._profile_memory:
                values += [_format_memory(e.cpu_memory_usage),
                           _format_memory(e.self_cpu_memory_usage)]
            values.append(str(count))
            if show_shapes:
                values.append(str(e.input_shapes or []))
            if show_stack:
                values.append((e.stack or [""])[0])
            lines.append(fmt(values))
        lines.append(rule)
        lines.append(f"Self CPU time total: {_format_time(self.self_cpu_time_total)}")
        return "\n".join(lines)

    def __str__(self):
        return self.table()
