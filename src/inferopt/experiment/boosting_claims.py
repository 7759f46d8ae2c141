"""The deciding code of the claims of Tables 2-3 and Fig. 1 (centre, right) of Dresdner et al. (2021): C2 and C3.

Each test takes the per-iteration records of :func:`~inferopt.experiment.boosting.compare_methods` (or a
bootstrap resample of their replicates) and returns a boolean:

* :func:`auroc_comparable` -- Table 2: the adaptive rules' test AUROC within ``tol`` of line search's;
* :func:`adaptive_faster` -- Tables 2-3: the adaptive rules' step-size time below line search's;
* :func:`predefined_fastest_and_worst` -- Sec. 6.2: the predefined step is the fastest, and the worst at
  the runs' end (Fig. 1's last iterate: its train log-likelihood below every other rule's);
* :func:`elbo_curves_above` -- Fig. 1 (centre, right) as drawn: per iteration the mean ELBO over
  replicates; each adaptive rule's curve above line search's on average over the iterations ``t ≥ 1``
  (:func:`curve_gaps` gives the gaps);
* :func:`ll_at_paper_level` -- Table 2's level: every rule's train log-likelihood at its selected iterate
  within ``slack`` of the paper's range;
* :func:`adaafw_best` -- Table 3: AdaAFW has the best test AUROC and train log-likelihood (ties count);
* :func:`adaptive_boost` -- every adaptive rule improves on plain VI (:func:`~.boosting.improves_on_vi`).

:func:`claim_on_table` makes a claim ``not measured`` where its comparison is degenerate (every rule's selected
iterate is plain VI), :func:`claim_on_runs` where a rule has no complete run (the authors' float32 arithmetic stops
runs); else they decide it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import check_choices, check_real, check_table
from .boosting import by_method, elbo_by_rule, improves_on_vi, selected_is_plain_vi
from .boosting_rules import ADAPTIVE
from .verdict_map import cell


def auroc_comparable(records: pd.DataFrame, tol: float) -> bool:
    """Each adaptive rule's mean test AUROC at its selected iterate within ``tol`` of line search's."""
    s = by_method(records)
    tol = check_real("tol", tol, low=0.0)
    return bool(all(abs(s.loc[m, "test_auroc_mean"] - s.loc["line_search", "test_auroc_mean"]) <= tol for m in ADAPTIVE))


def adaptive_faster(records: pd.DataFrame, col: str = "step_time_mean") -> bool:
    """Each adaptive rule's ``col`` of :func:`~.boosting.summary_table` below line search's."""
    s = by_method(records)
    return bool(all(s.loc[m, col] < s.loc["line_search", col] for m in ADAPTIVE))


def last_iterate(records: pd.DataFrame, column: str) -> pd.Series:
    """Per method the mean over replicates of ``column`` at the runs' last iteration (Fig. 1's right edge)."""
    check_table("records", records, ("method", "replicate", "iteration", column))
    last = records[records.iteration == records.iteration.max()]
    return last.groupby("method")[column].mean()


def predefined_fastest_and_worst(records: pd.DataFrame) -> bool:
    """The predefined step has the least step-size time, and at the runs' last iterate a mean train
    log-likelihood below every other rule's (strictly: a tie is not "suboptimal performance")."""
    s = by_method(records)
    ll = last_iterate(records, "train_ll")
    return bool(s.step_time_mean.idxmin() == "predefined" and ll["predefined"] < ll.drop("predefined").min())


def curve_gaps(records: pd.DataFrame, rules=ADAPTIVE, reference: str = "line_search",
               column: str = "elbo_eval") -> dict:
    """Fig. 1's curves compared: per rule of ``rules``, the gap to ``reference``'s mean curve (means over
    replicates per iteration) averaged over the iterations ``t ≥ 1`` (``mean``), and at the last one (``last``)."""
    check_table("records", records, ("method", "replicate", "iteration", column))
    rules = check_choices("rules", rules, sorted(set(records.method)))
    curves = records[records.iteration >= 1].groupby(["iteration", "method"])[column].mean().unstack("method")
    gaps = curves[list(rules)].sub(curves[reference], axis=0)
    return {m: {"mean": float(gaps[m].mean()), "last": float(gaps[m].iloc[-1])} for m in rules}


def elbo_curves_above(records: pd.DataFrame, rules=ADAPTIVE, reference: str = "line_search") -> bool:
    """Fig. 1 (centre, right) as drawn: each rule's mean ELBO curve lies above ``reference``'s on average over
    the iterations ``t ≥ 1`` (the paper's "higher ELBO": any positive gap)."""
    return bool(all(g["mean"] > 0 for g in curve_gaps(records, rules, reference).values()))


