"""The claims of the GLM coreset experiments (A4 logistic, A5 Poisson regression).

The paper's sentence (Sec. 5.3, App. G): "The IHT algorithms often obtain coresets with smaller
KL [...] than GIGA and SparseVI, with computing time comparable to GIGA and significantly less
than SparseVI", and "SparseVI needs ×10^4 more time than IHT and GIGA", as five tests on the
table of trials (:func:`~.glm_trials.run_glm_trials`). Neither "often", "comparable" nor
"significantly" is a number in the paper: each of those tests states its cut-off as ours with the
verdict under a range of readings (:func:`~inferopt.experiment.claims.readings`), so a verdict
that turns within them is ``inconclusive``. SparseVI's slowdown is the paper's number, ×10^4, read
to the nearest power of ten (at least 10^3.5); the readings beside it show where the ratio stands.

Speed is compared on equal footing (REVIEW-RUBRIC.md, 4): every speed test is decided on the
hardware-neutral work counts of :mod:`.work` (column ``work``: multiply-adds of the products
with ``Φ`` and of SparseVI's gradient draws), CPU seconds beside. SparseVI is run twice: as
``sparsevi`` with our settings and as ``sparsevi_authors`` with the authors' code's
(:data:`~.glm_trials.AUTHORS_SPARSEVI`, on the first trials, table ``arms``); the Sec. 5.3 /
App. G tests decide with the authors' arm when it was run.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..claims import Unearned, check_statistic, readings
from .glm_trials import AUTHORS_SPARSEVI, check_trial_table, wins
from .large_scale import PEER_SPEEDUPS, care
from .map_cells import diagnose, supported_cell
from .plots import METHOD_LABELS

#: the IHT algorithms of the paper, and the two KLs the claims pool
IHT = ("a_iht", "a_iht_ii")
KLS = ("forward_kl", "reverse_kl")
#: readings of "often": the least fraction, over datasets, of (size, KL) cells won
OFTEN = (1 / 3, 1 / 2, 2 / 3)
#: readings of "comparable": every IHT algorithm's work within this factor of GIGA's
COMPARABLE = (3.0, 10.0, 30.0)
#: readings of "significantly less than SparseVI": SparseVI's work at least this many times every IHT algorithm's
SIGNIFICANT = (3.0, 10.0, 30.0)
#: the paper's SparseVI slowdown ("SparseVI needs ×10^4 more time than IHT and GIGA", Sec. 5.3), and the least
#: ratio that reads as it to the nearest power of ten
PAPER_SLOWDOWN = 1e4
SLOWDOWN_CUT = 10**3.5
#: where the measured ratio stands: the verdict at these least ratios (the nearest powers of ten around the paper's)
ORDERS = (1e3, SLOWDOWN_CUT, 1e4)
#: the bases a speed test can be read on: the work counts (deciding) and CPU seconds (beside)
BASES = ("work", "seconds")
#: the SparseVI arm with the authors' settings
AUTHORS_ARM = "sparsevi_authors"


def often_fraction(table: pd.DataFrame, ours, theirs, *, k_min: int) -> float:
    """The least, over datasets, fraction of cells (size ``k >= k_min``, forward or reverse KL)
    at which the best of ``ours`` has a lower median KL than the best of ``theirs``."""
    return check_statistic("fraction of cells won", wins(table, ours, theirs, k_min=k_min, metrics=KLS).mean(axis=1).min())


def at_largest_k(table: pd.DataFrame, basis: str, methods) -> pd.DataFrame:
    """Per dataset (rows), the median over trials of ``basis`` of each of ``methods`` (columns) at the
    table's largest size, on the trials all of them ran."""
    check_trial_table(table, basis, methods=list(methods))
    kmax = table["k"].max()
    sub = table[(table["k"] == kmax) & table["method"].isin(list(methods))]
    wide = sub.pivot(index=["dataset", "trial"], columns="method", values=basis).dropna()
    return wide.groupby(level="dataset").median()[list(methods)]


def basis_ratio(table: pd.DataFrame, basis: str, numerator: str, denominator: str) -> pd.Series:
    """Per dataset, the median ``basis`` (``work`` or ``seconds``) of ``numerator`` over that of
    ``denominator`` at the table's largest size, on the trials both ran."""
    med = at_largest_k(table, basis, [numerator, denominator])
    return med[numerator] / med[denominator]


