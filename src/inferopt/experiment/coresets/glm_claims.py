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
from .glm_trials import AUTHORS_SPARSEVI, time_ratio, wins
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


def slowdown_diagnosis(slow: float, k: int, *, sparsevi_steps: int, sparsevi_samples: int,
                       authors: pd.DataFrame | None) -> dict:
    """Why SparseVI's slowdown ``slow`` (at size ``k``, with ``sparsevi_steps`` updates and
    ``sparsevi_samples`` draws) is short of the paper's ×10^4: the construction switch, SparseVI
    with the authors' code's settings (:data:`~.glm_trials.AUTHORS_SPARSEVI`) timed against IHT
    on the same trials in ``authors`` (``None``: not run at this scale)."""
    ours = {"setting": {"sparsevi_steps": sparsevi_steps, "sparsevi_samples": sparsevi_samples},
            "verdict": "holds" if slow >= SLOWDOWN_CUT else "fails", "least ratio": slow}
    head = (f"SparseVI takes at least {slow:.3g}x IHT's time at k = {k} with {sparsevi_steps} weight updates per selection "
            f"(the paper: 100) and {sparsevi_samples} draws per gradient. The authors' code runs SparseVI with "
            f"{AUTHORS_SPARSEVI['sparsevi_steps']} updates, {AUTHORS_SPARSEVI['sparsevi_samples']} draws per gradient and "
            f"step {AUTHORS_SPARSEVI['sparsevi_step_scale']:g}/t")
    if authors is None:
        return {"kind": "construction", "text": head + "; that switch was not run at this scale (sparsevi_authors_trials = 0).",
                "evidence": {"sweep": [ours]}}
    theirs = slowdown(authors, "sparsevi", IHT)
    verdict = "holds" if theirs >= SLOWDOWN_CUT else "fails"
    n = int(authors.groupby("dataset").trial.nunique().min())
    rest = ("" if verdict == "holds" else " The rest of the gap is each implementation's cost per step (the authors fit "
            "every Laplace approximation by BFGS from the prior mean; we take Newton steps from the previous mode) and the machine.")
    return {"kind": "construction",
            "text": head + f": with those, on the {'first trial' if n == 1 else f'first {n} trials'} of each dataset, it takes at least {theirs:.3g}x IHT's time, "
                    f"so the claim {verdict} on the authors' construction." + rest,
            "evidence": {"sweep": [ours,
                                   {"setting": AUTHORS_SPARSEVI | {"trials": n}, "verdict": verdict,
                                    "least ratio": theirs}]}}


def record_glm_claims(exp, table: pd.DataFrame, *, k_min: int, sparsevi_steps: int, sparsevi_samples: int,
                      authors: pd.DataFrame | None = None) -> None:
    """The four claims ``<id>.1``–``<id>.4`` of experiment ``exp`` (A4 or A5) on ``table``; each
    test reads its cut-off at the middle reading, with the verdict under every reading beside it.
    ``authors``: the trial table of SparseVI with the authors' settings and both IHT algorithms at
    the largest size, on the first trials (the construction switch of ``<id>.4``), or ``None``."""
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
        "SparseVI needs ~1e4x the time of IHT (the paper's number): at the largest k, its median time is >= 10^3.5x (1e4 to "
        "the nearest power of ten) that of A-IHT and of A-IHT II on every dataset. Times: CPU seconds of each trial's process "
        "(one BLAS thread).",
        test=lambda t: slowdown(t, "sparsevi", IHT) >= SLOWDOWN_CUT, table=table,
        threshold={"value": PAPER_SLOWDOWN, "source": "paper", "unit": "x IHT's time, read as >= 10^3.5",
                   "readings": readings(lambda v: slow >= v, ORDERS, chosen=SLOWDOWN_CUT)},
        diagnosis=slowdown_diagnosis(slow, int(table.k.max()), sparsevi_steps=sparsevi_steps,
                                     sparsevi_samples=sparsevi_samples, authors=authors),
        measured={"least ratio": slow}
        | {f"time SparseVI / {METHOD_LABELS[m]}, {ds}": float(v) for m in IHT for ds, v in time_ratio(table, "sparsevi", m).items()}
        | {"sparsevi_steps": sparsevi_steps, "sparsevi_samples": sparsevi_samples}
        | ({} if authors is None else {"least ratio, authors' SparseVI": slowdown(authors, "sparsevi", IHT)}),
    )
