"""``python -m funcgrad.warmup``: compile funcgrad's CPU kernels into the disk cache now.

Run it once after installing (``make demo`` does): the first process to use a kernel
then loads it in milliseconds instead of compiling it (~1 s each, minutes for all).
Even without it nothing waits: kernels load on a background thread while the first
calls compute with their NumPy twins (``fg.kernels_config.set_kernel_loading``).

    python -m funcgrad.warmup [--dtypes float64 float32] [--quiet]

The progress bar is a few lines here rather than tqdm: a dependency for one bar is not
worth it, and it must work in a plain terminal, in ``make``'s output and in CI logs
(there, without a terminal, one line per stage).

Importing this module keeps ``funcgrad.warmup`` callable (it is also the function
``fg.warmup``, which an imported submodule of the same name would otherwise hide).
"""
import argparse
import sys
import time
import types
from typing import Callable, Sequence

from .typing import DTypeLike

__all__ = ["main"]


class _Bar:
    """``stage  [#####.....]  done/total  seconds`` on one line of ``stream``."""

    def __init__(self, stream, width=30):
        self.stream, self.width = stream, width
        self.tty = hasattr(stream, "isatty") and stream.isatty()
        self.stage, self.start, self.shown = None, time.perf_counter(), -1.0

    def __call__(self, stage, done, total):
        now = time.perf_counter()
        if stage != self.stage:
            self.stage, self.stage_start = stage, now
        final = done >= total
        if self.tty and (final or now - self.shown > 0.1):
            filled = self.width * done // max(total, 1)
            self.stream.write(f"\r{stage:9s} [{'#' * filled}{'.' * (self.width - filled)}] "
                              f"{done}/{total}  {now - self.stage_start:.1f} s")
            if final:
                self.stream.write("\n")
            self.stream.flush()
            self.shown = now
        elif not self.tty and final:
            self.stream.write(f"{stage}: {total}/{total} in {now - self.stage_start:.1f} s\n")
            self.stream.flush()


def main(argv=None):
    """Fill the kernel cache, with a progress bar on stderr; returns the exit status.

    >>> from funcgrad.warmup import main
    >>> main(["--dtypes", "float64", "--quiet"])  # doctest: +SKIP
    0
    """
    p = argparse.ArgumentParser(prog="python -m funcgrad.warmup",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--dtypes", nargs="+", default=["float64", "float32"],
                   choices=["float64", "float32"])
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    from .kernels._source import cache_dir
    from .kernels_config import warmup
    bar = None if args.quiet else _Bar(sys.stderr)
    seconds = warmup(dtypes=tuple(args.dtypes), progress=bar)
    if not args.quiet:
        print(f"funcgrad kernels ready in {seconds:.1f} s (cache: {cache_dir('cpu')} and "
              f"Numba's __pycache__ folders)", file=sys.stderr)
    return 0


class _CallableModule(types.ModuleType):
    """``funcgrad.warmup`` is both this module and :func:`funcgrad.kernels_config.warmup`
    (``fg.warmup()`` keeps working once ``python -m funcgrad.warmup``'s module is loaded)."""

    def __call__(self, dtypes: Sequence[DTypeLike] = ("float64", "float32"),
                 parallel: bool | None = None,
                 progress: Callable[[str, int, int], object] | None = None) -> float:
        from .kernels_config import warmup
        return warmup(dtypes, parallel, progress)


if __name__ != "__main__":
    sys.modules[__name__].__class__ = _CallableModule

if __name__ == "__main__":
    sys.exit(main())