def time_factor(table: pd.DataFrame, methods, reference: str, basis: str = "work") -> float:
    """The largest, over datasets and ``methods``, factor between a method's median ``basis`` and
    ``reference``'s at the largest size (``max(r, 1/r)``: more or less work alike)."""
    med = at_largest_k(table, basis, [reference, *methods])
    r = med[list(methods)].div(med[reference], axis=0).to_numpy()
    return check_statistic(f"{basis} factor against {reference}", np.maximum(r, 1 / r).max())


def slowdown(table: pd.DataFrame, slow: str, methods, basis: str = "work") -> float:
    """The least, over datasets and ``methods``, ratio of ``slow``'s median ``basis`` to a
    method's at the largest size."""
    med = at_largest_k(table, basis, [slow, *methods])
    return check_statistic(f"{basis} of {slow} over IHT", (1 / med[list(methods)].div(med[slow], axis=0)).to_numpy().min())


def with_arms(table: pd.DataFrame, arms: pd.DataFrame | None) -> pd.DataFrame | None:
    """The trials of ``table`` that ``arms`` (the extra arms' rows, same columns) also ran, with
    the arms' rows added; ``None`` without arms."""
    if arms is None or arms.empty:
        return None
    check_trial_table(arms, "k")
    keys = arms[["dataset", "trial"]].drop_duplicates()
    return pd.concat([table.merge(keys, on=["dataset", "trial"]), arms], ignore_index=True)


def _svi_cells(exp, table, authors, test_at, name: str) -> list[dict]:
    """Verdict-map cells of a SparseVI speed test ``test_at(t, slow, basis)`` over both bases and both
    constructions (ours: ``sparsevi`` on all trials; the authors': :data:`AUTHORS_ARM` on ``authors``)."""
    return [supported_cell(exp, {"SparseVI": slow, "basis": basis, "test": name},
                           lambda tt, s=slow, b=basis: test_at(tt, s, b), t, construction=construction)
            for construction, slow, t in [("ours", "sparsevi", table), ("authors", AUTHORS_ARM, authors)] if t is not None
            for basis in BASES]


def _svi_diagnosis(cells: list[dict], text: str):
    """The diagnosis of a failing SparseVI speed test from its map (:func:`_svi_cells`); without the
    authors' cells (the arm not run at this scale) nothing is earned: the claim is ``inconclusive``."""
    if not any(c.get("construction") == "authors" for c in cells):
        return Unearned("the authors' SparseVI arm (sparsevi_authors_trials) was not run at this scale, and the Sec. 5.3 / "
                        "App. G claims are about SparseVI as its authors ran it", {"sweep": cells})
    return diagnose(cells, text)


