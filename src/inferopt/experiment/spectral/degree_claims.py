"""D4's deciding code added in session 44 (issue 41's pre-run review), beside :mod:`.completion_degrees` (which D3 imports
too, so that D3's results stay current: nothing there changes):

* **D4.1 with an equivalence side** (session 58's review): the optimal arm's lead in median mean test RMSE over Poisson
  and the negative binomial read against a margin of the way to the optimum, so that a tie fails (:func:`d41_reading`);
  a verdict-map cell from it (:func:`d41_cell`) and the claim's diagnosis (:func:`d41_diagnosis`); the optimal arm's
  gradient variance split into its probe and degree parts and the runs' gradient-variance readings, D4.1's mechanism
  (:func:`variance_split`, :func:`d43_gradient_readings`).
* **D4.2 can fail** (review item 1): decided at the chosen cell, where SGD-DET's floors are computed, with a diagnosis of its
  own (:func:`chosen_cell_diagnosis`: ``stand-in`` on a decisive failure); its floors are SGD-DET's own fixed points
  (:func:`~.completion_degrees.det_own_fixed_point`, item 2), tried from the runs' end first (:func:`settled_fixed_point`,
  session 45's fresh review); a floor that did not settle, or lies above where the runs already are, decides nothing. Its
  two halves are two claims (session 45): SGD-DET's level falls with the degree (:func:`d42_det_reading`, D4.2) and SGD's
  changes by less than a share of the floors' gap (:func:`d42_sgd_reading`, D4.2-sgd). Levels are medians over the seeds,
  their noise over the runs that did not diverge (:func:`_kept_median_se`, with a named fallback).
* **D4.3 on the variance the runs see** (session 61, settling sessions 59's and 60's reviews: the paper's sentence is
  about the runs, and Lemma 2's ``Var_C`` cannot fail here): the runs' stochastic-gradient variance at their own ``M`` and
  over the degrees they can draw, exact (session 63: :func:`exact_gradient_variances`, the probe part in closed form over
  Rademacher probes, the degree part :func:`degree_term`; a Monte-Carlo estimate at the optimum was dominated by single
  high-degree draws), read at the end of each seed's run (past D4.1's gate) and at the optimum the runs are headed for
  (:func:`d43_claim_args`; the point is a reading, as the margin is), against a margin both ways
  (:func:`d43_exact_reading`: an equivalence reading can fail); Lemma 2's ``Var_C`` per cell beside it
  (:func:`lemma2_holds`: it holds by Lemma 2 wherever the optimal distribution is Theorem 3's), and the readings at other
  ``M'`` and tail cuts (:func:`d43_gradient_readings`). Our cut-offs' readings of a three-valued reading:
  :func:`three_valued_readings`.
* **The map's usable cells** (item 4): a cell whose optimal distribution is degenerate is not run (:func:`map_cells_to_run`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._validation import as_finite_array, check_choice, check_choices, check_int, check_real, check_table
from ..support import agreeing_test, bootstrap_support, supported_verdict
from .completion import _runs, d43_test
from .completion_degrees import _arm, _eig_side, _se, _series_derivative, det_own_fixed_point, truncated_gradient

#: D4.3's "relatively large" (ours): the other distributions' gradient variance at the runs' M above the optimal one's by
#: more than this share of it (:func:`d43_claim_args`; the claim reads it at :data:`D43_MARGIN_READINGS` too, the readings that
#: can turn it); Lemma 2's Var_C beside it (:func:`lemma2_holds`) reads the same margin
D43_MARGIN = 0.1
D43_MARGIN_READINGS = (0.05, 0.1, 0.2, 1.0)   # 1.0, twofold (session 63's pre-run review helper-439): the paper's own scale is larger

#: D4.1's tie (ours, session 58's review): the optimal arm's lead in median mean test RMSE over a distribution, plus two
#: standard errors, below this share of the way from the start's test RMSE to the optimum's is no faster convergence
#: (:func:`d41_reading`; 1 % of the way is about a hundredth of the height Fig. 2(c)'s curves travel, below the width of a
#: plotted line); read at :data:`D41_MARGIN_READINGS` too
D41_MARGIN = 0.01
D41_MARGIN_READINGS = (0.005, 0.01, 0.02)

#: D4.2's rule for a diverged run (ours, session 58's review): its level above the start's test RMSE (the training mean's:
#: the run ends worse than where it began)
DIVERGED = "its level above the start's test RMSE (the training mean's: the run ends worse than where it began)"

#: The gradient readings beside D4.3 (session 58's review; beside, not deciding, session 61: the runs see their own M and
#: the degrees they reach, P(N >= n) >= 1/budget): the probes M' at which the runs' gradient variance is read besides the
#: runs' own M (None: M' infinite, exact traces, no probe part), and the least tail mass of a degree counted besides 1/budget
#: (a million draws' worth: below it Poisson's reweights 1/P(n >= j) overflow) (:func:`d43_gradient_readings`)
D43_PROBES = (1000, None)
D43_LEAST = 1e-6

#: L-BFGS-B rounds per interval of SGD-DET's own fixed point (:func:`~.completion_degrees.det_own_fixed_point`) where D4
#: reads its floors (session 44's pre-run review: one round of 120 steps left the optimum unconverged)
FLOOR_ROUNDS = 3


# ----------------------------------------------------------------------------- D4.2: two claims on SGD-DET's own floors


def _kept_median_se(v, start: float) -> tuple:
    """The standard error of a median over seeds that a diverged run cannot inflate (session 58's review: SGD N=30 seed 4's
    level 1.76 among four at 1.047 made SGD's noise 0.143 and passed its levelled-off test): ``1.2533 · s / √n`` (the normal
    approximation of a median's standard error), ``s`` the standard deviation of the ``n`` values kept, those not above
    ``start`` (:data:`DIVERGED`: a run that ends worse than it began is named, never part of the noise). It is robust to a
    run above ``start`` only: a wild run below it still widens ``s``. Where fewer than two runs are kept (session 59's
    re-read: the noise was ``inf`` there, so that no reading could fail), the plain standard error over the finite runs
    (:func:`~.completion_degrees._se`; ``inf`` with fewer than two; session 60: a run that blew up, ``inf``, made it
    ``nan``, said as too few runs), those that blew up named. Returns ``(se, fallback)``: ``fallback`` None where two runs
    or more were kept, else the words naming the fallback."""
    v = np.asarray(v, dtype=float)
    kept = v[v <= start]
    if kept.size > 1:
        return float(1.2533 * np.std(kept, ddof=1) / np.sqrt(kept.size)), None
    finite = v[np.isfinite(v)]
    blew = "" if finite.size == v.size else f" ({v.size - finite.size} blew up: not finite, left out)"
    return _se(finite), (f"fewer than two of its {v.size} runs did not diverge: the plain standard error of the mean over its "
                         f"{finite.size} finite runs{blew}" if v.size > 1 else "a single run: no standard error")


def _arms_noise(values: dict, start: float) -> tuple:
    """Each arm's median (``values``: ``{arm: its runs' values}``), its standard error (:func:`_kept_median_se`), the arms
    whose median itself lies above ``start`` (diverged: the median run ends worse than it began; session 59's re-read) and
    a sentence naming both those arms and the fallbacks of the noise of the arms that did not diverge (None where there is
    nothing to name; session 60: a diverged arm's noise decides nothing, every caller deciding on its divergence first, so
    its fallback is not named). Returns ``(median, se, diverged, note)``."""
    median, se, fallbacks = {}, {}, {}
    for a, v in values.items():
        median[a] = float(np.median(v))
        se[a], fallbacks[a] = _kept_median_se(v, start)
    diverged = [a for a in values if median[a] > start]
    said = [f"{a}: {f}" for a, f in fallbacks.items() if f is not None and a not in diverged]
    note = ([f"diverged (the median run above the start's {start:.4g}): " + ", ".join(f"{a} (median {median[a]:.4g})" if np.isfinite(median[a]) else f"{a} (median not finite: blew up)" for a in diverged)]
            if diverged else []) + ([f"noise fallback ({'; '.join(said)})"] if said else [])
    return median, se, diverged, "; ".join(note) or None


def _units_to_clear(n: int, z: float, se: float, gap: float) -> str:
    """What would decide a reading left within ``z`` standard errors of its cut-off: the units (seeds, draws) at which ``z``
    standard errors would clear the ``gap`` between the estimate and the cut-off, were they to fall as one over the square
    root of the units (``n`` measured: ``n (z se / |gap|)^2``), as text; on the cut-off, said so."""
    return "on the cut-off" if gap == 0.0 else f"~{n * (z * se / abs(gap)) ** 2:,.0f}"


def _g(x: float) -> str:
    """A noise as text: a non-finite one (a single run, or too few runs that did not diverge) is said in words, never printed."""
    return f"{x:.2g}" if np.isfinite(x) else "none: too few runs that did not diverge"


def _floors_read(table: pd.DataFrame, low: int, high: int, fixed: dict, z: float, start: float) -> tuple:
    """What both halves of D4.2 read (session 45's fresh review): SGD-DET's floors ``fixed`` (``{degree: info}`` of
    :func:`~.completion_degrees.det_own_fixed_point` or :func:`settled_fixed_point`: ``test RMSE``, ``converged``,
    ``self-consistent``), the arms' levels and drifts (``table``: :func:`~.completion_degrees.run_levels`' rows of
    ``SGD N=<n>`` and ``SGD-DET N=<n>`` at ``n`` = ``low``, ``high``) and the noise of each method's level difference. An
    arm's level is the median over its seeds and the noise the standard error of the two medians' difference over the runs
    that did not diverge (:func:`_kept_median_se`, with its fallback; session 58's review: a mean and a plain standard error
    let one diverged run set both); the diverged runs (:data:`DIVERGED`: a level above ``start``, the start's test RMSE)
    are named (``"diverged"``), the arms whose median run diverged too (``"diverged arms"``, :func:`_arms_noise`; each half
    decides on them first), with ``"note"`` the sentence naming them and the noise's fallbacks (None: nothing). A floor
    decides nothing where its fixed point did not settle (review item 2) or where it lies above where SGD-DET's runs
    already are (its level less ``z`` times the noise: the runs went past a point they are supposed to stop at, so that
    point is not their fixed point). Returns ``(out, why)``: the numbers, and the floors' reasons to stay undecided."""
    if not isinstance(fixed, dict):
        raise TypeError(f"fixed must map each degree to det_own_fixed_point's info; got {type(fixed).__name__}")
    check_table("table", table, ("method", "seed", "level", "drift"))
    low, high = check_int("low", low, low=0), check_int("high", high, low=0)
    if not low < high:
        raise ValueError(f"low must be below high; got low = {low}, high = {high}")
    for n in (low, high):
        info = fixed.get(n)
        if not isinstance(info, dict) or not {"test RMSE", "converged", "self-consistent"} <= set(info):
            raise ValueError(f"fixed must hold det_own_fixed_point's info (test RMSE, converged, self-consistent) at degree {n}")
        check_real(f"fixed[{n}]['test RMSE']", info["test RMSE"], low=0.0)
    z = check_real("z", z, low=0.0)
    start = check_real("start", start, low=0.0)
    arms = [f"{m} N={n}" for n in (low, high) for m in ("SGD", "SGD-DET")]
    values = {a: _arm(table, a, "level") for a in arms}
    levels, se, gone, note = _arms_noise(values, start)
    drift = {a: float(np.median(_arm(table, a, "drift"))) for a in arms}
    noise = {m: float(np.hypot(se[f"{m} N={low}"], se[f"{m} N={high}"])) for m in ("SGD", "SGD-DET")}
    diverged = {f"{a} seed {s}": float(v) for a in arms for s, v in zip(table.loc[table["method"] == a, "seed"], values[a]) if v > start}
    floors = {n: float(fixed[n]["test RMSE"]) for n in (low, high)}
    settled = {n: bool(fixed[n]["converged"] and fixed[n]["self-consistent"]) for n in (low, high)}
    above = {n: floors[n] - levels[f"SGD-DET N={n}"] for n in (low, high) if floors[n] > levels[f"SGD-DET N={n}"] + z * noise["SGD-DET"]}
    why = []
    if not all(settled.values()):
        why.append("SGD-DET's fixed point did not settle at N = " + ", ".join(str(n) for n in (low, high) if not settled[n])
                   + " (L-BFGS-B's test unmet or its intervals not self-consistent): no floor measured there")
    if above:
        why.append("SGD-DET's floor lies above where its runs already are at N = " + ", ".join(
            f"{n} (by {v:.2g} test RMSE)" for n, v in above.items()) + f", beyond {z:g} times the levels' noise: not the runs' fixed point")
    floor_gap = floors[low] - floors[high]
    out = {"levels": levels, "drift": drift, "noise": noise["SGD-DET"], "SGD noise": noise["SGD"], "floors": floors, "settled": settled,
           "floor above level": above, "floor gap": floor_gap, "diverged": diverged, "diverged arms": gone, "note": note,
           "gain": levels[f"SGD-DET N={low}"] - levels[f"SGD-DET N={high}"],
           "change": abs(levels[f"SGD N={low}"] - levels[f"SGD N={high}"])}
    if not abs(floor_gap) > z * noise["SGD-DET"]:
        why.append(f"SGD-DET's exact bias is below the noise: its fixed points' test RMSEs differ by {floor_gap:+.2g} between N = {low} "
                   f"and N = {high}, within {z:g} times the levels' noise ({_g(noise['SGD-DET'])})")
    return out, why


def _moving(out: dict, method: str, low: int, high: int, noise: float, z: float) -> list:
    moving = {a: out["drift"][a] for a in (f"{method} N={low}", f"{method} N={high}") if not out["drift"][a] <= z * noise}
    return [] if not moving else [
        "the runs have not levelled off: over the window " + ", ".join(f"{a} still falls {v:.2g}" for a, v in moving.items())
        + f", more than {z:g} times the levels' noise ({_g(noise)} test RMSE)"]


def d42_det_reading(table: pd.DataFrame, low: int, high: int, fixed: dict, *, start: float, z: float = 2.0) -> dict:
    """D4.2, SGD-DET's half ("a larger degree (N = 30) reduces the bias error in SGD-DET", Sec. 5.1 on Fig. 2(d)): SGD-DET's
    level (:func:`~.completion_degrees.run_levels`, the median over seeds) falls from ``low`` to ``high``. Undecided (None,
    every reason named) where a floor decides nothing (:func:`_floors_read`: unsettled, or above the runs' level), where
    SGD-DET's median run still falls over the window by more than ``z`` times the noise (the standard error of its level
    difference over the seeds that did not diverge), or where its exact floors differ by no more than that; then it *holds* when the gain
    exceeds ``z`` times the noise, *fails* when it is below minus that (the level rises with the degree), else undecided
    (within the noise). ``start``: the start's test RMSE (a run above it diverged, named). First, where an arm's median run
    itself diverged (session 59's re-read): at ``high`` only, it *fails* (the level rises above the start with the degree:
    against the claim, whatever the noise); at ``low`` it is undecided (a diverged level is no bias floor). Returns
    ``{"outcome", "reason", "gain", "noise", "floor gap", "floors", "settled", "floor above level", "levels", "drift",
    "diverged", "diverged arms", "note", ...}``."""
    out, why = _floors_read(table, low, high, fixed, z, start)
    gone = [a for a in (f"SGD-DET N={low}", f"SGD-DET N={high}") if a in out["diverged arms"]]
    if gone == [f"SGD-DET N={high}"]:
        return out | {"outcome": False, "reason": None}
    if gone:
        return out | {"outcome": None, "reason": f"SGD-DET's median run diverged at N = {', '.join(a.split('=')[1] for a in gone)}: "
                                                 f"a diverged level is no bias floor ({out['note']})"}
    why = _moving(out, "SGD-DET", low, high, out["noise"], z) + why
    if not why:
        g, e = out["gain"], z * out["noise"]
        if g - e > 0 or g + e < 0:
            return out | {"outcome": bool(g - e > 0), "reason": None}
        why.append(f"SGD-DET's level gain {g:+.2g} is within {z:g} times the levels' noise ({_g(out['noise'])})")
    return out | {"outcome": None, "reason": "; and ".join(why) + ("" if out["note"] is None else f" ({out['note']})")}


def d42_sgd_reading(table: pd.DataFrame, low: int, high: int, fixed: dict, *, start: float, share: float = 0.5, z: float = 2.0) -> dict:
    """D4.2, SGD's half ("while SGD achieves similar error regardless of the degree", Sec. 5.1 on Fig. 2(d)): SGD's level
    (the median over seeds) changes from ``low`` to ``high`` by less than ``share`` of the bias gap SGD-DET's exact floors show
    (``fixed``: the scale "similar" is read against). Undecided where the floors decide nothing or their gap is within the
    noise (:func:`_floors_read`) or SGD's median run still falls over the window by more than ``z`` times SGD's level noise
    (a diverged run does not inflate it, session 58's review); then it *holds* when SGD's change plus ``z`` times
    its noise is below ``share`` of the floors' gap, *fails* when the change less that is above it, else undecided. A
    diverged run (:data:`DIVERGED`, above ``start``) is named in ``"diverged"``, never dropped: the median reads past it.
    First, where SGD's median run itself diverged at one degree and not at the other (session 59's re-read), it *fails*
    (not similar error: one ends worse than it began); at both, undecided. Returns the numbers of :func:`d42_det_reading`
    with ``"outcome"``, ``"reason"``, ``"allowed"`` (``share`` times the gap)."""
    share = check_real("share", share, low=0.0, low_open=True)
    out, why = _floors_read(table, low, high, fixed, z, start)
    allowed = share * abs(out["floor gap"])
    out |= {"allowed": allowed}
    gone = [a for a in (f"SGD N={low}", f"SGD N={high}") if a in out["diverged arms"]]
    if len(gone) == 1:
        return out | {"outcome": False, "reason": None}
    if gone:
        return out | {"outcome": None, "reason": f"SGD's median run diverged at both degrees: no level to compare ({out['note']})"}
    why = _moving(out, "SGD", low, high, out["SGD noise"], z) + why
    if not why:
        c, e = out["change"], z * out["SGD noise"]
        if c + e < allowed or c - e > allowed:
            return out | {"outcome": bool(c + e < allowed), "reason": None}
        why.append(f"SGD's level change {c:.2g} is within {z:g} times its noise ({_g(out['SGD noise'])}) of {share:g} of the floors' gap "
                   f"({allowed:.2g})")
    return out | {"outcome": None, "reason": "; and ".join(why) + ("" if out["note"] is None else f" ({out['note']})")}


def three_valued_readings(outcome_at, table: pd.DataFrame, values, *, chosen, by: str, seed: int = 0, chosen_support=None) -> list:
    """The readings of a cut-off of ours (``[{"value", "verdict"[, "support"]}]``, sorted, ``chosen`` added) for a claim whose
    reading is three-valued, ``outcome_at(table, value) -> True / False / None``: an undecided reading is ``inconclusive``
    (measured, deciding nothing; session 58's review: D4.2-sgd's readings said ``not measured`` beside an inconclusive
    verdict), a decided one stands on its bootstrap support over ``by`` (:func:`~inferopt.experiment.support.agreeing_test`; ``inconclusive`` below 90 %).
    A cut-off may be a list (several cut-offs read together, as :func:`~inferopt.experiment.support.supported_readings` takes):
    lists are sorted and told apart as tuples. ``chosen_support``: the chosen value's support where the caller has it
    already (:func:`~inferopt.experiment.support.bootstrap_support` of the same agreeing test over ``by`` with ``seed``;
    session 61's re-read, item 8: computed once), used instead of bootstrapping it again."""
    if not callable(outcome_at):
        raise TypeError(f"outcome_at must be callable (table, value) -> True / False / None; got {type(outcome_at).__name__}")

    def key(v):
        return tuple(v) if isinstance(v, list | tuple) else v
    out = []
    for v in sorted({key(v): v for v in (*values, chosen)}.values(), key=key):
        point = outcome_at(table, v)
        if point is None:
            out.append({"value": v, "verdict": "inconclusive"})
            continue
        support = (chosen_support if chosen_support is not None and key(v) == key(chosen)
                   else bootstrap_support(agreeing_test(lambda t, v=v: outcome_at(t, v), point), table, by=by, seed=seed))
        out.append({"value": v, "verdict": supported_verdict(bool(point), support), "support": support["fraction_holding"]})
    return out


# ----------------------------------------------------------------------------- D4.1: faster, or a tie


def d41_reading(table: pd.DataFrame, start: float, optimum: float, *, margin: float = D41_MARGIN, z: float = 2.0,
                column: str = "mean RMSE", reference: str = "optimal", others=("poisson", "negative binomial")) -> dict:
    """D4.1 ("other distributions ... converge slower than the optimal distribution", Sec. 5.1 on Fig. 2(c)) with an
    equivalence side (session 58's review: :func:`~.completion.d41_test`, "the lowest median", could never fail on a tie).
    The ``reference`` arm's lead over each of ``others`` is their median ``column`` (default the test RMSE averaged over the
    run, the area under the curve) less its own, its standard error that of the two medians' difference
    (:func:`_kept_median_se`: a run whose value is above ``start`` left out of the spread; with fewer than two left, the
    plain standard error over all the arm's runs, named), read against ``margin`` times the way from the ``start``'s test
    RMSE to the ``optimum``'s:

    * *holds* where every lead less ``z`` standard errors exceeds that (decisively faster by more than the margin);
    * *fails* where one lead plus ``z`` standard errors is below it (at most a tie: not faster);
    * else undecided (None, the reason named, with what would decide it on D4.1's own statistic: the seeds at which ``z``
      standard errors of each undecided lead would clear the margin, :func:`_units_to_clear`; session 61's re-read, item 5).

    An arm whose median itself lies above ``start`` diverged (session 59's re-read): the ``reference`` arm diverged where an
    other did not fails for that other (not faster); an other diverged where the reference did not is faster where the
    reference's way below ``start`` less ``z`` of its standard errors exceeds the margin (the other's median is above the start: a
    lower bound of the lead, without its noise); both diverged is undecided.

    A NaN value (a run that blew up) counts as diverged. Returns ``{"outcome", "reason", "lead": {other: lead}, "se": {other:
    se}, "allowed", "way", "diverged arms", "note"}``
    (``note``: the diverged arms and the noise's fallbacks in words, None where there are none)."""
    check_choice("column", column, ("mean RMSE", "final RMSE"))
    name = pd.unique(_runs(table, column).dataset)[0]
    start, optimum = check_real("start", start), check_real("optimum", optimum)
    if not optimum < start:
        raise ValueError(f"the optimum's test RMSE {optimum} must be below the start's {start}: the way has no length")
    margin, z = check_real("margin", margin, low=0.0), check_real("z", z, low=0.0)
    if isinstance(others, str) or not list(others):
        raise ValueError(f"others must be a non-empty list of arm names; got {others!r}")
    values = {}
    for a in (reference, *others):
        v = table.loc[(table.dataset == name) & (table.method == a), column].to_numpy(float)
        if v.size == 0:
            raise ValueError(f"the table has no run of {a} on {name}")
        values[a] = np.where(np.isnan(v), np.inf, v)   # a run that blew up (NaN) diverged
    median, se_arm, gone, note = _arms_noise(values, start)
    lead = {o: median[o] - median[reference] for o in others}
    se = {o: float(np.hypot(se_arm[reference], se_arm[o])) for o in others}
    allowed = margin * (start - optimum)
    both = [o for o in others if reference in gone and o in gone]
    tied = [o for o in others if (reference in gone and o not in gone)
            or (reference not in gone and o not in gone and lead[o] + z * se[o] < allowed)]
    faster = [o for o in others if reference not in gone and (
        start - median[reference] - z * se_arm[reference] > allowed if o in gone else lead[o] - z * se[o] > allowed)]
    out = {"lead": lead, "se": se, "allowed": allowed, "way": start - optimum, "diverged arms": gone, "note": note}
    if tied:
        return out | {"outcome": False, "reason": None}
    if len(faster) == len(lead):
        return out | {"outcome": True, "reason": None}
    why = [f"the {reference} arm and {o} both diverged" for o in both] + [
        (f"{o} diverged, but the {reference} arm's way below the start ({start - median[reference]:.2g} {column}) is within {z:g} times "
         f"its standard error ({_g(se_arm[reference])}) of {margin:g} of the way to the optimum ({allowed:.2g})") if o in gone else
        (f"the {reference} arm's lead over {o} ({lead[o]:+.2g} {column}) is within {z:g} times its standard error ({_g(se[o])}) of "
         f"{margin:g} of the way to the optimum ({allowed:.2g})") for o in others if o not in faster and o not in both]
    close = [o for o in others if o not in faster and o not in both and o not in gone and reference not in gone and np.isfinite(se[o])]
    runs = min(int(values[a].size) for a in (reference, *others))
    decide = ([f"what would decide it: more seeds at these runs' length, the seeds at which {z:g} standard errors of the lead would clear "
               f"the margin, were they to fall as one over the square root of the seeds: "
               + ", ".join(f"{o} {_units_to_clear(runs, z, se[o], lead[o] - allowed)}" for o in close) + f" ({runs} seeds an arm now)"] if close else [])
    return out | {"outcome": None, "reason": "; ".join(why + decide) + ("" if note is None else f" ({note})")}


def d41_cell(setting: dict, reading: dict, support: dict | None, *, seeds: int, main_seeds: int) -> dict:
    """A verdict-map cell of D4.1 (:func:`~.completion.seeded_cell`, our construction on the stand-in) from its
    :func:`d41_reading` and the bootstrap ``support`` of that reading's outcome (:func:`~inferopt.experiment.support.agreeing_test`): an undecided reading is
    an ``inconclusive`` cell, measured but not decisive (no support kept), its reason under ``undecided``, joined to
    seeded_cell's own note (too few seeds) where it has one; None (the panel's gate unmet): not measured."""
    from .completion import seeded_cell

    if reading is None:
        return seeded_cell(setting, None, support=None, seeds=seeds, main_seeds=main_seeds, construction="ours", data="stand-in")
    if not isinstance(reading, dict) or "outcome" not in reading:
        raise TypeError(f"reading must be d41_reading's; got {reading!r}")
    if reading["outcome"] is None:
        out = seeded_cell(setting, False, support=None, seeds=seeds, main_seeds=main_seeds, construction="ours", data="stand-in")
        return out | {"verdict": "inconclusive", "undecided": "; ".join([*([out["undecided"]] if "undecided" in out else []), str(reading["reason"])])}
    return seeded_cell(setting, bool(reading["outcome"]), support=support, seeds=seeds, main_seeds=main_seeds, construction="ours",
                       data="stand-in")


def d41_diagnosis(reading: dict, cells, text: str, *, chosen: dict, no_authors_construction: str):
    """The diagnosis D4.1 is recorded with: :class:`~inferopt.experiment.claims.Unearned` with the reason where the chosen
    cell's :func:`d41_reading` is undecided; else :func:`~.completion.completion_diagnosis` over the verdict map ``cells``
    (:func:`d41_cell`; ``setting`` where another cell holds decisively, ``paper`` only where the whole map earns it, else
    Unearned naming what it lacks). ``text`` states the mechanism with its numbers."""
    from ..claims import Unearned
    from .completion import completion_diagnosis

    if not isinstance(reading, dict) or "outcome" not in reading:
        raise TypeError(f"reading must be d41_reading's; got {reading!r}")
    if reading["outcome"] is None:
        return Unearned(str(reading["reason"]), {"reading": {k: v for k, v in reading.items() if k != "outcome"}})
    return completion_diagnosis(cells, text, chosen=chosen, no_authors_construction=no_authors_construction)


def variance_split(points: dict, rule: str = "optimal", *, M: int, others=()) -> dict:
    """How the gradient variance at each point of :func:`d43_exact_reading`'s ``points`` (at ``M`` probes a step)
    splits into its probe part (``"probe part " + rule``: ``E_n[Var_v(g | n)]``, the probes' noise given the degree drawn)
    and its degree part (``"degree term " + rule``: the variance over the degree of the exact-trace gradient), for ``rule``
    and for the excess of each of ``others`` over it. Both parts depend on the distribution (session 61's re-read, item 2:
    at D4's optimum the probe parts were ~29,000, 141,000 and 111,000 against degree parts of ~100): eq. (12) weighs the
    ``j``-th Chebyshev term of every probe's estimate by ``b_j / P(n >= j)``, so the degrees a distribution draws and their
    importance weights set its probes' noise as well. Algorithm 1 (line 3) draws one degree a step for all ``M`` probes,
    so the probe part falls as ``1/M`` for every distribution and the degree part does not (D4.1's mechanism, session 58's
    review: at M = 30 the probes' noise is almost all of it). Returns ``{point: {"variance", "probe part", "degree part",
    "probe share", "M for half"} | {"probe excess " + o, "degree excess " + o}}``: ``"M for half"``, the probes a step at
    which ``rule``'s own degree part would be half its variance (``M`` times its probe part over its degree part; ``inf``
    with no degree part), of ``rule`` alone, not of the excess; the excesses in the variance's units (the degree excess
    ``inf`` or ``nan`` where a degree term is unbounded). A variance not above 0 has no shares: ValueError."""
    if not isinstance(points, dict) or not points:
        raise TypeError(f"points must be d43_exact_reading's points; got {points!r}")
    M = check_int("M", M, low=1)
    if isinstance(others, str):
        raise ValueError(f"others must be a list of rule names; got {others!r}")
    out = {}
    for pt, v in points.items():
        for r in (rule, *others):
            if f"probe part {r}" not in v or f"degree term {r}" not in v:
                raise ValueError(f"points[{pt!r}] must hold {r!r}'s probe part and degree term")
        probe, deg = float(v[f"probe part {rule}"]), float(v[f"degree term {rule}"])
        var = probe + deg
        if not var > 0.0:
            raise ValueError(f"points[{pt!r}]: {rule!r}'s variance is {var!r}: no share of it to read")
        out[pt] = {"variance": var, "probe part": probe, "degree part": deg, "probe share": probe / var,
                   "M for half": M * probe / deg if deg > 0.0 else float("inf")}
        with np.errstate(invalid="ignore"):   # inf - inf: both degree terms unbounded, nan (said "unbounded" in the texts)
            for o in others:
                out[pt] |= {f"probe excess {o}": float(v[f"probe part {o}"]) - probe, f"degree excess {o}": float(v[f"degree term {o}"]) - deg}
    return out


def _amount(x: float, sign: str = "+") -> str:
    """A variance as text (``sign`` "+": signed); a non-finite one (an unbounded degree term) in words, never printed as nan
    or inf."""
    return "unbounded" if not np.isfinite(x) else f"{x:{sign},.0f}" if abs(x) >= 1000 else f"{x:{sign}.3g}"


def excess_split_text(split: dict, *, M: int, others, reference: str = "optimal") -> str:
    """The measured split of each of ``others``' gradient-variance excess over the ``reference`` one's into its probe and
    degree parts at each point (:func:`variance_split` with ``others``), as the sentence D4.1's and D4.3's texts carry
    (session 61's re-read, item 2: it replaces "the degree part, the only place the distributions differ ... a larger M
    makes the degree distribution more visible", which D4's own numbers contradict): the probe part falls as ``1/M`` and
    differs by distribution through eq. (12)'s importance weights; with ``M`` infinite only the degree parts would remain,
    each other's above the reference's as a share of it; and ``"M for half"``, worded as what it is: where the reference
    arm's own degree part would be half its variance. An unbounded degree term is said "unbounded"."""
    M = check_int("M", M, low=1)
    if isinstance(others, str) or not list(others):
        raise ValueError(f"others must be a non-empty list of rule names; got {others!r}")
    if not isinstance(split, dict) or not split or any(f"probe excess {o}" not in v for v in split.values() for o in others):
        raise ValueError(f"split must be variance_split's with others {list(others)}; got {split!r}")

    def share(v, o):
        x = v[f"degree excess {o}"] / v["degree part"] if v["degree part"] > 0.0 else float("nan")
        return "unbounded" if not np.isfinite(x) else f"{x:+.1%}"
    excess = "; ".join(f"at the {pt} " + ", ".join(f"{o} {_amount(v[f'probe excess {o}'])} in the probe part and "
                                                   f"{_amount(v[f'degree excess {o}'])} in the degree part" for o in others)
                       + f" (the {reference} one's variance {_amount(v['variance'], '')}, {v['probe share']:.2%} of it its probe part)"
                       for pt, v in split.items())
    limit = "; ".join(f"at the {pt} " + ", ".join(f"{o} {share(v, o)}" for o in others) for pt, v in split.items())
    half = " and ".join(f"{v['M for half']:,.0f} at the {pt}" if np.isfinite(v["M for half"]) else f"never at the {pt} (no degree part)"
                        for pt, v in split.items())
    return (f"Measured at M = {M} probes a step (ours: the paper gives none), each other distribution's gradient variance above the "
            f"{reference} one's splits into a probe part and a degree part: {excess}. Algorithm 1 (line 3) draws one degree a step for "
            "all M probes, so the probe part falls as 1/M for every distribution and the degree part does not; the probe parts differ "
            "by distribution because eq. (12) weighs the j-th Chebyshev term of each probe's estimate by b_j / P(n >= j), so the "
            "degrees a distribution draws and their importance weights set its probes' noise too. With M infinite only the degree "
            f"parts would remain, each other's above the {reference} one's as a share of it: {limit}. The {reference} arm's own degree "
            f"part would be half its own gradient variance at M = {half} (its alone: not where the distributions' difference shows).")


def level_off_estimate(table: pd.DataFrame, arm: str, *, start: float, optimum: float, decay: float, window: float, noise: float,
                       z: float = 2.0, eval_every: int = 1, longest: int = 100) -> dict:
    """The steps at which ``arm``'s median run would level off (session 61: D4.1's and D4.2's verdicts are the budget's while
    every arm still falls), estimated from its committed curve's summary in ``table`` (:func:`~.completion.run_table` with
    :func:`~.completion_degrees.run_levels`' ``level`` and ``drift``): the medians over the seeds of the test RMSE at half
    the run's steps and at its end and the means over the two halves of the last ``window`` of its steps (``level`` plus and
    less half the ``drift``), with ``start`` at step 0. Fitted (least squares) by ``optimum + A (1 + decay t)^-alpha``: the
    asymptote pinned at the model's optimum (unbiased SGD's limit as the step ``eta_0 / (1 + decay t)`` decays; a free
    asymptote does not settle on a curve still linear in ``log(1 + decay t)``), the power law of a linear rate in the sum of
    those steps. Levelled off at the first ``T`` (a multiple of ``eval_every``, up to ``longest`` times the run's steps)
    whose window, read as :func:`~.completion_degrees.run_levels` reads it, falls by at most ``z`` times ``noise`` (D4.2's
    rule). An estimate, not a measurement: for SGD-DET, whose limit is its own floor above the optimum, it is an upper
    bound. Returns ``{"steps" (None: not within the horizon), "share" (of the way from ``start`` to ``optimum`` there),
    "A", "alpha", "rms" (the fit's residual)}``."""
    from scipy.optimize import least_squares

    check_table("table", table, ("method", "iterations", "half-time RMSE", "final RMSE", "level", "drift"))
    start, optimum = check_real("start", start), check_real("optimum", optimum)
    if not optimum < start:
        raise ValueError(f"the optimum's test RMSE {optimum} must be below the start's {start}: the way has no length")
    decay, window = check_real("decay", decay, low=0.0, low_open=True), check_real("window", window, low=0.0, low_open=True, high=1.0)
    noise, z = check_real("noise", noise, low=0.0, low_open=True), check_real("z", z, low=0.0)
    eval_every, longest = check_int("eval_every", eval_every, low=1), check_int("longest", longest, low=1)
    med = {c: float(np.median(_arm(table, arm, c))) for c in ("iterations", "half-time RMSE", "final RMSE", "level", "drift")}
    T0 = int(med["iterations"])

    def curve(q, t):
        return optimum + q[0] * (1.0 + decay * np.asarray(t, dtype=float)) ** -q[1]

    def halves(q, T):
        e = np.arange(0, T + 1, eval_every)
        w = e[e >= T - window * T]
        h = w.size // 2
        return float(curve(q, w[:h]).mean()), float(curve(q, w[-h:]).mean())

    def residuals(q):
        first, last = halves(q, T0)
        return [curve(q, 0) - start, curve(q, T0 // 2) - med["half-time RMSE"], first - (med["level"] + med["drift"] / 2),
                last - (med["level"] - med["drift"] / 2), curve(q, T0) - med["final RMSE"]]
    fit = least_squares(residuals, [start - optimum, 0.5], bounds=([0.0, 0.0], [np.inf, np.inf]))
    q = fit.x
    steps = next((T for T in range(T0, longest * T0 + 1, eval_every) if np.subtract(*halves(q, T)) <= z * noise), None)
    share = None if steps is None else float((start - curve(q, steps)) / (start - optimum))
    return {"steps": steps, "share": share, "A": float(q[0]), "alpha": float(q[1]), "rms": float(np.sqrt(np.mean(np.square(fit.fun))))}


def level_off_text(table: pd.DataFrame, arms, reading: dict, *, noise: float, what: str, start: float, optimum: float, decay: float,
                   window: float, eval_every: int, iters: int, per_step: float, longest: int = 100, also: str = "") -> str:
    """What would decide a claim read on the levels of ``arms`` while they still fall (D4.2, D4.2-sgd; review D4c), as the
    text its claim carries -- only where its ``reading`` is undecided (session 61's re-read, item 5: "" where it decided):
    the steps at which each arm's median run would level off, its window falling by at most twice ``noise`` (the noise its
    claim reads, named by ``what``; :func:`level_off_estimate` on ``table`` with ``start``, ``optimum``, ``decay``,
    ``window``, ``eval_every``, up to ``longest`` times the runs' ``iters``), and its cost at ``per_step`` CPU s a step of
    the main runs; ``also``: what else it needs, appended."""
    if not isinstance(reading, dict) or "outcome" not in reading:
        raise TypeError(f"reading must be a claim's reading with an outcome; got {reading!r}")
    if reading["outcome"] is not None:
        return ""
    iters, longest = check_int("iters", iters, low=1), check_int("longest", longest, low=1)
    per_step = check_real("per_step", per_step, low=0.0)
    tail = f" {also}" if also else ""
    if not np.isfinite(noise) or not noise > 0:
        return "What would decide it: runs that level off; no estimate of the steps (the noise it reads is not a positive number: too few runs)." + tail
    est = {a: level_off_estimate(table, a, start=start, optimum=optimum, decay=decay, window=window, noise=noise, eval_every=eval_every,
                                 longest=longest) for a in arms}
    late = [a for a, e in est.items() if e["steps"] is None]
    if late:
        return f"What would decide it: runs that level off; on a fit of the median curves, {', '.join(late)} would not within {longest * iters:,} steps." + tail
    T = max(e["steps"] for e in est.values())
    if T <= iters:
        return (f"On a fit of each arm's median curve ({', '.join(est)}) the runs have levelled off within their {iters:,} steps (their windows "
                f"falling by at most twice {noise:.2g}): the budget does not decide it." + tail)
    return (f"What would decide it ({what}): runs long enough to level off. On a fit of each arm's median curve (optimum + A (1 + {decay:g} t)^-alpha, "
            "the asymptote pinned at the model's optimum; an estimate, for SGD-DET, whose limit is its own floor, an upper bound) "
            + ", ".join(f"{a} levels off (its window falling by at most twice {noise:.2g}) at about {e['steps']:,} steps ({e['share']:.2f} of the way; "
                        f"alpha {e['alpha']:.2f}, fit residual {e['rms']:.2g})" for a, e in est.items())
            + f": {T:,} steps against {iters:,}, about {T * per_step:,.0f} CPU s for the main runs at these runs' {per_step:.3g} CPU s a step "
            "(every arm and seed), the map's runs and the fixed parts beside." + tail)


def settled_fixed_point(problem, starts: dict, degree: int, **kwargs):
    """SGD-DET's own fixed point (:func:`~.completion_degrees.det_own_fixed_point`, ``kwargs`` its options) tried from each
    of ``starts`` (``{label: θ}``, in order; D4: the end of SGD-DET's median run at that degree first, then the model's
    optimum) until one settles (L-BFGS-B converged and the intervals self-consistent; session 45's fresh review: from the
    optimum the N = 10 floor's intervals cycled, 1.1375 above the runs' 1.071). Returns ``(θ_n, info)`` of the first that
    settles, else of the last, ``info`` with ``"start"`` (its label) and ``"tried"`` (the labels tried)."""
    if not isinstance(starts, dict) or not starts:
        raise TypeError(f"starts must be a non-empty mapping label -> starting point; got {starts!r}")
    tried = []
    for label, theta0 in starts.items():
        tried.append(str(label))
        theta, info = det_own_fixed_point(problem, theta0, degree, **kwargs)
        if info["converged"] and info["self-consistent"]:
            break
    return theta, info | {"start": tried[-1], "tried": tried}


def chosen_cell_diagnosis(reading: dict, support: dict, *, setting: dict, seeds: int, main_seeds: int, text: str, stand_in: dict,
                          no_authors_construction: str):
    """The diagnosis a claim decided at the chosen cell only is recorded with (D4.2 and D4.2-sgd; issue 41's pre-run review,
    item 1: D4.2 could not fail, every other cell of its map being ``not measured``, so
    :func:`~inferopt.experiment.verdict_map.map_diagnosis` could never earn one). ``reading``: the claim's reading
    (``{"outcome": True | False | None, "reason"}``, :func:`d42_det_reading`, :func:`d42_sgd_reading`); undecided, it
    gives :class:`~inferopt.experiment.claims.Unearned` with its reason (inconclusive); decided, the chosen cell
    (:func:`~.completion.seeded_cell`: ``seeds`` independent units, its bootstrap ``support``) goes to
    :func:`~.completion.completion_diagnosis` with ``stand_in`` (``{"text", "evidence"}``: MovieLens 100K for 1M, with the
    power of the test): a decisive failure is ``stand-in`` (``fails``), a failure short of 90 % support Unearned
    (inconclusive)."""
    from ..claims import Unearned
    from .completion import completion_diagnosis, seeded_cell

    if not isinstance(reading, dict) or "outcome" not in reading:
        raise TypeError(f"reading must be a claim's reading with an outcome (d42_det_reading's); got {reading!r}")
    if reading["outcome"] is None:
        return Unearned(str(reading.get("reason")), {"reading": {k: v for k, v in reading.items() if k != "outcome"}})
    chosen = seeded_cell(setting, bool(reading["outcome"]), support=support, seeds=seeds, main_seeds=main_seeds,
                         construction="ours", data="stand-in")
    return completion_diagnosis([chosen], text, chosen=chosen["setting"], stand_in=stand_in,
                                no_authors_construction=no_authors_construction)


# ----------------------------------------------------------------------------- D4.3 on Var_C; beside it, the gradient variance


def _degree_sq(lam, eps: float, series, weights, base) -> float:
    """``||∇ tr p_w(A) - ∇ tr p_base(A)||_F²`` (Chebyshev weights ``w``, ``base`` on ``series``' interval) from the
    eigenvalues ``lam`` of the smaller Gram matrix of ``θ``: ``∇ tr h(θθᵀ + εI) = θ U diag(2h'(λ + ε)) Uᵀ`` (or
    ``U diag(·) Uᵀ θ``), whose squared norm is ``Σ_i λ_i (2h'(λ_i + ε))²`` (``||θ u_i||² = λ_i``)."""
    x = lam + eps
    dev = 2.0 * (_series_derivative(weights, series.a, series.b, x) - _series_derivative(base, series.a, series.b, x))
    return float(np.sum(lam * dev ** 2))


def _kept_degrees(rule, least: float):
    """The degrees a run reaches, of a random-degree ``rule``: ``n = 0 .. L - 2`` (``L`` its series' coefficients; at
    ``n >= L - 1`` the estimator is the whole reweighted series) with ``P(N >= n) >= least`` (a tail-mass cut, session 63's
    pre-run review helper-437: a cut on each degree's own probability left out the optimal distribution's geometric tail,
    degrees each rare but drawn as a whole, and turned D4.3 at the optimum), with their probabilities ``q`` (not
    renormalised: the mass left out, ``P(N > n_max)``, is below ``least``): the sum :func:`degree_term` and
    :func:`exact_gradient_variances` take over the rule's distribution."""
    n = np.arange(rule.series.coeffs.size - 1)
    q = np.asarray(rule.distribution.pmf(n), dtype=float)
    keep = (q > 0) & (np.asarray(rule.distribution.tail(n), dtype=float) >= least)
    return n[keep], q[keep]


def _degree_rule(name: str, rule):
    if not hasattr(rule, "series"):
        raise TypeError(f"{name} must be a degree rule (make_degree_rule); got {type(rule).__name__}")
    return rule


def degree_term(theta, eps: float, rule, *, budget=None) -> float:
    """The degree part of a random-degree rule's gradient variance at ``theta`` (issue 41's pre-run review, item 3;
    Lemma 1's estimator (7) with exact traces): ``E_n ||∇ tr p̂_n(A) - ∇ tr f_L(A)||²`` over the rule's distribution
    (``p̂_n``: the series reweighted by ``1/P(n >= j)`` and cut at ``n``, Eq. (7); ``f_L``: the chopped series the rule
    draws from), summed exactly over ``n = 0 .. L - 2`` (:func:`_kept_degrees`).
    ``rule``: :func:`~inferopt.spectral.make_degree_rule`'s random-degree rule; a fixed degree has no degree term (0).

    ``budget``: the number of degrees the runs draw (a run's steps, or every run of an arm pooled); given, only the degrees
    a run reaches count, those ``n`` with ``P(N >= n) >= 1/budget`` (:func:`_kept_degrees`; session 45's fresh review: the realisable part; over the whole distribution the term is
    dominated by degrees no run draws, Poisson's 1e300-fold reweights overflowing to ``inf`` and the negative binomial's
    3.7e54 at paper scale, so that it decided D4.3 where the runs' variance is almost all probe noise). None: the whole
    distribution (``inf`` where the reweighted coefficients overflow double precision)."""
    theta = as_finite_array("theta", theta, ndim=2, nonempty=True)
    eps = check_real("eps", eps, low=0.0, low_open=True)
    least = 0.0 if budget is None else 1.0 / check_real("budget", budget, low=1.0)
    rule = _degree_rule("rule", rule)
    return _degree_part(_eig_side(theta)[0], eps, rule, least) if getattr(rule, "distribution", None) is not None else 0.0


def _degree_part(lam, eps: float, rule, least: float) -> float:
    """:func:`degree_term`'s sum from the eigenvalues ``lam`` of the smaller Gram matrix of ``θ`` (``θ``'s squared singular
    values), for a random-degree ``rule`` over the degrees of :func:`_kept_degrees` at ``least``."""
    dist, series = rule.distribution, rule.series
    n, q = _kept_degrees(rule, least)
    with np.errstate(over="ignore", invalid="ignore"):
        total = float(sum(qk * _degree_sq(lam, eps, series, dist.reweight(series.coefficients(int(k))), series.coeffs)
                          for qk, k in zip(q, n)))
    return total if np.isfinite(total) else float("inf")


def exact_gradient_variances(theta, eps: float, rules: dict, *, M: int, budget=None) -> pd.DataFrame:
    """The stochastic gradient's variance of each degree rule of ``rules`` at ``theta``, exactly (session 63, settling
    review helper-435's finding on D4.3: a Monte-Carlo estimate at the optimum was dominated by single high-degree
    draws): ``E ||g - ∇ tr f_L(A)||²`` for ``g`` the gradient of Eq. (12)'s estimator ``(1/M) Σ_k v_kᵀ p̂_n(Ã) v_k``
    (Rademacher probes ``v_k``, degree ``n`` drawn by the rule, ``A = θθᵀ + εI``, :func:`~inferopt.spectral.gradients
    .grad_lowrank`), split as ``probe part + degree part`` (:func:`degree_term`): both summed exactly over the same
    degrees (:func:`_kept_degrees`, those with ``P(N >= n) >= 1/budget``; a fixed degree: its own), nothing sampled.

    The probe part at a degree, from ``θ = Ũ diag(s) Wᵀ`` (thin SVD, ``k = min(d, r)``; ``A``'s eigenvalues ``x_b = s_b² + ε``
    on ``Ũ``, ``ε`` on the other ``d - k`` directions) and the divided differences ``Γ_ab = [x_a, x_b] p̂_n`` (Daleckii-Krein:
    ``∇_θ vᵀ p(A) v = 2 U (Γ ∘ uuᵀ) Uᵀ θ``, ``u = Uᵀ v``): ``(4/M) Σ_{b <= k} s_b² [Σ_{a <= k} Γ_ab² (1 + δ_ab - 2 Q_ab)
    + Γ_⊥b² (d - k - 2 N_b)]``, with ``E (u_a u_b - δ_ab)² = 1 + δ_ab - 2 Q_ab`` for Rademacher probes (fourth moment 1),
    ``Q = (Ũ ∘ Ũ)ᵀ (Ũ ∘ Ũ)``, ``N_b = Σ_i (1 - h_i) Ũ_ib²`` (``h``: ``Ũ``'s row norms², the null directions' part, whatever
    their basis). The divided differences of ``T_j`` follow the three-term recurrence, ``D_{j+1}(x, y) = 2x D_j(x, y) +
    2 T_j(y) - D_{j-1}(x, y)`` (``D_0 = 0``, ``D_1 = 1``, on the interval's variable), so every degree of every rule
    comes from one pass over ``j``: ``O(J k²)`` for the largest degree ``J``, no product with ``A``.

    ``rules``: ``{name: make_degree_rule(...)}`` on one series (one interval). Returns one row per rule: ``rule, probe
    part, degree part, variance, largest degree`` (the largest degree counted)."""
    theta = as_finite_array("theta", theta, ndim=2, nonempty=True)
    eps = check_real("eps", eps, low=0.0, low_open=True)
    M = check_int("M", M, low=1)
    least = 0.0 if budget is None else 1.0 / check_real("budget", budget, low=1.0)
    if not isinstance(rules, dict) or not rules:
        raise TypeError("rules must be a non-empty mapping name -> degree rule")
    series = None
    plan = {}   # name -> (weights over j, {degree: probability})
    for name, rule in rules.items():
        rule = _degree_rule(f"rules[{name!r}]", rule)
        if series is None:
            series = rule.series
        elif (rule.series.a, rule.series.b) != (series.a, series.b) or rule.series.coeffs.size != series.coeffs.size:
            raise ValueError(f"rules[{name!r}] is on another series than the first rule's: every rule must share one interval")
        dist = getattr(rule, "distribution", None)
        if dist is None:
            plan[name] = (rule.series.coefficients(rule.degree), {int(rule.degree): 1.0})
        else:
            n, q = _kept_degrees(rule, least)
            with np.errstate(over="ignore"):
                plan[name] = (dist.reweight(series.coeffs), dict(zip(n.tolist(), q.tolist())))
    d = theta.shape[0]
    U, s, _ = np.linalg.svd(theta, full_matrices=False)
    k = s.size
    sig, c = 2.0 / (series.b - series.a), (series.b + series.a) / (series.b - series.a)
    xt, xn = sig * (s ** 2 + eps) - c, sig * eps - c     # the eigenvalues on the interval's variable; the null directions'
    U2 = U * U
    Q = U2.T @ U2
    weight = (s ** 2)[None, :] * (1.0 + np.eye(k) - 2.0 * Q)                  # [a, b]
    null = (s ** 2) * (d - k - 2.0 * ((1.0 - U2.sum(axis=1)) @ U2))           # [b]
    J = max(max(deg) for _, deg in plan.values())
    D_prev, D = np.zeros((k, k)), np.ones((k, k))          # D_0, D_1 on (x_a, x_b)
    N_prev, N = np.zeros(k), np.ones(k)                    # D_0, D_1 on (x_null, x_b)
    T_prev, T = np.ones(k), xt.copy()                      # T_0, T_1 at x_b
    gam = {name: np.zeros((k, k)) for name in plan}
    gam_null = {name: np.zeros(k) for name in plan}
    probe = dict.fromkeys(plan, 0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        for j in range(1, J + 1):                          # T_0 is constant: no gradient
            for name, (w, degrees) in plan.items():
                if j > max(degrees):                       # past the rule's last degree counted: nothing left to add
                    continue
                if j < w.size and w[j] != 0.0:
                    gam[name] += w[j] * D
                    gam_null[name] += w[j] * N
                if j in degrees:
                    probe[name] += degrees[j] * float(np.sum(gam[name] ** 2 * weight) + gam_null[name] ** 2 @ null)
            D_prev, D = D, 2.0 * xt[:, None] * D + 2.0 * T[None, :] - D_prev
            N_prev, N = N, 2.0 * xn * N + 2.0 * T - N_prev
            T_prev, T = T, 2.0 * xt * T - T_prev
    rows = []
    for name, rule in rules.items():
        p = 4.0 * sig ** 2 * probe[name] / M
        p = p if np.isfinite(p) else float("inf")
        g = _degree_part(s ** 2, eps, rule, least) if getattr(rule, "distribution", None) is not None else 0.0
        rows.append({"rule": str(name), "probe part": p, "degree part": g, "variance": p + g, "largest degree": max(plan[name][1])})
    return pd.DataFrame(rows)


def _every(outcomes) -> bool | None:
    """The three-valued conjunction D4.3 reads the other rules at a point with (:func:`d43_exact_reading`; the points are
    readings, not conjuncts): False where one outcome is False, True where every one is True (and there is one), else
    None (undecided)."""
    outcomes = list(outcomes)
    return False if False in outcomes else True if outcomes and all(o is True for o in outcomes) else None


def d43_exact_reading(table: pd.DataFrame, *, margin: float = D43_MARGIN, z: float = 2.0, reference: str = "optimal",
                      others=("poisson", "negative binomial"), made=None, gate_share: float = 0.0, probe_weight: float = 1.0,
                      exact=("optimum",)) -> dict:
    """The runs' gradient variance, D4.3 ("other distributions have relatively large variances so that they converge slower",
    Sec. 5.1 on Fig. 2(c); session 61: the variance the runs see, decided at their own ``M``, :func:`d43_claim_args`), on
    :func:`exact_gradient_variances`' rows (columns ``point, unit, rule, probe part, degree part``: one unit per point where
    it is one computation, e.g. the optimum; one per seed on the path, the end of each seed's run).

    A rule's variance at a point is ``probe_weight`` times its probe part plus its degree part, averaged over the point's
    units; the excess of ``other`` over ``reference`` is the mean of the units' paired differences over the reference's mean
    variance, ``r``, its standard error ``se_r`` the paired differences' over the seeds (0 at a point of ``exact``, a single
    computation with nothing random in it: session 63, the variance is exact, nothing sampled; one unit elsewhere: ``inf``).
    At each point:

    * *holds* when ``r - z se_r > margin`` for every other rule (decisively larger by more than the margin);
    * *fails* when ``r + z se_r < margin`` for one (decisively within the margin: not "relatively large"; an equivalence
      reading, so that a small difference measured precisely decides);
    * else undecided there; an unbounded (``inf``) variance, an overflow, decides nothing.

    The points are readings of where the claim is read (the paper does not say; session 63, settling review helper-435: a
    point is no conjunct of the claim, as the other distributions are): ``outcome`` is the deciding points' common outcome
    where every one decides and they agree, else None; ``turns`` says two deciding points decided apart (:func:`d43_claim_args`
    then records a ``reading`` diagnosis). ``made``: ``{point: share of the way from the runs' start to the optimum}``; a point
    short of ``gate_share`` (D4.1's gate: the variance where the runs never were is not what they feel) is recorded but decides
    nothing; None: every point decides. ``probe_weight``: the variance at ``M'`` probes (``M / M'``; 0: ``M'`` infinite, exact
    traces, the degree part alone). Returns ``{"outcome", "turns", "reason", "points": {point: {rule: variance, "probe part "
    + rule, "degree term " + rule, "excess " + other (r), "se excess " + other, "units", "past the gate", "outcome"}}}``."""
    check_table("table", table, ("point", "unit", "rule", "probe part", "degree part"))
    margin = check_real("margin", margin, low=0.0)
    z = check_real("z", z, low=0.0)
    gate_share = check_real("gate_share", gate_share, low=0.0, high=1.0)
    w = check_real("probe_weight", probe_weight, low=0.0)
    if isinstance(others, str) or not list(others):
        raise ValueError(f"others must be a non-empty list of rule names; got {others!r}")
    if made is not None and not isinstance(made, dict):
        raise TypeError(f"made must be a mapping point -> share of the way to the optimum; got {type(made).__name__}")
    rules = [reference, *others]
    out, short, unbounded, needs = {}, [], [], []
    for point, rows in table.groupby("point", sort=False):
        check_choices(f"point {point}'s rules", rules, set(rows["rule"]))
        past = True if made is None else check_real(f"made[{point!r}]", made.get(point), low=-np.inf) >= gate_share
        if rows.duplicated(["unit", "rule"]).any():
            raise ValueError(f"point {point}: one row per unit and rule")
        parts = rows.pivot(index="unit", columns="rule", values=["probe part", "degree part"])
        if parts.isna().to_numpy().any() or (parts.to_numpy(float) < 0).any():
            raise ValueError(f"point {point}: every rule needs a non-negative probe part and degree part at every unit")
        var = w * parts["probe part"][rules] + parts["degree part"][rules]
        single = len(var) == 1
        mean = var.mean()
        stats, cmp = {}, []
        for o in others:
            bounded = bool(np.all(np.isfinite(var[[o, reference]].to_numpy(float))))
            if bounded and not mean[reference] > 0.0:
                raise ValueError(f"point {point}: the {reference} rule's variance is {mean[reference]!r}: nothing to read the others against")
            diff = (var[o] - var[reference]).to_numpy(float)
            rel = float(diff.mean() / mean[reference]) if bounded else float("nan")
            se = (0.0 if single and point in exact else _se(diff) / float(mean[reference])) if bounded else float("nan")
            stats |= {f"excess {o}": rel, f"se excess {o}": se}
            unbounded += [] if bounded else [f"{o} at {point}"]
            cmp.append(None if not bounded else True if rel - z * se > margin else False if rel + z * se < margin else None)
            if bounded and cmp[-1] is None and np.isfinite(se):   # what would decide it: the seeds at which z SE clear the margin
                needs.append(f"{o} at the {point} {_units_to_clear(len(var), z, se, rel - margin)}")
        outcome = _every(cmp)
        short += [] if past else [str(point)]
        out[str(point)] = ({r: float(mean[r]) for r in rules}
                           | {f"probe part {r}": w * float(parts["probe part"][r].mean()) for r in rules}
                           | {f"degree term {r}": float(parts["degree part"][r].mean()) for r in rules} | stats
                           | {"units": int(len(var)), "past the gate": bool(past), "outcome": outcome if past else None})
    if not out:
        raise ValueError("table must hold one point at least")
    deciding = {p: v["outcome"] for p, v in out.items() if v["past the gate"]}
    decided = {v for v in deciding.values() if v is not None}
    turns = len(decided) > 1
    overall = next(iter(decided)) if len(decided) == 1 and None not in deciding.values() else None
    undecided = [p for p, v in deciding.items() if v is None]
    why = ([f"the points decide apart ({_points_said(out)}): where the variance is read turns it"] if turns else []) + (
        [f"at {', '.join(undecided)} the excess of the others' variance over the {reference} one's is within {z:g} standard errors "
         f"of the margin {margin:g}" + ("" if all(out[p]["units"] > 1 or p in exact for p in undecided) else " (one unit: no standard error)")
         + (f" (what would decide it, were the standard errors to fall as one over the square root of the seeds: {'; '.join(needs)})"
            if needs else "")]
        if undecided else []) + (
        [f"the variance is unbounded (inf, an overflow: no measured variance) for {', '.join(unbounded)}"] if unbounded else []) + (
        [f"{', '.join(short)} short of D4.1's gate ({gate_share:g} of the way to the optimum): not deciding"] if short else [])
    return {"outcome": overall, "turns": turns, "reason": None if overall is not None else "; ".join(why) or "no point decides",
            "points": out}


def d43_where_text(made: float, iters: int, gate_share: float) -> str:
    """Where D4.3 reads the runs' gradient variance, as its texts say it (session 61's re-read, item 1: the optimum is not a
    point the runs pass; session 63: the path is every seed's end point): the end of each seed's optimal-arm run, its median
    run ``made`` of the way from the start's test RMSE to the optimum's after ``iters`` steps (past D4.1's gate ``gate_share``
    or short of it), and the optimum, where the runs are headed -- exempt from the gate by construction."""
    made = check_real("made", made, low=-np.inf)
    iters = check_int("iters", iters, low=1)
    gate_share = check_real("gate_share", gate_share, low=0.0, high=1.0)
    return (f"on the path, at the end of each seed's optimal-arm run (its median run {made:.3g} of the way from the start's test RMSE to "
            f"the optimum's in {iters:,} steps, {'past' if made >= gate_share else 'short of'} D4.1's gate of {gate_share:g}), and at the "
            "optimum, where the runs are headed: exempt from the gate by construction (SGD's late phase is governed by the variance "
            "near the optimum)")


def point_variances(problem, theta, *, N: int, distributions, p: float, M: int, budget, degrees=()) -> pd.DataFrame:
    """:func:`exact_gradient_variances` at ``theta`` of D4's rules as the runs draw them there: the series of ``sqrt`` on the
    interval the runs read at ``theta`` (``problem.interval``, re-read every step), the random-degree rules of ``distributions``
    with mean ``N`` (the negative binomial's parameter ``p``) and fixed degrees ``degrees`` (SGD-DET's, named ``"SGD-DET
    N=n"``), at ``M`` probes over the degrees a run reaches, ``P(N >= n) >= 1/budget`` (:func:`_kept_degrees`)."""
    from ...spectral import ChebyshevSeries, make_degree_rule

    if not hasattr(problem, "interval") or not hasattr(problem, "eps"):
        raise TypeError(f"problem must be a MatrixCompletion (with interval and eps); got {type(problem).__name__}")
    series = ChebyshevSeries("sqrt", *problem.interval(theta))
    rules = {d: make_degree_rule(series, N=N, distribution=d, p=p) for d in distributions}
    rules |= {f"SGD-DET N={n}": make_degree_rule(series, degree=n) for n in degrees}
    return exact_gradient_variances(theta, problem.eps, rules, M=M, budget=budget)


def d43_excess_text(points: dict, others, *, verdicts: bool = False) -> str:
    """The others' relative gradient-variance excess over the optimal one's at each of :func:`d43_exact_reading`'s
    ``points`` with its standard error, as D4.1's and D4.3's texts carry it; ``verdicts``: each point's outcome after it. An
    unbounded degree term (``nan`` excess; session 61's re-read, item 10) is said "unbounded, not deciding", never printed."""
    if isinstance(others, str) or not list(others):
        raise ValueError(f"others must be a non-empty list of rule names; got {others!r}")
    if not isinstance(points, dict) or not points:
        raise TypeError(f"points must be d43_exact_reading's points; got {points!r}")

    def one(x, o):
        rel, se = float(x[f"excess {o}"]), float(x[f"se excess {o}"])
        if not np.isfinite(rel):
            return f"{o} unbounded, not deciding"
        return f"{o} {rel:+.1%} " + ("(exact)" if se == 0.0 else f"(SE {100 * se:.2g}%)" if np.isfinite(se) else "(one seed: no SE)")

    return "; ".join(f"at the {pt} " + ", ".join(one(x, o) for o in others) + (f": {_point_said(x)}" if verdicts else "")
                     for pt, x in points.items())


def _point_said(point: dict) -> str:
    """One point's outcome of :func:`d43_exact_reading` in words, as D4.3's diagnosis and texts name it."""
    return ("not deciding (short of the gate)" if not point["past the gate"] else "holds" if point["outcome"]
            else "fails" if point["outcome"] is False else "undecided")


def _points_said(points: dict) -> str:
    """Each point's outcome of :func:`d43_exact_reading`, as D4.3's diagnosis names them (a point that holds beside one that
    fails is said, not hidden)."""
    return "; ".join(f"at the {p} {_point_said(v)}" for p, v in points.items())


def d43_claim_args(variances: pd.DataFrame, *, made: float, iters: int, gate_share: float, seed: int, budget: float, budgets,
                   margin: float = D43_MARGIN,
                   margins=D43_MARGIN_READINGS, path: str = "path", headed: str = "optimum") -> dict:
    """D4.3 decided on the variance the runs see (session 61, settling sessions 59's and 60's reviews: the paper's sentence
    "As reported in Figure 2(c), other distributions have relatively large variances so that they converge slower" is about
    the runs; Lemma 2's ``Var_C`` cannot fail here, :func:`lemma2_holds`, beside): :func:`d43_exact_reading` on
    :func:`exact_gradient_variances` at the runs' own ``M`` (``variances``: rows ``point, unit, rule, probe part, degree
    part, budget``), at two points (:func:`d43_where_text`): ``path``, the end of each seed's optimal-arm run (units: the
    seeds), deciding past D4.1's gate (``made``: the share of the way its median run made in ``iters`` steps;
    ``gate_share``), and ``headed``, the optimum, where the runs are headed (exact, one computation), exempt from the gate.

    Three cut-offs of ours, read together (session 63): the margin; where it is read (review helper-435: the paper does not
    say where, and a point is no conjunct of the claim); and which degrees count, those a run reaches, ``P(N >= n) >=
    1/budget`` (:func:`_kept_degrees`; pre-run review helper-437: the cut turns the verdict at the optimum), ``budget`` a
    run's steps or every run of an arm pooled (``budgets``). The threshold is ``[margin, point, budget]`` (point 0:
    ``path``, 1: ``headed``), chosen at ``[margin, 0, budget]`` where the path passes the gate, else at point 1, read at every
    margin of ``margins``, both points and every budget of ``budgets`` (:func:`three_valued_readings`, bootstrap over the
    seeds; the optimum's readings exact), so that decisive readings that disagree make the verdict ``inconclusive``
    (:meth:`Experiment.claim <inferopt.experiment.record.Experiment.claim>`). Returns ``{"reading", "args", "gates"}``: the
    reading at the chosen margin and budget, the claim's keyword arguments (``holds``: the chosen reading's outcome;
    ``support`` over the seeds; ``threshold``; ``diagnosis``: undecided at the chosen reading,
    :class:`~inferopt.experiment.claims.Unearned` with the reason; decisive readings that disagree, ``reading``, naming the
    cut-offs that turn it (:func:`_turning_axes`); every reading failing alike, Unearned too (pre-run review helper-439:
    ``stand-in`` is not earned, nothing showing the paper's data or longer runs would move the excess), and the gate's
    shares."""
    from ..claims import Unearned

    check_table("variances", variances, ("point", "unit", "rule", "probe part", "degree part", "budget"))
    where = d43_where_text(made, iters, gate_share)
    gates = {headed: 1.0, path: float(made)}
    margin = check_real("margin", margin, low=0.0)
    budget = check_real("budget", budget, low=1.0)
    for name, values in (("margins", margins), ("budgets", budgets)):
        if isinstance(values, str) or not hasattr(values, "__iter__"):
            raise TypeError(f"{name} must be a list; got {values!r}")
    margins = [check_real("margins (an entry of)", m, low=0.0) for m in margins]
    budgets = sorted({check_real("budgets (an entry of)", b_, low=1.0) for b_ in (*budgets, budget)})
    missing = [b_ for b_ in budgets if not (variances["budget"] == b_).any()]
    if missing:
        raise ValueError(f"variances must hold rows at every budget; none at {missing}")
    fixed, moving = variances[variances["point"] == headed], variances[variances["point"] == path]
    if fixed.empty or moving.empty:
        raise ValueError(f"variances must hold rows at both points, {path!r} and {headed!r}")
    named = {0: path, 1: headed}

    def reading(t, m, b_):
        rows = pd.concat([t[t["budget"] == b_], fixed[fixed["budget"] == b_]], ignore_index=True)
        return d43_exact_reading(rows, margin=m, made=gates, gate_share=gate_share, exact=(headed,))

    def outcome_at(t, v):
        return reading(t, v[0], v[2])["points"][named[int(v[1])]]["outcome"]
    r = reading(moving, margin, budget)
    chosen = [margin, 0 if r["points"][path]["past the gate"] else 1, budget]
    point = outcome_at(moving, chosen)
    support = bootstrap_support(agreeing_test(lambda t: outcome_at(t, chosen), point), moving, by="unit", seed=seed)
    readings = three_valued_readings(outcome_at, moving, [[m, p_, b_] for m in margins for p_ in (0, 1) for b_ in budgets],
                                     chosen=chosen, by="unit", seed=seed, chosen_support=support)
    threshold = {"value": chosen, "source": "ours", "readings": readings,
                 "unit": "[margin, point, budget]: Poisson's and the negative binomial's gradient variance at the runs' M above the optimal "
                         f"one's, as a share of it, more than the margin, read at point 0 ({path}: the end of each seed's optimal-arm run) or "
                         f"1 ({headed}: where the runs are headed), over the degrees n a run reaches, P(N >= n) >= 1/budget (budget: a run's "
                         "steps, or every run of an arm pooled)"}
    said = _points_said(r["points"])
    turning = _turning_axes(readings, ("margin", "point", "budget"))
    if point is None:
        diagnosis = Unearned(str(r["reason"]), {"reading": {k: v for k, v in r.items() if k != "outcome"}})
    elif turning:   # a cut-off of ours turns it (pre-run reviews helper-437, helper-439: the margin's and the budget's too)
        diagnosis = {"kind": "reading", "evidence": {"points": {p_: v["outcome"] for p_, v in r["points"].items()}, "turning": turning},
                     "text": f"The runs' gradient variance at their own M, read {where}: {said} (at the chosen margin and budget). The "
                             f"readings of our cut-offs decide apart: the {' and the '.join(turning)} turn{'s' if len(turning) == 1 else ''} "
                             "it, and the paper says none of them."}
    else:   # every reading fails alike: nothing earns a kind (review helper-439: the stand-in's difference was never shown to
        # move the excess, and the runs' length, not the data, sets which degrees count), so it stays undecided
        diagnosis = Unearned(f"it fails at every reading of our cut-offs ({said}), and nothing shows MovieLens 1M (the paper's data) "
                             "or longer runs would move the excess past the margin", {"points": said})
    return {"reading": r, "gates": gates, "args": dict(holds=point is True, support=support, diagnosis=diagnosis, threshold=threshold)}


def _turning_axes(readings, names) -> list:
    """The cut-off axes (``names``, one per coordinate of a reading's value) along which two decisive readings differ in verdict
    with every other coordinate equal: the cut-offs that turn a verdict (D4.3's diagnosis names them)."""
    decisive = [(tuple(r["value"]), r["verdict"]) for r in readings if r["verdict"] in ("holds", "fails")]
    out = []
    for i, name in enumerate(names):
        groups = {}
        for v, verdict in decisive:
            groups.setdefault(v[:i] + v[i + 1:], set()).add(verdict)
        if any(len(g) > 1 for g in groups.values()):
            out.append(name)
    return out


def lemma2_holds(variance: pd.DataFrame, margin: float = D43_MARGIN) -> dict:
    """Lemma 2's Chebyshev-weighted variance (eq. (9), Fig. 1) per cell, beside D4.3 (session 61: it cannot fail here --
    Poisson's is unbounded for any geometric decay of the Chebyshev coefficients, the negative binomial's (p = 0.5) whenever
    rho^2 < 2, and the optimal distribution minimises it by Lemma 2's proof -- so deciding on it restates the theorem;
    Fig. 1's observation is D1's claim D1.1): ``{cell: holds}``, each cell of ``variance`` (columns ``cell, distribution,
    Var_C``; :func:`~inferopt.spectral.chebyshev_weighted_variance`, exact) holding where Poisson's and the negative
    binomial's ``Var_C`` exceed the optimal one's by more than ``margin`` of it (:func:`~.completion.d43_test` on the
    optimal one's raised by that share; an infinite ``Var_C``, a reweighted tail that outgrows the coefficients' decay, is
    larger than any finite one). One exact computation per cell: deterministic."""
    check_table("variance", variance, ("cell", "distribution", "Var_C"))
    margin = check_real("margin", margin, low=0.0)
    raised = variance.assign(Var_C=np.where(variance["distribution"] == "optimal", variance["Var_C"].astype(float) * (1.0 + margin),
                                            variance["Var_C"].astype(float)))
    return {str(c): d43_test(rows) for c, rows in raised.groupby("cell", sort=False)}


def d43_gradient_readings(tables: dict, *, M: int, probes=D43_PROBES, margin: float = D43_MARGIN, made=None,
                          gate_share: float = 0.0, exact=("optimum",)) -> dict:
    """The runs' stochastic-gradient variance at other probe counts and tail cuts, beside D4.3 (decided at the runs' own
    ``M`` and the degrees a run reaches, :func:`d43_claim_args`; session 61: these readings are not
    what the runs see, so they never turn it) and D4.1's mechanism, why its arms can tie where the probes' noise swamps the
    degree part (session 58's review). Each reading ``[1/M', p]`` is :func:`d43_exact_reading` at ``margin`` on
    ``tables[p]`` (:func:`exact_gradient_variances` with ``M`` probes over the degrees with ``P(N >= n) >= p``: D4's
    ``1/budget`` and :data:`D43_LEAST`), at ``M'`` probes (``M`` and each of ``probes``; None: infinite, the probe
    part vanishing as ``1/M'``): its outcome over the points read as D4.3's are (agreeing deciding points decide it; else
    ``inconclusive``). ``made``, ``gate_share``: D4.1's gate. Returns ``{"readings": [{"value", "verdict"}], "gradient":
    {str(value): d43_exact_reading}}``."""
    M = check_int("M", M, low=1)
    if not isinstance(tables, dict) or not tables:
        raise TypeError(f"tables must map a least probability to exact_gradient_variances' rows; got {tables!r}")
    least = sorted(check_real("tables' least probability", p, low=0.0, low_open=True, high=1.0) for p in tables)
    margin = check_real("margin", margin, low=0.0)
    readings_, gradient = [], {}
    for n in (M, *probes):
        w = 0.0 if n is None else M / check_int("probes (an entry of)", n, low=1)
        for p in least:
            value = [0.0 if n is None else 1.0 / n, float(p)]
            r = d43_exact_reading(tables[p], margin=margin, made=made, gate_share=gate_share, probe_weight=w, exact=exact)
            gradient[str(value)] = r
            readings_.append({"value": value, "verdict": "inconclusive" if r["outcome"] is None else "holds" if r["outcome"] else "fails"})
    return {"readings": readings_, "gradient": gradient}


def map_cells_to_run(cells: pd.DataFrame, max_q0: float) -> list:
    """The verdict-map cells whose runs can decide D4.1 (issue 41's pre-run review, item 4): those where the optimal
    distribution is not degenerate, its zero-degree share ``q0`` at most ``max_q0`` (:data:`~.regime.USABLE_Q0`, D3's
    usable cut: at ``q0`` near 1 almost every draw is degree 0 and the distribution compared is a different estimator;
    eps = 10 has ``q0`` 0.72 on the whole MovieLens 100K). ``cells``: one row per cell (index its label) with ``q0``."""
    check_table("cells", cells, ("q0",))
    max_q0 = check_real("max_q0", max_q0, low=0.0, high=1.0)
    q0 = cells["q0"].to_numpy(float)
    return [lbl for lbl, v in zip(cells.index, q0) if np.isfinite(v) and v <= max_q0]
