"""Long calls say so (issue 29): the loop of a long-running entry point (herding, the spectral
optimisers, coreset paths) reports to a :class:`Progress`, which draws a ``tqdm`` bar when the
caller asked for ``progress=True`` and, either way, warns once (:class:`LongCallWarning`) as soon
as the time spent so far projects the whole call beyond :data:`LONG_SECONDS`. The projection is
linear in the steps done: ``elapsed / done * total``, first made after :data:`FIRST_LOOK` seconds.
Nothing here touches a random stream or the results.

A call projected beyond :data:`NEVER_SECONDS` cannot finish in any use of this project: when the
caller names the argument that sets its length (``size``), :class:`Progress` refuses it there with a
``ValueError`` instead of running on (issue 47: ``herd(n_points=2**62)`` had no end in sight).
"""

from __future__ import annotations

import time
import warnings

from ._validation import check_flag

#: a call projected to run longer than this (wall-clock seconds) is announced
LONG_SECONDS = 60.0
#: seconds of running before the first projection (short calls never pay for a warning)
FIRST_LOOK = 0.5
#: a call projected to run longer than this (a year) cannot finish: refused by its size argument
NEVER_SECONDS = 365 * 24 * 3600.0


class LongCallWarning(UserWarning):
    """A call is projected to run for minutes."""


class Progress:
    """Step counter of one call: ``what`` (e.g. ``"herd"``), ``total`` steps, ``progress`` (a flag:
    draw a bar). ``update(n)`` after ``n`` steps; ``close()`` at the end. ``size``: the argument(s)
    that set ``total`` (e.g. ``"n_points"``), named when the call is refused (:data:`NEVER_SECONDS`).
    ``seconds``: a time budget that stops the call sooner (its projection is then at most that)."""

    def __init__(self, what: str, total: int, progress, *, unit: str = "it", size: str | None = None,
                 seconds: float | None = None):
        self.progress = check_flag("progress", progress)
        self.what, self.total, self.done, self.size = what, int(total), 0, size
        self.seconds = seconds
        self._t0 = time.perf_counter()
        self._warned = False
        self._bar = None
        if self.progress:
            from tqdm.auto import tqdm

            self._bar = tqdm(total=self.total, desc=what, unit=unit, leave=False)

    def update(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)
        if self._warned or self.done >= self.total:
            return
        elapsed = time.perf_counter() - self._t0
        if elapsed < FIRST_LOOK:
            return
        projected = elapsed / self.done * self.total
        if self.seconds is not None:
            projected = min(projected, self.seconds)
        if projected > NEVER_SECONDS and self.size is not None:
            self.close()
            in_a_year = int(self.done / elapsed * NEVER_SECONDS)
            raise ValueError(f"{self.size} asks {self.what} for {self.total} steps: {self.done} took {elapsed:.1f} s, "
                             f"so the call would take about {projected / NEVER_SECONDS:.3g} years; it cannot finish "
                             f"(allowed: sizes that finish within a year, about {in_a_year} steps here)")
        if projected > LONG_SECONDS:
            self._warned = True
            hint = "" if self.progress else "; pass progress=True for a progress bar"
            warnings.warn(f"{self.what} will take long: {self.done} of {self.total} steps took {elapsed:.1f} s, "
                          f"so the whole call is projected to take about {projected / 60:.1f} min{hint}",
                          LongCallWarning, stacklevel=3)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
