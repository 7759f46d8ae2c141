"""Which claims rest on timings: their verdicts can turn between two runs of the same code.

A timing claim compares CPU seconds of methods measured side by side (:mod:`inferopt._clock`);
the load of the machine moves those seconds, so a comparison within the noise turns from run to
run (A4.3 at the default scale: ``fails`` in one run, ``holds`` in the next, each with 100 %
bootstrap support over trials — resampling trials does not see the run-to-run variation). The
claims of :data:`ROUNDS` rest on repeated rounds of the same seeded runs instead (each method's
least time over the rounds, the support a bootstrap over rounds:
:mod:`inferopt.experiment.timing`), so their support covers that variation; the others rest on
one run; those of :data:`SEEDS` on independent seeds of every randomised method, their support a bootstrap
over seeds (the clock's own noise is reported beside them, issue 41). ``claims-diff`` and the front page mark the
kinds (:func:`timing_note`). Each notebook
names its timing claims where it leaves them out of nbval's comparison; a test keeps this list
in step with those notes and with the committed metrics.
"""

from __future__ import annotations

#: claims decided by comparing measured times (variants such as ``A4.3-authors`` follow their base id)
TIMING_CLAIMS = frozenset({
    "A4.3", "A4.4", "A4.5", "A5.3", "A5.4", "A5.5", "A6.1", "A6.2", "A6.3", "A8.2",
    "C2.2", "C2.3", "C2.4", "C2.8", "C3.4", "C3.5", "C3.6",
    "D3.1", "D3.2", "D3.3", "D3.4", "D5.1", "D5.3", "D5.4",
})
#: the timing claims whose support is a bootstrap over repeated timing rounds
ROUNDS = frozenset()
#: the timing claims whose support is a bootstrap over independent seeds of the randomised methods
SEEDS = frozenset({"D3.1", "D3.2", "D3.3", "D3.4", "D5.1", "D5.3", "D5.4"})


def base_id(claim_id: str) -> str:
    """``A3.1`` for ``A3.1-authors``: the claim a variant id belongs to."""
    return claim_id.split("-", 1)[0]


def timing_note(claim_id: str) -> str:
    """``""`` for a claim that does not rest on timings, else ``timing, one run``, ``timing, over seeds`` or
    ``timing, repeated rounds``."""
    base = base_id(claim_id)
    if base not in TIMING_CLAIMS:
        return ""
    if base in ROUNDS:
        return "timing, repeated rounds"
    return "timing, over seeds" if base in SEEDS else "timing, one run"
