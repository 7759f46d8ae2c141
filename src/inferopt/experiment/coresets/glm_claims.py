"""The claims of the GLM coreset experiments (A4 logistic, A5 Poisson regression).

The paper's sentence (Sec. 5.3, App. G): "The IHT algorithms often obtain coresets with smaller
KL [...] than GIGA and SparseVI, with computing time comparable to GIGA and significantly less
than SparseVI", and "SparseVI needs ×10^4 more time than IHT and GIGA", as four tests on the
table of trials (:func:`~.glm_trials.run_glm_trials`). Neither "often" nor "comparable" is a
number in the paper: each of those tests states its cut-off as ours with the verdict under a
range of readings (:func:`~inferopt.experiment.claims.readings`), so a verdict that turns within
them is ``inconclusive``. SparseVI's slowdown is the paper's number, ×10^4, read to the nearest
power of ten (at least 10^3.5); the readings beside it show where the measured ratio stands.
"""

from __future__ import annotations

import pandas as pd

from ..claims import check_statistic, readings
from .glm_trials import time_ratio, wins
from .plots import METHOD_LABELS

#: the IHT algorithms of the paper, and the two KLs the claims pool
IHT = ("a_iht", "a_iht_ii")
KLS = ("forward_kl", "reverse_kl")
#: readings of "often": the least fraction, over datasets, of (size, KL) cells won
OFTEN = (1 / 3, 1 / 2, 2 / 3)
#: readings of "comparable": every IHT algorithm's time within this factor of GIGA's
COMPARABLE = (3.0, 10.0, 30.0)
#: the paper's SparseVI slowdown ("SparseVI needs ×10^4 more time than IHT and GIGA", Sec. 5.3), and the least
#: ratio that reads as it to the nearest power of ten
PAPER_SLOWDOWN = 1e4
SLOWDOWN_CUT = 10**3.5
#: where the measured ratio stands: the verdict at these least ratios (one and two orders of magnitude below the paper's)
ORDERS = (100.0, 1000.0, SLOWDOWN_CUT)


def often_fraction(table: pd.DataFrame, ours, theirs, *, k_min: int) -> float:
    """The least, over datasets, fraction of cells (size ``k >= k_min``, forward or reverse KL)
    at which the best of ``ours`` has a lower median KL than the best of ``theirs``."""
    return check_statistic("fraction of cells won", wins(table, ours, theirs, k_min=k_min, metrics=KLS).mean(axis=1).min())


def time_factor(table: pd.DataFrame, methods, reference: str) -> float:
    """The largest, over datasets and ``methods``, factor between a method's median time and
    ``reference``'s at the largest size (``max(r, 1/r)``: slower or faster alike)."""
    r = pd.concat([time_ratio(table, m, reference) for m in methods])
    return check_statistic(f"time factor against {reference}", (r.where(r >= 1, 1 / r)).max())


def slowdown(table: pd.DataFrame, slow: str, methods) -> float:
    """The least, over datasets and ``methods``, ratio of ``slow``'s median time to a method's at
    the largest size."""
    return check_statistic(f"time of {slow} over IHT", pd.concat([time_ratio(table, slow, m) for m in methods]).min())


