"""The one clock of the library's timings: CPU seconds of this process.

Every solver's ``times``, ``seconds`` and ``time_*`` are differences of :func:`clock`,
i.e. :func:`time.process_time`: the compute a method spent, which other processes on a loaded
machine do not inflate (wall time there mostly measures the other users; issue 14). With
one BLAS thread per process -- the pipeline's setting, and each worker's under
:func:`~inferopt.experiment.parallel.run_tasks` -- CPU time of a single-threaded computation
equals its unloaded wall time; with several BLAS threads it is their sum.
"""

from __future__ import annotations

import time

#: what the timing claims state as their method
CLOCK = "CPU seconds of the process (time.process_time), one BLAS thread"


def clock() -> float:
    """CPU seconds of this process (a point on the library's one clock)."""
    return time.process_time()
