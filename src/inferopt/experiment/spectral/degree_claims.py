"""D4's deciding code added in session 44 (issue 41's pre-run review), beside :mod:`.completion_degrees` (which D3 imports
too, so that D3's results stay current: nothing there changes):

* **D4.2 can fail** (review item 1): decided at the chosen cell, where SGD-DET's floors are computed, with a diagnosis of its
  own (:func:`chosen_cell_diagnosis`: ``stand-in`` on a decisive failure); its floors are SGD-DET's own fixed points
  (:func:`~.completion_degrees.det_own_fixed_point`, item 2) and a floor that did not settle decides nothing
  (:func:`d42_settled_reading`).
* **D4.3 with power and the tail** (item 3): the stochastic gradients of the three distributions drawn on common probes
  (:func:`common_gradient_draws`: paired differences), the degree part of each variance exact over the whole distribution
  (:func:`degree_term`), read against a margin both ways (:func:`d43_common_reading`: an equivalence reading can fail).
* **The map's usable cells** (item 4): a cell whose optimal distribution is degenerate is not run (:func:`map_cells_to_run`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._validation import as_finite_array, check_choices, check_int, check_real, check_table
from .completion_degrees import _eig_side, _se, _series_derivative, d42_level_reading, truncated_gradient

#: D4.3's "relatively large" (ours): the other distributions' gradient variance above the optimal one's by more than this
#: share of it (:func:`d43_common_reading`; the claim reads it at :data:`D43_MARGIN_READINGS` too)
D43_MARGIN = 0.1
D43_MARGIN_READINGS = (0.05, 0.1, 0.2)

#: L-BFGS-B rounds per interval of SGD-DET's own fixed point (:func:`~.completion_degrees.det_own_fixed_point`) where D4
#: reads its floors (session 44's pre-run review: one round of 120 steps left the optimum unconverged)
FLOOR_ROUNDS = 3


# ----------------------------------------------------------------------------- D4.2


def d42_settled_reading(table: pd.DataFrame, low: int, high: int, fixed: dict, **kwargs) -> dict:
    """D4.2's reading (:func:`~.completion_degrees.d42_level_reading`, ``kwargs`` its ``share`` and ``z``) on SGD-DET's own
    floors ``fixed`` (``{degree: info}`` of :func:`~.completion_degrees.det_own_fixed_point`: its ``test RMSE``,
    ``converged`` and ``self-consistent``): a floor whose fixed point did not settle (L-BFGS-B's own test unmet, or the
    intervals not self-consistent) measures no floor, so the claim is undecided there (None, the reason naming the degree;
    review item 2), whatever the levels show. Returns the reading with ``"settled": {degree: bool}``."""
    if not isinstance(fixed, dict):
        raise TypeError(f"fixed must map each degree to det_own_fixed_point's info; got {type(fixed).__name__}")
    for n in (low, high):
        info = fixed.get(n)
        if not isinstance(info, dict) or not {"test RMSE", "converged", "self-consistent"} <= set(info):
            raise ValueError(f"fixed must hold det_own_fixed_point's info (test RMSE, converged, self-consistent) at degree {n}")
    reading = d42_level_reading(table, low, high, {n: fixed[n]["test RMSE"] for n in (low, high)}, **kwargs)
    settled = {n: bool(fixed[n]["converged"] and fixed[n]["self-consistent"]) for n in (low, high)}
    unsettled = [n for n in (low, high) if not settled[n]]
    if not unsettled:
        return reading | {"settled": settled}
    why = ("SGD-DET's fixed point did not settle at N = " + ", ".join(str(n) for n in unsettled)
           + " (L-BFGS-B's test unmet or its intervals not self-consistent): no floor measured there")
    return reading | {"settled": settled, "outcome": None, "reason": why if reading["reason"] is None else f"{reading['reason']}; and {why}"}


def chosen_cell_diagnosis(reading: dict, support: dict, *, setting: dict, seeds: int, main_seeds: int, text: str, stand_in: dict,
                          no_authors_construction: str):
    """The diagnosis a claim decided at the chosen cell only is recorded with (D4.2 and D4.3; issue 41's pre-run review,
    item 1: D4.2 could not fail, every other cell of its map being ``not measured``, so
    :func:`~inferopt.experiment.verdict_map.map_diagnosis` could never earn one). ``reading``: the claim's reading
    (``{"outcome": True | False | None, "reason"}``, :func:`d42_settled_reading`, :func:`d43_common_reading`); undecided, it
    gives :class:`~inferopt.experiment.claims.Unearned` with its reason (inconclusive); decided, the chosen cell
    (:func:`~.completion.seeded_cell`: ``seeds`` independent units, its bootstrap ``support``) goes to
    :func:`~.completion.completion_diagnosis` with ``stand_in`` (``{"text", "evidence"}``: MovieLens 100K for 1M, with the
    power of the test): a decisive failure is ``stand-in`` (``fails``), a failure short of 90 % support Unearned
    (inconclusive)."""
    from ..claims import Unearned
    from .completion import completion_diagnosis, seeded_cell

    if not isinstance(reading, dict) or "outcome" not in reading:
        raise TypeError(f"reading must be a claim's reading with an outcome (d42_settled_reading's); got {reading!r}")
    if reading["outcome"] is None:
        return Unearned(str(reading.get("reason")), {"reading": {k: v for k, v in reading.items() if k != "outcome"}})
    chosen = seeded_cell(setting, bool(reading["outcome"]), support=support, seeds=seeds, main_seeds=main_seeds,
                         construction="ours", data="stand-in")
    return completion_diagnosis([chosen], text, chosen=chosen["setting"], stand_in=stand_in,
                                no_authors_construction=no_authors_construction)


# ----------------------------------------------------------------------------- D4.3: gradient variance, common probes, exact degree term


def _degree_sq(lam, eps: float, series, weights, base) -> float:
    """``||∇ tr p_w(A) - ∇ tr p_base(A)||_F²`` (Chebyshev weights ``w``, ``base`` on ``series``' interval) from the
    eigenvalues ``lam`` of the smaller Gram matrix of ``θ``: ``∇ tr h(θθᵀ + εI) = θ U diag(2h'(λ + ε)) Uᵀ`` (or
    ``U diag(·) Uᵀ θ``), whose squared norm is ``Σ_i λ_i (2h'(λ_i + ε))²`` (``||θ u_i||² = λ_i``)."""
    x = lam + eps
    dev = 2.0 * (_series_derivative(weights, series.a, series.b, x) - _series_derivative(base, series.a, series.b, x))
    return float(np.sum(lam * dev ** 2))


def degree_term(theta, eps: float, rule) -> float:
    """The exact degree part of a random-degree rule's gradient variance at ``theta`` (issue 41's pre-run review, item 3;
    Lemma 1's estimator (7) with exact traces): ``E_n ||∇ tr p̂_n(A) - ∇ tr f_L(A)||²`` over the rule's whole distribution
    (``p̂_n``: the series reweighted by ``1/P(n >= j)`` and cut at ``n``, Eq. (7); ``f_L``: the chopped series the rule
    draws from), summed exactly over ``n = 0 .. L - 1`` (at ``n >= L`` the estimator is the whole series: no deviation),
    so the rare high degrees that dominate Poisson's and the negative binomial's ``Var_C`` count with their weight, which
    a few hundred draws cannot reach. ``rule``: :func:`~inferopt.spectral.make_degree_rule`'s random-degree rule; a fixed
    degree has no degree term (0). Where the reweighted coefficients overflow double precision (Poisson's at a wide
    interval: ``1/P(n >= j)`` beyond 1e300) the term is ``inf``: unbounded in floating point, far above any other."""
    theta = as_finite_array("theta", theta, ndim=2, nonempty=True)
    eps = check_real("eps", eps, low=0.0, low_open=True)
    if not hasattr(rule, "series"):
        raise TypeError(f"rule must be a degree rule (make_degree_rule); got {type(rule).__name__}")
    dist = getattr(rule, "distribution", None)
    if dist is None:
        return 0.0
    series = rule.series
    n = np.arange(series.coeffs.size - 1)
    q = np.asarray(dist.pmf(n), dtype=float)
    keep = q > 0
    lam = _eig_side(theta)[0]
    with np.errstate(over="ignore", invalid="ignore"):
        total = float(sum(qk * _degree_sq(lam, eps, series, dist.reweight(series.coefficients(int(k))), series.coeffs)
                          for qk, k in zip(q[keep], n[keep])))
    return total if np.isfinite(total) else float("inf")


def common_gradient_draws(problem, theta, rules: dict, *, M: int, n_draws: int, rng) -> pd.DataFrame:
    """:func:`~.completion_degrees.gradient_draws` with common probes (issue 41's pre-run review, item 3): at draw ``k`` every rule of
    ``rules`` uses the same ``M`` Rademacher probes and draws its own degree, so that the rules' differences are paired
    and the probe noise they share cancels from them. Each draw records ``sq`` (its squared distance to the rule's exact
    mean) and ``degree sq``, the exact squared distance of its degree's mean (the estimator with exact traces) to that
    mean: ``sq - degree sq`` has the probe part of the variance as its mean (the cross term has mean zero), to which
    :func:`degree_term` adds the degree part exactly. Returns one row per rule and draw: ``rule, draw, degree, sq,
    degree sq``."""
    from ..._random import as_generator
    from ...spectral import rademacher

    for attr in ("interval", "spectral_grad", "eps", "shape"):
        if not hasattr(problem, attr):
            raise TypeError(f"problem must be a MatrixCompletion (it has no {attr})")
    theta = as_finite_array("theta", theta, ndim=2, nonempty=True)
    if not isinstance(rules, dict) or not rules:
        raise TypeError("rules must be a non-empty mapping name -> degree rule")
    M, n_draws = check_int("M", M, low=1), check_int("n_draws", n_draws, low=2)
    rng = as_generator(rng)
    means = {}
    for name, rule in rules.items():
        if not hasattr(rule, "draw") or not hasattr(rule, "series"):
            raise TypeError(f"rules[{name!r}] must be a degree rule (make_degree_rule); got {type(rule).__name__}")
        fixed = getattr(rule, "degree", None)
        coeffs = rule.series.coeffs if fixed is None else rule.series.coefficients(fixed)
        means[name] = (coeffs, truncated_gradient(theta, problem.eps, coeffs, rule.series.a, rule.series.b))
    degree_rngs = dict(zip(rules, rng.spawn(len(rules))))
    lam = _eig_side(theta)[0]
    rows = []
    for k in range(n_draws):
        V = rademacher(rng, theta.shape[0], M)
        for name, rule in rules.items():
            w, s = rule.draw(degree_rngs[name]), rule.series
            g = problem.spectral_grad(theta, V, w, s.a, s.b) - means[name][1]
            rows.append({"rule": str(name), "draw": k, "degree": int(w.size - 1), "sq": float(np.vdot(g, g)),
                         "degree sq": _degree_sq(lam, problem.eps, s, w, means[name][0])})
    return pd.DataFrame(rows)


def d43_common_reading(table: pd.DataFrame, degree_terms: dict, *, margin: float = D43_MARGIN, z: float = 2.0, reference: str = "optimal",
                       others=("poisson", "negative binomial")) -> dict:
    """D4.3 ("other distributions have relatively large variances", Sec. 5.1 on Fig. 2(c)) on :func:`common_gradient_draws`'
    rows (with a column ``point``) and the exact degree terms ``degree_terms`` (``{point: {rule: degree_term(...)}}``).

    A rule's variance at a point is the mean of its draws' probe part ``sq - degree sq`` plus its exact degree term; the
    excess of ``other`` over ``reference`` is the mean of the paired probe parts' differences (common probes) plus the
    degree terms' difference, its standard error the paired differences' (the degree terms are exact; an ``inf`` one, unbounded
    in floating point, makes that rule's excess ``inf``). Read relative to
    the reference's variance, ``r = excess / variance(reference)``, with ``se_r``:

    * *holds* at the point when ``r - z se_r > margin`` for every other rule (decisively larger by more than the margin);
    * *fails* when ``r + z se_r < margin`` for one (decisively within the margin: not "relatively large"; an equivalence
      reading, so that a small difference measured precisely decides);
    * else undecided. Holds (True) where every point holds, fails (False) where one fails, else None.

    Returns ``{"outcome", "reason", "points": {point: {rule: variance, "degree term " + rule, "excess " + other (r),
    "se excess " + other, "outcome"}}}``."""
    check_table("table", table, ("point", "rule", "draw", "sq", "degree sq"))
    margin = check_real("margin", margin, low=0.0)
    z = check_real("z", z, low=0.0)
    if isinstance(others, str) or not list(others):
        raise ValueError(f"others must be a non-empty list of rule names; got {others!r}")
    if not isinstance(degree_terms, dict):
        raise TypeError(f"degree_terms must be a mapping point -> {{rule: exact degree term}}; got {type(degree_terms).__name__}")
    out, verdicts = {}, []
    for point, rows in table.groupby("point", sort=False):
        check_choices(f"point {point}'s rules", [reference, *others], set(rows["rule"]))
        terms = degree_terms.get(point)
        if not isinstance(terms, dict) or any(r not in terms for r in (reference, *others)):
            raise ValueError(f"degree_terms[{point!r}] must hold the degree term of {[reference, *others]}")
        probe = rows.assign(part=rows["sq"] - rows["degree sq"]).pivot(index="draw", columns="rule", values="part")
        if len(probe) < 2 or not np.all(np.isfinite(probe[[reference, *others]].to_numpy(float))):
            raise ValueError(f"point {point}: every rule needs at least two finite draws on common probes")
        for r in (reference, *others):
            if not float(terms[r]) >= 0.0:
                raise ValueError(f"degree_terms[{point!r}][{r!r}] must be a non-negative number (inf: unbounded); got {terms[r]!r}")
        var = {r: float(probe[r].mean()) + float(terms[r]) for r in (reference, *others)}
        stats, cmp = {}, []
        for o in others:
            diff = (probe[o] - probe[reference]).to_numpy(float)
            with np.errstate(invalid="ignore"):   # an unbounded (inf) degree term of the reference: no ratio, undecided
                rel = (float(diff.mean()) + float(terms[o]) - float(terms[reference])) / var[reference]
            se = _se(diff) / var[reference]
            stats |= {f"excess {o}": rel, f"se excess {o}": se}
            cmp.append(True if rel - z * se > margin else False if rel + z * se < margin else None)
        outcome = False if False in cmp else True if all(c is True for c in cmp) else None
        verdicts.append(outcome)
        out[str(point)] = var | {f"degree term {r}": float(terms[r]) for r in (reference, *others)} | stats | {"outcome": outcome}
    if not verdicts:
        raise ValueError("table must hold draws at one point at least")
    overall = False if False in verdicts else True if all(v is True for v in verdicts) else None
    undecided = [p for p, v in out.items() if v["outcome"] is None]
    reason = None if overall is not None else (
        f"at {', '.join(undecided)} the excess of the others' variance over the {reference} one's is within {z:g} standard "
        f"errors of the margin {margin:g}")
    return {"outcome": overall, "reason": reason, "points": out}


def map_cells_to_run(cells: pd.DataFrame, max_q0: float) -> list:
    """The verdict-map cells whose runs can decide D4.1 (issue 41's pre-run review, item 4): those where the optimal
    distribution is not degenerate, its zero-degree share ``q0`` at most ``max_q0`` (:data:`~.regime.USABLE_Q0`, D3's
    usable cut: at ``q0`` near 1 almost every draw is degree 0 and the distribution compared is a different estimator;
    eps = 10 has ``q0`` 0.72 on the whole MovieLens 100K). ``cells``: one row per cell (index its label) with ``q0``."""
    check_table("cells", cells, ("q0",))
    max_q0 = check_real("max_q0", max_q0, low=0.0, high=1.0)
    q0 = cells["q0"].to_numpy(float)
    return [lbl for lbl, v in zip(cells.index, q0) if np.isfinite(v) and v <= max_q0]
