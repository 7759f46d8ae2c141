"""D4's deciding code beyond :mod:`.completion` (Fig. 2(c)-(d)): one step per panel tuned on a grid extended past an
edge, and D4.2 read on each arm's level once the runs level off against SGD-DET's exact bias; D4.3 is decided in
:mod:`.degree_claims`.

* **Steps** (:func:`tune_panel_steps`): every arm of a panel shares one initial step ``c/L``; ``c`` is chosen on the
  validation split (:func:`~.completion.choose_panel_steps`) from a grid that is extended by ``step_ratio`` beyond an
  edge the panel's choice sits at, up to ``rounds`` times; an edge left is flagged.
* **D4.2** ("a larger degree reduces the bias error in SGD-DET, while SGD achieves similar error regardless of the
  degree"): SGD-DET truncates the Chebyshev series at its degree ``n`` deterministically, so the mean of its gradient
  is the exact gradient of ``tr p_n(θθᵀ + εI)`` (``p_n`` the truncated series) and its bias is exact
  (:func:`truncated_gradient`, :func:`det_gradient_bias`); its fixed point is the minimiser of the truncated objective
  (:func:`det_fixed_point`), whose test RMSE is SGD-DET's bias floor on the paper's axis; with the interval re-evaluated at
  the point, as the arm does at every step, its own fixed point (:func:`det_own_fixed_point`, D3.1's floor since session 41). The runs are read on their
  level once they level off (:func:`run_levels`: the mean test RMSE over the last part of the run and how much it still
  falls there); D4.2's two halves are decided in :mod:`.degree_claims` (:func:`~.degree_claims.d42_det_reading`,
  :func:`~.degree_claims.d42_sgd_reading`) only where the exact floors differ by more than the levels' noise.
* **D4.3** (panel (c)'s mechanism, "other distributions have relatively large variances so that they converge slower"):
  decided in :mod:`.degree_claims` on the variance the runs see, the stochastic gradient's at the runs' own ``M``, exact
  (:func:`~.degree_claims.exact_gradient_variances`, :func:`~.degree_claims.d43_exact_reading`), at the runs' end points
  and at the optimum; Lemma 2's ``Var_C`` in every cell of the map
  (:func:`~.degree_claims.lemma2_holds`) is shown beside it (it holds by Lemma 2 at any such cell; Fig. 1's observation is
  D1's claim).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._validation import as_finite_array, check_callable, check_int, check_real, check_table
from .completion import choose_panel_steps

#: the degree distributions of panel (c)
DISTRIBUTIONS = ("optimal", "poisson", "negative binomial")


# ----------------------------------------------------------------------------- steps


def _factors(name: str, factors) -> list:
    if isinstance(factors, str | bytes) or not hasattr(factors, "__iter__"):
        raise TypeError(f"{name} must be a list of step factors; got {factors!r}")
    out = [check_real(f"{name} (an entry of)", f_, low=0.0, low_open=True) for f_ in factors]
    if not out:
        raise ValueError(f"{name} must hold at least one step factor")
    return sorted(set(out))


def tune_panel_steps(pilots, panels: dict, factors, *, rounds: int, step_ratio: float) -> tuple:
    """One initial step factor per panel, tuned on the validation split on a grid extended past its edges.

    ``pilots(grid)`` runs one pilot per arm and factor of ``grid`` (``{arm: [factor, ...]}``) and returns their table
    (columns ``arm, factor, validation RMSE``); ``panels`` maps a panel to its arms; ``factors`` is the grid every arm
    starts from. Each panel takes :func:`~.completion.choose_panel_steps`' factor (least mean validation RMSE over its
    arms). Where that factor is the least or the largest the panel tried, the panel's arms run one more pilot at the
    factor divided or multiplied by ``step_ratio``, up to ``rounds`` times.

    Returns ``(pilots' table, {arm: factor}, {panel: None | "low" | "high"})``: the edge a panel's choice still sits at
    after the rounds (None: bracketed by the factors tried)."""
    check_callable("pilots", pilots)
    if not isinstance(panels, dict) or not panels:
        raise TypeError("panels must be a non-empty mapping panel -> list of arms")
    arms = {}
    for pn, arms_ in panels.items():
        if isinstance(arms_, str | bytes) or not hasattr(arms_, "__iter__") or not list(arms_):
            raise ValueError(f"panels[{pn!r}] must be a non-empty list of arms; got {arms_!r}")
        arms[pn] = [str(a) for a in arms_]
    factors = _factors("factors", factors)
    rounds = check_int("rounds", rounds, low=0)
    step_ratio = check_real("step_ratio", step_ratio, low=1.0, low_open=True)
    every = list(dict.fromkeys(a for arms_ in arms.values() for a in arms_))
    table = _pilot_table(pilots({a: list(factors) for a in every}))

    def edges_of(tb):
        chosen = choose_panel_steps(tb, arms)
        out = {}
        for pn, arms_ in arms.items():
            tried = tb.loc[tb["arm"].isin(arms_), "factor"].to_numpy(float)
            f_ = chosen[arms_[0]]
            out[pn] = "low" if f_ <= tried.min() else "high" if f_ >= tried.max() else None
        return chosen, out

    chosen, edges = edges_of(table)
    for _ in range(rounds):
        more = {a: [chosen[a] / step_ratio if side == "low" else chosen[a] * step_ratio]
                for pn, side in edges.items() if side for a in arms[pn]}
        if not more:
            break
        table = pd.concat([table, _pilot_table(pilots(more))], ignore_index=True)
        chosen, edges = edges_of(table)
    return table, chosen, edges


def _pilot_table(table) -> pd.DataFrame:
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"pilots must return a DataFrame of pilot runs; got {type(table).__name__}")
    return check_table("the pilots' table", table, ("arm", "factor", "validation RMSE"))


# ----------------------------------------------------------------------------- exact gradients of a Chebyshev series


def _eig_side(theta):
    """``(eigenvalues, eigenvectors, small_right)`` of the smaller Gram matrix of ``theta``."""
    small_right = theta.shape[1] <= theta.shape[0]
    gram = theta.T @ theta if small_right else theta @ theta.T
    lam, U = np.linalg.eigh(gram)
    return np.maximum(lam, 0.0), U, small_right


def _apply(theta, lam_fun, lam, U, small_right):
    """``h(A) θ`` for ``A = θθᵀ + εI`` given the eigen-decomposition of the smaller Gram matrix and ``lam_fun`` the values
    ``h(λ_i + ε)`` (push-through: ``h(θθᵀ + εI) θ = θ h(θᵀθ + εI)``)."""
    W = U * lam_fun
    return theta @ (W @ U.T) if small_right else (W @ U.T) @ theta


def _series_derivative(coeffs, a: float, b: float, x) -> np.ndarray:
    """``p'(x)`` of ``p = Σ_j coeffs_j T_j((2x - a - b)/(b - a))``."""
    c = np.asarray(coeffs, dtype=float)
    if c.size < 2:
        return np.zeros_like(np.asarray(x, dtype=float))
    t = (2.0 * np.asarray(x, dtype=float) - a - b) / (b - a)
    return np.polynomial.chebyshev.chebval(t, np.polynomial.chebyshev.chebder(c)) * (2.0 / (b - a))


def _checked_series(theta, eps, coeffs, a, b):
    theta = as_finite_array("theta", theta, ndim=2, nonempty=True)
    eps = check_real("eps", eps, low=0.0, low_open=True)
    coeffs = as_finite_array("coeffs", coeffs, ndim=1, nonempty=True)
    a, b = check_real("a", a, low=0.0, low_open=True), check_real("b", b, low=0.0, low_open=True)
    if not a < b:
        raise ValueError(f"the interval must have a < b; got a = {a}, b = {b}")
    return theta, eps, coeffs, a, b


def truncated_gradient(theta, eps: float, coeffs, a: float, b: float) -> np.ndarray:
    """The exact gradient ``2 p'(θθᵀ + εI) θ`` of ``tr p(θθᵀ + εI)``, ``p = Σ_j coeffs_j T_j`` on ``[a, b]``: the mean
    over the probes of the stochastic gradient with those weights (:func:`~inferopt.spectral.gradients.grad_lowrank`;
    SGD-DET's at degree ``n``: ``coeffs`` the series' first ``n + 1`` coefficients). One eigen-decomposition of the
    smaller Gram matrix."""
    theta, eps, coeffs, a, b = _checked_series(theta, eps, coeffs, a, b)
    lam, U, small_right = _eig_side(theta)
    return _apply(theta, 2.0 * _series_derivative(coeffs, a, b, lam + eps), lam, U, small_right)


def det_gradient_bias(theta, eps: float, coeffs, a: float, b: float, degree: int) -> dict:
    """SGD-DET's exact gradient bias at ``theta``: its mean gradient (:func:`truncated_gradient` of the first
    ``degree + 1`` of the series' ``coeffs``) less the exact ``∇ tr (θθᵀ + εI)^{1/2} = (θθᵀ + εI)^{-1/2} θ``.
    Returns ``{"bias": its Frobenius norm, "gradient": the exact gradient's norm, "relative": their ratio,
    "matrix": the bias}``."""
    theta, eps, coeffs, a, b = _checked_series(theta, eps, coeffs, a, b)
    degree = check_int("degree", degree, low=0)
    lam, U, small_right = _eig_side(theta)
    x = lam + eps
    bias = _apply(theta, 2.0 * _series_derivative(coeffs[:degree + 1], a, b, x) - x ** -0.5, lam, U, small_right)
    exact = float(np.linalg.norm(_apply(theta, x ** -0.5, lam, U, small_right)))
    norm = float(np.linalg.norm(bias))
    return {"bias": norm, "gradient": exact, "relative": norm / exact if exact > 0 else float("nan"), "matrix": bias}


def det_fixed_point(problem, theta_star, degree: int, *, interval=None, max_iter: int = 200, gtol: float = 1e-9, rounds: int = 1):
    """SGD-DET's fixed point at degree ``degree``: the minimiser over the box of the truncated objective
    ``tr p_n(θθᵀ + εI) + g(θ)`` (``p_n``: ``sqrt``'s Chebyshev series on the interval ``[a, b]`` of ``theta_star``,
    :meth:`~inferopt.spectral.MatrixCompletion.interval`, chopped after degree ``n``), by L-BFGS-B warm-started at
    ``theta_star`` (the model's optimum: SGD-DET's fixed point is the point where its mean gradient vanishes, near it);
    ``interval``: ``(a, b)`` given (the one the caller reads the optimum's bias on) instead of computed. In at most ``rounds``
    rounds of at most ``max_iter`` steps, each restarted from the last (a fresh memory; session 32: D3's fixed point did not
    converge within one), until L-BFGS-B's own test is met or a round takes no step; ``rounds`` 1 is one run (D4's).
    The truncated objective is what SGD-DET's mean gradient descends, so its minimiser's test RMSE is SGD-DET's bias
    floor on the paper's axis. Returns ``(θ_n, info)`` with ``info = {"test RMSE", "objective" (the exact one),
    "n_iter" (all rounds'), "converged", "rounds", "a", "b"}``."""
    import scipy.optimize

    from ...spectral import ChebyshevSeries

    for attr in ("interval", "g", "g_grad", "metric", "objective", "shape", "eps", "low", "high"):
        if not hasattr(problem, attr):
            raise TypeError(f"problem must be a MatrixCompletion (it has no {attr})")
    degree = check_int("degree", degree, low=0)
    max_iter = check_int("max_iter", max_iter, low=1)
    gtol = check_real("gtol", gtol, low=0.0, low_open=True)
    rounds = check_int("rounds", rounds, low=1)
    theta_star = as_finite_array("theta_star", theta_star, ndim=2)
    shape = tuple(problem.shape)
    if theta_star.shape != shape:
        raise ValueError(f"theta_star must have the problem's shape {shape}; got {theta_star.shape}")
    if interval is None:
        a, b = problem.interval(theta_star)
    else:
        if isinstance(interval, str) or np.ndim(interval) != 1 or len(interval) != 2:
            raise ValueError(f"interval must be a pair (a, b); got {interval!r}")
        a, b = check_real("interval[0]", interval[0], low=0.0, low_open=True), check_real("interval[1]", interval[1], low=0.0, low_open=True)
        if not a < b:
            raise ValueError(f"interval must have a < b; got {interval!r}")
    coeffs = ChebyshevSeries("sqrt", a, b).coefficients(degree)
    cheb = np.polynomial.chebyshev
    eps, d = float(problem.eps), shape[0]

    def value_grad(x):
        theta = x.reshape(shape)
        lam, U, small_right = _eig_side(theta)
        t = (2.0 * (lam + eps) - a - b) / (b - a)
        t0 = (2.0 * eps - a - b) / (b - a)
        value = float(np.sum(cheb.chebval(t, coeffs)) + (d - lam.size) * cheb.chebval(t0, coeffs)) + problem.g(theta)
        grad = _apply(theta, 2.0 * _series_derivative(coeffs, a, b, lam + eps), lam, U, small_right) + problem.g_grad(theta)
        return value, grad.ravel()

    size = shape[0] * shape[1]
    x, total, done, converged = theta_star.reshape(-1).copy(), 0, 0, False
    while not converged and done < rounds:
        res = scipy.optimize.minimize(value_grad, x, jac=True, method="L-BFGS-B",
                                      bounds=scipy.optimize.Bounds(np.full(size, problem.low), np.full(size, problem.high)),
                                      options={"maxiter": max_iter, "maxfun": 2 * max_iter, "ftol": 1e-14, "gtol": gtol})
        x, total, done, converged = res.x, total + int(res.nit), done + 1, bool(res.success)
        if int(res.nit) == 0:   # no step taken: no progress left to this solver
            break
    theta = x.reshape(shape)
    return theta, {"test RMSE": float(problem.metric(theta)), "objective": float(problem.objective(theta)), "n_iter": total,
                   "converged": converged, "rounds": done, "a": float(a), "b": float(b)}


# ----------------------------------------------------------------------------- D4.2: levels


def det_own_fixed_point(problem, theta_star, degree: int, *, max_iter: int = 200, gtol: float = 1e-9, rounds: int = 1,
                        alternations: int = 10):
    """SGD-DET's fixed point under its own map (session 41): the arm takes its interval ``[a, b] = problem.interval(θ)``
    (:meth:`~inferopt.spectral.MatrixCompletion.interval`, ``b`` on a geometric grid) afresh at every iterate, so a point it
    stays at is the minimiser of the truncated objective on the interval *of that point itself*, not on the optimum's
    (:func:`det_fixed_point`'s: the paper run's floor 2.05 lay above where the arm's runs ended, 1.61). Found by alternation:
    :func:`det_fixed_point` on the interval of the current point, warm-started there, then the interval at its minimiser,
    until that interval is the one the minimiser was built on (self-consistent: the projected step of the arm's mean gradient
    leaves the point where it is), or ``alternations`` ran, or an interval comes back that was used before (a cycle: not
    self-consistent). ``max_iter``, ``gtol``, ``rounds``: each :func:`det_fixed_point`'s. Returns ``(θ_n, info)``: the last
    :func:`det_fixed_point`'s ``info`` with ``"n_iter"`` summed over the alternations, ``"intervals"`` (each ``(a, b)`` used),
    ``"alternations"`` and ``"self-consistent"``."""
    if not callable(getattr(problem, "interval", None)):
        raise TypeError("problem must be a MatrixCompletion (it has no interval)")
    alternations = check_int("alternations", alternations, low=1)
    theta = as_finite_array("theta_star", theta_star, ndim=2)
    interval, used, total, consistent = problem.interval(theta), [], 0, False
    for _ in range(alternations):
        used.append(tuple(float(v) for v in interval))
        theta, info = det_fixed_point(problem, theta, degree, interval=interval, max_iter=max_iter, gtol=gtol, rounds=rounds)
        total += info["n_iter"]
        interval = problem.interval(theta)
        here = tuple(float(v) for v in interval)
        consistent = here == used[-1]
        if consistent or here in used:
            break
    return theta, info | {"n_iter": total, "intervals": used, "alternations": len(used), "self-consistent": consistent}


def run_levels(runs: dict, window: float) -> pd.DataFrame:
    """Each run's level once it levels off: ``runs`` maps ``(dataset, method, seed)`` to a result with ``iterations``
    and ``metric`` (the test RMSE trace); the last ``window`` share of its iterations is read. Returns one row per run:
    ``dataset, method, seed``, ``level`` (the mean test RMSE over the window's evaluations), ``drift`` (the mean over
    the window's first half less the mean over its second half: how much the run still falls there; near zero or
    negative once it has levelled off) and ``points`` (evaluations in the window)."""
    if not isinstance(runs, dict) or not runs:
        raise TypeError("runs must be a non-empty mapping (dataset, method, seed) -> result")
    window = check_real("window", window, low=0.0, low_open=True, high=1.0)
    rows = []
    for key, r in runs.items():
        if not (isinstance(key, tuple) and len(key) == 3):
            raise ValueError(f"runs' keys must be (dataset, method, seed); got {key!r}")
        it = as_finite_array(f"runs[{key!r}].iterations", getattr(r, "iterations", None), ndim=1, nonempty=True)
        metric = np.asarray(getattr(r, "metric", None), dtype=float)
        if metric.shape != it.shape:
            raise ValueError(f"runs[{key!r}]: metric and iterations must have the same length")
        inside = it >= it[-1] - window * (it[-1] - it[0])
        values = metric[inside]
        if values.size < 4:
            raise ValueError(f"window must hold at least 4 evaluations of every run; {key!r} has {values.size} in its last "
                             f"{window:g} (evaluate more often, or widen the window)")
        half = values.size // 2
        rows.append({"dataset": key[0], "method": key[1], "seed": key[2], "level": float(np.mean(values)),
                     "drift": float(np.mean(values[:half]) - np.mean(values[-half:])), "points": int(values.size)})
    return pd.DataFrame(rows)


def _arm(table, method, column) -> np.ndarray:
    v = table.loc[table["method"] == method, column].to_numpy(float)
    if v.size == 0:
        raise ValueError(f"table holds no run of {method!r}")
    return v


def _se(v) -> float:
    return float(np.std(v, ddof=1) / np.sqrt(v.size)) if v.size > 1 else float("inf")