def record_glm_claims(exp, table: pd.DataFrame, *, k_min: int, sparsevi_steps: int, sparsevi_samples: int,
                      arms: pd.DataFrame | None = None) -> None:
    """The five claims ``<id>.1``–``<id>.5`` of experiment ``exp`` (A4 or A5) on ``table``; each
    test reads its cut-off at the middle reading, with the verdict under every reading beside it.
    ``arms``: the rows of the ``sparsevi_authors`` arm (SparseVI with the authors' settings) on
    the first trials, or ``None`` (not run at this scale: the SparseVI tests then decide with ours
    and say so)."""
    cid = exp.id
    authors = with_arms(table, None if arms is None else arms[arms["method"] == AUTHORS_ARM])
    svi = AUTHORS_ARM if authors is not None else "sparsevi"
    svi_table = authors if authors is not None else table
    n_auth = 0 if authors is None else int(authors.groupby("dataset")["trial"].nunique().min())
    svi_words = (f"SparseVI as the authors' code runs it ({AUTHORS_SPARSEVI['authors_steps']} updates per selection, "
                 f"{AUTHORS_SPARSEVI['authors_samples']} draws per gradient, step {AUTHORS_SPARSEVI['authors_step_scale']:g}/t; "
                 f"first {n_auth} trials per dataset)" if authors is not None else
                 f"SparseVI with our settings ({sparsevi_steps} updates, {sparsevi_samples} draws; the authors' arm was not run at this scale)")
    plain = wins(table, IHT, ["giga", "sparsevi"], k_min=k_min, metrics=KLS)
    refitted = wins(table, ["a_iht_ii_refit"], ["giga_refit", "frank_wolfe_refit"], k_min=k_min, metrics=KLS)
    for n, ours, theirs, won, what in [
        (1, IHT, ["giga", "sparsevi"], plain, "IHT (A-IHT or A-IHT II, as run) has lower KL than GIGA and SparseVI (as run, no re-fit)"),
        (2, ["a_iht_ii_refit"], ["giga_refit", "frank_wolfe_refit"], refitted,
         "With NNLS re-fits on both sides, A-IHT II + re-fit has lower KL than GIGA + re-fit and FW + re-fit"),
    ]:
        f = often_fraction(table, ours, theirs, k_min=k_min)
        extra, sweep, rescue = {}, [], []
        if n == 1 and authors is not None:
            extra = {"least fraction won, against the authors' SparseVI": often_fraction(authors, ours, ["giga", AUTHORS_ARM], k_min=k_min)}
        if f < OFTEN[1]:
            sweep = [supported_cell(exp, {"sizes k >=": km, "cut": OFTEN[1]},
                                    lambda t, o=ours, th=theirs, km=km: often_fraction(t, o, th, k_min=km) >= OFTEN[1], table)
                     for km in sorted({1, k_min, int(table.k.max())})]
            if n == 1 and authors is not None:
                sweep.append(supported_cell(exp, {"sizes k >=": k_min, "cut": OFTEN[1], "SparseVI": AUTHORS_ARM},
                                            lambda t, o=ours: often_fraction(t, o, ["giga", AUTHORS_ARM], k_min=k_min) >= OFTEN[1],
                                            authors, construction="authors"))
            rescue = [c["setting"] for c in sweep if c["verdict"] == "holds"]
        exp.claim(
            f"{cid}.{n}",
            f"{what} often: on every dataset at >= half of the (size k >= {k_min}, forward or reverse KL) cells.",
            test=lambda t, o=ours, th=theirs: often_fraction(t, o, th, k_min=k_min) >= OFTEN[1], table=table,
            threshold={"value": OFTEN[1], "source": "ours",
                       "readings": readings(lambda v, f=f: f >= v, OFTEN, chosen=OFTEN[1])},
            diagnosis=None if f >= OFTEN[1] else diagnose(
                sweep, f"IHT wins a least fraction {f:.3g} of the cells over datasets." + ("" if rescue else
                       " It fails whichever sizes count (the paper names none)."),
            ),
            measured={"least fraction won over datasets": f, "fraction won (pooled)": float(won.to_numpy().mean())}
            | {f"{ds} {kl}": float(won.loc[ds, kl]) for ds in won.index for kl in KLS} | extra,
        )
    _comparable_claim(exp, table)
    _slowdown_claim(exp, table, authors, svi, svi_table, svi_words)
    _significant_claim(exp, table, authors, svi, svi_table, svi_words)


def _comparable_claim(exp, table) -> None:
    """``<id>.3``: IHT's time comparable to GIGA's, decided on the work counts."""
    fw, fs = time_factor(table, IHT, "giga", "work"), time_factor(table, IHT, "giga", "seconds")
    exp.claim(
        f"{exp.id}.3",
        f"IHT's time is comparable to GIGA's: at the largest k, the median work (multiply-adds of the products with Phi, "
        f"hardware-neutral: the deciding basis) of A-IHT and of A-IHT II is within {COMPARABLE[1]:g}x of GIGA's (either way) "
        "on every dataset. CPU seconds (one BLAS thread) beside, with each implementation's seconds per product with Phi "
        "(how near its floor it runs).",
        test=lambda t: time_factor(t, IHT, "giga", "work") <= COMPARABLE[1], table=table,
        threshold={"value": COMPARABLE[1], "source": "ours", "unit": "x GIGA's work",
                   "readings": readings(lambda v: fw <= v, COMPARABLE, chosen=COMPARABLE[1])},
        diagnosis=None if fw <= COMPARABLE[1] else diagnose(
            [supported_cell(exp, {"basis": b, "cut": c}, lambda t, b=b, c=c: time_factor(t, IHT, "giga", b) <= c, table)
             for b in BASES for c in COMPARABLE],
            f"IHT's work is {fw:.3g}x GIGA's at the largest k (seconds: {fs:.3g}x).",
            no_authors_construction="the authors' IHT differs from ours in its step (half the exact one), not in the products "
                                    "per iteration; GIGA is the peer library's algorithm"),
        measured={"largest work factor": fw, "largest seconds factor": fs}
        | {f"work {METHOD_LABELS[m]} / GIGA, {ds}": float(v) for m in IHT for ds, v in basis_ratio(table, "work", m, "giga").items()}
        | {f"seconds {METHOD_LABELS[m]} / GIGA, {ds}": float(v) for m in IHT for ds, v in basis_ratio(table, "seconds", m, "giga").items()}
        | care(table, ["giga", *IHT]) | {"k": int(table.k.max())}
        | {"peer speed-ups (benchmarks/README.md, full phishing, k = 50/200/500)": PEER_SPEEDUPS},
    )