def record_glm_claims(exp, table: pd.DataFrame, *, k_min: int, sparsevi_steps: int, sparsevi_samples: int) -> None:
    """The four claims ``<id>.1``–``<id>.4`` of experiment ``exp`` (A4 or A5) on ``table``; each
    test reads its cut-off at the middle reading, with the verdict under every reading beside it."""
    cid = exp.id
    plain = wins(table, IHT, ["giga", "sparsevi"], k_min=k_min, metrics=KLS)
    refitted = wins(table, ["a_iht_ii_refit"], ["giga_refit", "frank_wolfe_refit"], k_min=k_min, metrics=KLS)
    for n, ours, theirs, won, what in [
        (1, IHT, ["giga", "sparsevi"], plain, "IHT (A-IHT or A-IHT II, as run) has lower KL than GIGA and SparseVI (as run, no re-fit)"),
        (2, ["a_iht_ii_refit"], ["giga_refit", "frank_wolfe_refit"], refitted,
         "With NNLS re-fits on both sides, A-IHT II + re-fit has lower KL than GIGA + re-fit and FW + re-fit"),
    ]:
        f = often_fraction(table, ours, theirs, k_min=k_min)
        sweep = [{"setting": {"sizes k >=": km, "cut": OFTEN[1]},
                  "verdict": "holds" if often_fraction(table, ours, theirs, k_min=km) >= OFTEN[1] else "fails"}
                 for km in sorted({1, k_min, int(table.k.max())})]
        rescue = [c["setting"]["sizes k >="] for c in sweep if c["verdict"] == "holds" and c["setting"]["sizes k >="] != k_min]
        exp.claim(
            f"{cid}.{n}",
            f"{what} often: on every dataset at >= half of the (size k >= {k_min}, forward or reverse KL) cells.",
            test=lambda t, o=ours, th=theirs: often_fraction(t, o, th, k_min=k_min) >= OFTEN[1], table=table,
            threshold={"value": OFTEN[1], "source": "ours",
                       "readings": readings(lambda v, f=f: f >= v, OFTEN, chosen=OFTEN[1])},
            diagnosis=None if f >= OFTEN[1] else {"kind": "setting" if rescue else "paper",
                       "text": (f"It holds when 'often' counts the sizes k >= {rescue[0]}." if rescue else
                                "It fails whichever sizes count (the paper names none), at every reading of 'often'."),
                       "evidence": {"sweep": sweep}},
            measured={"least fraction won over datasets": f, "fraction won (pooled)": float(won.to_numpy().mean())}
            | {f"{ds} {kl}": float(won.loc[ds, kl]) for ds in won.index for kl in KLS},
        )
    factor = time_factor(table, IHT, "giga")
    exp.claim(
        f"{cid}.3",
        f"IHT's time is comparable to GIGA's: at the largest k, the median time of A-IHT and of A-IHT II is within "
        f"{COMPARABLE[1]:g}x of GIGA's (either way) on every dataset. Times: CPU seconds of each trial's process (one BLAS thread).",
        test=lambda t: time_factor(t, IHT, "giga") <= COMPARABLE[1], table=table,
        threshold={"value": COMPARABLE[1], "source": "ours",
                   "readings": readings(lambda v: factor <= v, COMPARABLE, chosen=COMPARABLE[1])},
        measured={"largest factor": factor}
        | {f"time {METHOD_LABELS[m]} / GIGA, {ds}": float(v) for m in IHT for ds, v in time_ratio(table, m, "giga").items()}
        | {"k": int(table.k.max())},
    )
    slow = slowdown(table, "sparsevi", IHT)
    exp.claim(
        f"{cid}.4",
        f"SparseVI needs ~1e4x the time of IHT (the paper's number): at the largest k, its median time is >= 10^3.5x (1e4 to "
        "the nearest power of ten) that of A-IHT and of A-IHT II on every dataset. Times: CPU seconds of each trial's process "
        "(one BLAS thread).",
        test=lambda t: slowdown(t, "sparsevi", IHT) >= SLOWDOWN_CUT, table=table,
        threshold={"value": PAPER_SLOWDOWN, "source": "paper", "unit": "x IHT's time, read as >= 10^3.5",
                   "readings": readings(lambda v: slow >= v, ORDERS, chosen=SLOWDOWN_CUT)},
        diagnosis=("setting", f"SparseVI takes at least {slow:.3g}x IHT's time at k = {int(table.k.max())}, not the paper's ~1e4x. The "
                   f"ratio is set by SparseVI's weight updates per point ({sparsevi_steps} here; the paper: 100) and Monte-Carlo draws "
                   f"per gradient (open; {sparsevi_samples} here), by each implementation's cost per step and by the machine; no "
                   "setting that reaches 1e4 was run (SparseVI is most of a trial's time already)."),
        measured={"least ratio": slow}
        | {f"time SparseVI / {METHOD_LABELS[m]}, {ds}": float(v) for m in IHT for ds, v in time_ratio(table, "sparsevi", m).items()}
        | {"sparsevi_steps": sparsevi_steps, "sparsevi_samples": sparsevi_samples},
    )