def ll_at_paper_level(records: pd.DataFrame, paper_ll: tuple[float, float], slack: float) -> bool:
    """Every rule's mean train log-likelihood at its selected iterate (Table 2's protocol: the iterate with the
    best median over replicates) within ``slack`` of the paper's range ``paper_ll = (low, high)``."""
    low, high = (check_real("paper_ll", v) for v in paper_ll)
    slack = check_real("slack", slack, low=0.0)
    t = by_method(records).train_ll_mean
    return bool(t.min() >= low - slack and t.max() <= high + slack)


def adaafw_best(records: pd.DataFrame) -> bool:
    """AdaAFW has the best (ties included) mean test AUROC and train log-likelihood at the selected iterates."""
    s = by_method(records)
    return bool(s.loc["adaafw", "test_auroc_mean"] >= s.test_auroc_mean.max()
                and s.loc["adaafw", "train_ll_mean"] >= s.train_ll_mean.max())


def adaptive_higher_best_elbo(records: pd.DataFrame) -> bool:
    """Each adaptive rule's best mean ELBO over the iterations exceeds line search's by more than two combined
    standard errors (the reading "best over iterations" of Fig. 1, recorded beside the curves' verdict)."""
    e = elbo_by_rule(records)
    ls = e["line_search"]
    return bool(all(e[m]["best"] - ls["best"] > 2 * np.hypot(e[m]["best_se"], ls["best_se"]) for m in ADAPTIVE))


def adaptive_boost(records: pd.DataFrame) -> bool:
    """Every adaptive rule takes non-zero steps and improves on plain VI beyond two standard errors."""
    return improves_on_vi(records, ADAPTIVE)


def claim_on_table(exp, id_: str, text: str, test, records: pd.DataFrame, **kw):
    """``exp.claim`` on the table's selected iterates, or ``not measured`` when they are all plain VI (a
    comparison of the rules there compares one model with itself)."""
    if selected_is_plain_vi(records):
        return exp.claim(id_, f"{text} Not measured: every rule's selected iterate is plain VI (t = 0, or zero steps "
                         "before it).", measured={**kw.get("measured", {}), "selected iterate of every rule": "plain VI"})
    return exp.claim(id_, text, test=test, table=records, by="replicate", **kw)


def claim_on_runs(exp, id_: str, text: str, test, records: pd.DataFrame, rules=("predefined", "line_search", *ADAPTIVE),
                  *, on_table: bool = False, **kw):
    """``exp.claim`` decided by ``test`` on ``records``, or ``not measured`` when a rule of ``rules`` has no run in them
    (every run of it stopped early and was left out, as the authors' plotting script leaves such runs out), or, with
    ``on_table``, as :func:`claim_on_table` when every selected iterate is plain VI."""
    missing = [m for m in rules if m not in set(records.method)]
    if missing:
        return exp.claim(id_, f"{text} Not measured: no complete run of {', '.join(missing)} (every one stopped early).",
                         measured=kw.get("measured", {}))
    if on_table:
        return claim_on_table(exp, id_, text, test, records, **kw)
    return exp.claim(id_, text, test=test, table=records, by="replicate", **kw)


#: the corrective variants of Sec. 4.1 (away and pairwise steps), compared with the predefined step in Fig. 2 (C4)
CORRECTIVE = ("adaafw", "adapfw")


def corrective_fewer(records: pd.DataFrame) -> bool:
    """Fig. 2: AdaAFW and AdaPFW keep fewer components than predefined, after the last iteration and averaged over the
    iterations ``t ≥ 1`` (means over replicates)."""
    check_table("records", records, ("method", "replicate", "iteration", "n_components"))
    last = last_iterate(records, "n_components")
    mean = records[records.iteration >= 1].groupby("method").n_components.mean()
    return bool(all(last[m] < last["predefined"] and mean[m] < mean["predefined"] for m in CORRECTIVE))


def corrective_more_accurate(records: pd.DataFrame) -> bool:
    """Sec. 6.3: the corrective variants "yield superior solutions in terms of accuracy": AdaAFW's and AdaPFW's mean test
    AUROC (Table 2's accuracy) at the runs' last iterate -- the mixtures whose sizes Fig. 2 draws -- above predefined's."""
    auroc = last_iterate(records, "test_auroc")
    return bool(all(auroc[m] > auroc["predefined"] for m in CORRECTIVE))


def rules_diagnosis(test, what: str, ours: pd.DataFrame, name: str, otherwise):
    """Why a claim fails with the authors' rules (construction ``name``): ``construction`` when ``test`` holds on
    ``ours``, the same replicates with our rules; else ``otherwise(test, what)`` (the claim's verdict map)."""
    if test(ours):
        return {"kind": "construction", "text": f"{what} It holds with our adaptive rules on the same replicates and fails "
                f"with the authors' ({name}).",
                "evidence": {"sweep": [cell({"rules": "ours"}, True), cell({"rules": name}, False, construction="authors")]}}
    return otherwise(test, what)