def _slowdown_claim(exp, table, authors, svi, svi_table, svi_words) -> None:
    """``<id>.4``: SparseVI needs ~1e4x IHT's time, decided on the work counts of ``svi``."""
    slow = slowdown(svi_table, svi, IHT)
    cells = _svi_cells(exp, table, authors, lambda t, s, b: slowdown(t, s, IHT, b) >= SLOWDOWN_CUT, "x1e4")
    ratios = {f"{b} {c['setting']['SparseVI']} / IHT (least)": slowdown(authors if c["construction"] == "authors" else table,
                                                                        c["setting"]["SparseVI"], IHT, b)
              for c in cells for b in [c["setting"]["basis"]]}
    exp.claim(
        f"{exp.id}.4",
        f"SparseVI needs ~1e4x the time of IHT (the paper's number): at the largest k, the work of {svi_words} is >= 10^3.5x "
        "(1e4 to the nearest power of ten) that of A-IHT and of A-IHT II on every dataset. Basis: the work counts (SparseVI's "
        "draws counted by their products Z theta only, a lower bound); CPU seconds and our SparseVI arm beside.",
        test=lambda t: slowdown(t, svi, IHT) >= SLOWDOWN_CUT, table=svi_table,
        threshold={"value": PAPER_SLOWDOWN, "source": "paper", "unit": "x IHT's work, read as >= 10^3.5",
                   "readings": readings(lambda v: slow >= v, ORDERS, chosen=SLOWDOWN_CUT)},
        diagnosis=None if slow >= SLOWDOWN_CUT else _svi_diagnosis(cells, f"The work of {svi} is at least {slow:.3g}x IHT's at the largest k."),
        measured={"least ratio": slow} | ratios
        | {f"work {svi} / {METHOD_LABELS[m]}, {ds}": float(v) for m in IHT for ds, v in basis_ratio(svi_table, "work", svi, m).items()}
        | {f"seconds {svi} / {METHOD_LABELS[m]}, {ds}": float(v) for m in IHT for ds, v in basis_ratio(svi_table, "seconds", svi, m).items()},
    )


def _significant_claim(exp, table, authors, svi, svi_table, svi_words) -> None:
    """``<id>.5``: IHT's time 'significantly less than SparseVI' (the quoted words, apart from the ×1e4)."""
    slow = slowdown(svi_table, svi, IHT)
    exp.claim(
        f"{exp.id}.5",
        f"IHT's time is significantly less than SparseVI's: at the largest k, the work of {svi_words} is >= "
        f"{SIGNIFICANT[1]:g}x that of A-IHT and of A-IHT II on every dataset (work counts decide; the seconds are in {exp.id}.4).",
        test=lambda t: slowdown(t, svi, IHT) >= SIGNIFICANT[1], table=svi_table,
        threshold={"value": SIGNIFICANT[1], "source": "ours", "unit": "x IHT's work",
                   "readings": readings(lambda v: slow >= v, SIGNIFICANT, chosen=SIGNIFICANT[1])},
        diagnosis=None if slow >= SIGNIFICANT[1] else _svi_diagnosis(
            _svi_cells(exp, table, authors, lambda t, s, b: slowdown(t, s, IHT, b) >= SIGNIFICANT[1], "significantly"),
            f"The work of {svi} is at least {slow:.3g}x IHT's at the largest k."),
        measured={"least work ratio": slow, "least work ratio, our SparseVI": slowdown(table, "sparsevi", IHT)},
    )
