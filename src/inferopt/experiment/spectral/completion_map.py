"""D3's verdict map: the claims read again around the chosen regime, where the model means something.

The paper publishes neither ε nor λ (Sec. 5.1) nor the steps, so a D3 claim that fails at the chosen cell is read
again at other settings before it is blamed on the paper: ε times ``eps_factors`` (below 1 toward the best-validation
cell, above toward a well-conditioned spectrum) and λ times ``lam_factors`` (:func:`map_settings`), each cell's optimum
judged first (:func:`optimum_quality`): a cell whose optimum predicts the validation ratings worse than the training
mean is dropped, both sides (:func:`split_by_quality`: the model means nothing there). With ``centred`` the map holds one
more cell, :data:`CENTRED_CELL`: the chosen ``(ε, λ)`` on the centred ratings (:func:`~.completion.centred_ratings`, the
ratings less the training mean in the box ``[-μ, 5 - μ]``; :func:`cell_data`, :func:`cell_key`), where the spectrum's
``b/a`` is far narrower than on the raw ratings (whose top singular value is the mean's); the paper gives the raw box,
so a claim it alone rescues earns ``setting``, never ``holds``, and the diagnosis says so (:func:`centred_diagnosis`).
Every kept cell re-tunes each arm's step and runs at least GD's own time to the target in the main cell
(:func:`map_budgets`); its claims are read by the same tests as the main runs (:func:`claim_tests`), each cell deciding
only on decisive seeds (:func:`verdict_map`, :func:`~.completion.seeded_cell`).
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ..._validation import check_callable, check_choice, check_choices, check_int, check_real, check_table
from ..support import bootstrap_support
from .completion import (BASES, D32_PAIRS, D33_PAIRS, METHODS, ahead_on, all_of, centred_ratings, comparison_bases, completion_diagnosis,
                         completion_problem, d31_test, d33_test, factor_reached, horizon, rmse_target, run_table, seeded_cell, share_key,
                         speedup)

#: the claims a D3 verdict map reads (D3.4 compares sizes, not settings: it is read on the sizes run, :func:`~.completion_claims.d34_ratio_claim`)
MAP_CLAIMS = ("D3.1", "D3.2", "D3.3")

#: the sentence every D3 diagnosis carries: no cell can run the authors' construction
NO_AUTHORS = "The authors' code for the matrix-completion experiment is not public: every cell runs our construction."

#: the label of the map's cell on centred ratings at the chosen (ε, λ) (:func:`map_settings` with ``centred``)
CENTRED_CELL = "centred (eps, lam)"

#: the label of the map's cell on the raw ratings at the chosen (ε, λ) where the chosen ratings are centred (session 41,
#: :func:`map_settings` with ``beside``): the paper's literal setting, its box [0, 5]
RAW_CELL = "raw (eps, lam)"

#: the key of a map cell's setting that names ratings other than the paper's raw ones, and its one value: centred
#: (:func:`~.completion.centred_ratings`); a cell without the key runs on the raw ratings, the paper's box [0, 5]
RATINGS, CENTRED = "ratings", "centred"

#: what the centred cell's ratings are, in a claim's words
CENTRED_WORDS = ("the centred ratings (the ratings less the training mean, the box [-mean, 5 - mean], at the chosen eps and lam: an open "
                 "setting of ours; the paper gives the raw box [0, 5])")


def on_centred(setting: dict) -> bool:
    """Does the map cell ``setting`` (``{"dataset", "eps", "lam"[, "ratings"]}``) run on centred ratings
    (``setting["ratings"] == "centred"``, :func:`cell_data`)? Without ``ratings`` it runs on the raw ones (the paper's box
    [0, 5]); any other value is refused."""
    if not isinstance(setting, dict):
        raise TypeError(f"setting must be a mapping {{'eps', 'lam'[, 'ratings']}}; got {setting!r}")
    if RATINGS not in setting:
        return False
    check_choice(f"setting[{RATINGS!r}]", setting[RATINGS], (CENTRED,))
    return True


def _grid_values(name: str, grid) -> list:
    if isinstance(grid, str | bytes) or not hasattr(grid, "__iter__"):
        raise TypeError(f"{name} must be a list of numbers; got {grid!r}")
    return [check_real(f"{name} (an entry of)", g) for g in grid]


def on_grid(value: float, grid) -> float:
    """``value``, or the entry of ``grid`` it equals up to round-off (relative 1e-9): the map's ``ε x 0.1`` of the
    chosen ε = 100 is the grid's ε = 10, whose optimum :func:`~.regime.select_regime` solved; off the grid, ``value``."""
    value = check_real("value", value)
    return next((float(g) for g in _grid_values("grid", grid) if np.isclose(g, value, rtol=1e-9)), float(value))


def map_settings(eps: float, lam: float, *, eps_factors, lam_factors, eps_grid, lam_grid, ratings: str = "raw",
                 beside: bool = False) -> dict:
    """The map's settings around the chosen ``(eps, lam)`` on the chosen ``ratings`` (``"raw"`` or ``"centred"``,
    :func:`~.regime.choose_ratings`; session 41): ``{"eps x <f>": {"eps", "lam"}}`` for every ``f`` of ``eps_factors`` (λ kept)
    and ``{"lam x <f>": ...}`` for every ``f`` of ``lam_factors`` (ε kept), each value put on the regime's grid where it lies
    on it (:func:`on_grid`), each carrying ``"ratings": "centred"`` where the chosen ratings are centred (:func:`cell_data`).
    With ``beside``, the chosen ``(eps, lam)`` on the other ratings: :data:`CENTRED_CELL` where the chosen ratings are raw,
    :data:`RAW_CELL` (the paper's literal setting, its box [0, 5]) where they are centred."""
    from .regime import RATINGS_ORDER

    eps = check_real("eps", eps, low=0.0, low_open=True)
    lam = check_real("lam", lam, low=0.0, low_open=True)
    eps_factors = [check_real("eps_factors (an entry of)", f, low=0.0, low_open=True) for f in _grid_values("eps_factors", eps_factors)]
    lam_factors = [check_real("lam_factors (an entry of)", f, low=0.0, low_open=True) for f in _grid_values("lam_factors", lam_factors)]
    eps_grid, lam_grid = _grid_values("eps_grid", eps_grid), _grid_values("lam_grid", lam_grid)
    check_choice("ratings", ratings, RATINGS_ORDER)
    if not isinstance(beside, bool | np.bool_):
        raise TypeError(f"beside must be True or False (the map's cell on the other ratings); got {beside!r}")
    on = {RATINGS: CENTRED} if ratings == CENTRED else {}
    other = ({} if not beside else {RAW_CELL: {"eps": eps, "lam": lam}} if on else {CENTRED_CELL: {"eps": eps, "lam": lam, RATINGS: CENTRED}})
    return {f"eps x {f:g}": dict(eps=on_grid(eps * f, eps_grid), lam=lam) | on for f in eps_factors} | {
        f"lam x {f:g}": dict(eps=eps, lam=on_grid(lam * f, lam_grid)) | on for f in lam_factors} | other


def _setting(setting) -> tuple:
    """``(eps, lam)`` of a map cell's ``setting`` (``{"eps", "lam"[, "ratings"]}``), checked."""
    if not isinstance(setting, dict) or not {"eps", "lam"} <= set(setting):
        raise TypeError(f"setting must be a map cell's {{'eps', 'lam'[, 'ratings']}}; got {setting!r}")
    on_centred(setting)
    return (check_real("setting['eps']", setting["eps"], low=0.0, low_open=True),
            check_real("setting['lam']", setting["lam"], low=0.0, low_open=True))


def cell_key(setting: dict) -> tuple:
    """Where a map cell's optimum is kept in the regime's selection (:attr:`~.regime.RegimeSelection.theta`):
    ``(eps, lam)`` on the raw ratings (the regime's own grid), ``(eps, lam, "centred")`` on the centred ones."""
    eps, lam = _setting(setting)
    return (eps, lam, CENTRED) if on_centred(setting) else (eps, lam)


def cell_data(data: dict, setting: dict) -> dict:
    """The ratings a map cell runs on: ``data`` (the raw ratings with their validation split, the paper's box [0, 5]), or
    where ``setting`` is on centred ratings (:func:`on_centred`) :func:`~.completion.centred_ratings` of it
    (every rating less the training mean, the box ``[-μ, 5 - μ]``; θ = 0 is then the training-mean predictor)."""
    _setting(setting)
    if not isinstance(data, dict) or not {"rows", "cols", "values", "shape", "test", "validation"} <= set(data):
        raise TypeError("data must be a ratings dict with rows, cols, values, shape, test and validation (hold_out)")
    if not on_centred(setting):
        return data
    if "mean" in data:
        raise ValueError("data must be the ratings before centring (a centred cell centres them); got centred ratings (their 'mean')")
    return centred_ratings(data)


def _seconds_or_none(name: str, value):
    return None if value is None else check_real(name, value, low=0.0, low_open=True)


def more_seeds(bounds: dict) -> list:
    """The map's cells that get their remaining seeds after the first round: those whose first seeds could still leave a rescue
    possible for some claim (``bounds``, ``{label: can_rescue's {claim: {"possible", ...}}}``), and :data:`RAW_CELL` always
    (session 43: D3.3's literal reading is read there, on as many seeds as the main runs, whatever the rescue bounds say)."""
    if not isinstance(bounds, dict):
        raise TypeError(f"bounds must map a cell's label to can_rescue's bounds; got {type(bounds).__name__}")
    return [label for label, b in bounds.items() if label == RAW_CELL or any(v["possible"] for v in b.values())]


def map_budgets(table: pd.DataFrame, name: str, reading: str, *, budget, map_budget, map_iters: int, gd_iters: int,
                tune_budget) -> dict:
    """The map's budgets, from GD's median run on ``name`` in ``table`` (:func:`~.completion.run_table` of the main
    runs; its time and exact gradients to the target ``reading``): a cell needs at least GD's own time to the target in
    the main cell, else no cell could reach it. ``"budget"``: work units per run (D3's budgets are in work, :data:`~.completion_claims.WORK_UNIT`), ``map_budget`` (None: the main
    ``budget``) raised to GD's time to the target where GD reaches it, at most ``budget`` (None under iteration budgets);
    ``"iters"``: ``map_iters`` steps raised to GD's steps to the target (where GD does not reach it, to ``gd_iters``);
    ``"tune"``: the pilots' work, at most the map's budget, ``tune_budget`` (the main pilots', on ``name``) and
    ``map_budget`` (None with iteration budgets or without ``tune_budget``: the map's budget)."""
    check_table("table", table, ("dataset", "method", f"time to {reading}", f"exact gradients to {reading}"))
    check_choice("name", name, {str(v) for v in pd.unique(table.dataset)})
    if not (table.method == "GD").any():
        raise ValueError("table must hold GD's run: the map's budget is at least GD's time to the target")
    budget, map_budget = _seconds_or_none("budget", budget), _seconds_or_none("map_budget", map_budget)
    tune_budget = _seconds_or_none("tune_budget", tune_budget)
    map_iters, gd_iters = check_int("map_iters", map_iters, low=1), check_int("gd_iters", gd_iters, low=1)
    rows = table.loc[(table.dataset == name) & (table.method == "GD")]
    gd_s, gd_steps = float(rows[f"time to {reading}"].median()), float(rows[f"exact gradients to {reading}"].median())
    budget_ = None if budget is None else min(float(budget), max(float(map_budget or budget), gd_s if np.isfinite(gd_s) else float(budget)))
    iters = max(int(map_iters), int(gd_steps) if np.isfinite(gd_steps) else int(gd_iters))
    tune = budget_ if budget_ is None or tune_budget is None else min(budget_, tune_budget, float(map_budget or budget_))
    return {"budget": budget_, "iters": iters, "tune": tune}


def optimum_quality(selection, setting: dict, data: dict, *, N: int, max_iter: int) -> dict:
    """How good the model is at the map cell ``setting`` (``{"eps", "lam"[, "ratings"]}``) on ``data`` (the raw ratings
    with their validation split; a cell on centred ratings reads :func:`cell_data` of them): the validation RMSE of its
    optimum against the training mean's, ``b/a`` of the spectrum there (:func:`~.conditioning.spectrum_ratio`) and the
    optimal distribution's zero-degree share ``q0`` at mean degree ``N``. The optimum is ``selection``'s
    (:func:`~.regime.select_regime`, at :func:`cell_key`) where it holds the cell; else it is solved here (``max_iter``
    L-BFGS-B iterations) and added to ``selection``'s ``theta``, and, on the raw ratings, as a row of its ``table``
    (the regime's grid; a centred cell is no row of it), so that the map's cells read their optimum from it."""
    from .conditioning import spectrum_ratio, zero_degree_share
    from .regime import RegimeSelection, mean_rmse, select_regime

    if not isinstance(selection, RegimeSelection):
        raise TypeError(f"selection must be a RegimeSelection (select_regime); got {type(selection).__name__}")
    key = cell_key(setting)
    eps, lam = key[:2]
    data = cell_data(data, setting)
    N = check_int("N", N, low=1)
    max_iter = check_int("max_iter", max_iter, low=1)
    if key not in selection.theta:
        extra = select_regime(partial(completion_problem, data), data["validation"], [eps], [lam], max_iter=max_iter)
        selection.theta[key] = extra.theta[eps, lam]
        if not on_centred(setting):   # a row of the raw side of the grid (select_ratings_regime's table: its ratings column)
            selection.table = pd.concat([selection.table, extra.table.assign(ratings="raw") if "ratings" in selection.table
                                         else extra.table], ignore_index=True)
    theta = selection.theta[key]
    if on_centred(setting):   # read from its optimum: a centred cell may be no row of the regime's grid
        from ...spectral import rmse as rmse_of

        rmse = rmse_of(theta, *data["validation"])
    else:
        t_ = selection.table
        raw = (t_.ratings == "raw") if "ratings" in t_ else np.ones(len(t_), bool)
        rmse = float(t_[(t_.eps == eps) & (t_.lam == lam) & raw].iloc[0]["validation RMSE"])
    ratio = spectrum_ratio(completion_problem(data, eps, lam, rng=0), theta)
    return {"validation RMSE of the optimum": rmse,
            "training-mean validation RMSE": mean_rmse(data["values"], data["validation"][2]),
            "b/a at the optimum": ratio, "q0 at N": zero_degree_share(ratio, N)}


def split_by_quality(quality: dict, settings: dict, dataset: str) -> tuple:
    """The map's cells where the model means something: a setting of ``settings`` (``{label: {"eps", "lam"}}``) is
    kept where its optimum predicts the validation ratings better than the training mean (``quality[label]``,
    :func:`optimum_quality`: ``validation RMSE of the optimum`` below ``training-mean validation RMSE``), else dropped,
    both sides (a claim holding there rescues nothing). Returns ``(kept {label: setting}, worse [{"dataset", "eps",
    "lam"[, "ratings"]}])``, ``worse`` as :func:`~.completion.completion_diagnosis` reads it (a centred cell's with its
    ``ratings``)."""
    if not isinstance(quality, dict) or not isinstance(settings, dict):
        raise TypeError("quality and settings must be mappings label -> quality / setting")
    if not isinstance(dataset, str):
        raise TypeError(f"dataset must be a name; got {dataset!r}")
    if settings:
        check_choices("settings' labels", list(settings), set(quality))
    better = {}
    for label, s_ in settings.items():
        if not isinstance(s_, dict) or not {"eps", "lam"} <= set(s_):
            raise ValueError(f"settings[{label!r}] must be {{'eps', 'lam'[, 'ratings']}}; got {s_!r}")
        on_centred(s_)
        q = quality[label]
        if not isinstance(q, dict) or not {"validation RMSE of the optimum", "training-mean validation RMSE"} <= set(q):
            raise ValueError(f"quality[{label!r}] must hold the validation RMSE of the optimum and the training mean's (optimum_quality)")
        better[label] = check_real(f"quality[{label!r}]['validation RMSE of the optimum']", q["validation RMSE of the optimum"], low=0.0) < \
            check_real(f"quality[{label!r}]['training-mean validation RMSE']", q["training-mean validation RMSE"], low=0.0)
    worse = [{"dataset": dataset, "eps": float(s_["eps"]), "lam": float(s_["lam"])} | ({RATINGS: CENTRED} if on_centred(s_) else {})
             for label, s_ in settings.items() if not better[label]]
    kept = {label: s_ for label, s_ in settings.items() if better[label]}
    return kept, worse


#: D3.2's margin (ours, session 28): "SGD converges much faster" read as SGD reaching the target at least this many times sooner
#: than GD where the two are read by their times (readings 1.25, 1.5, 2 beside); at equal time only the order is read
D32_FACTOR = 1.5


def d32_factor_test(table: pd.DataFrame, reading: str, budget: dict, factor: float = D32_FACTOR, bases: dict | None = None):
    """D3.2 ("SGD converges much faster and outperforms GD") with a margin: on every dataset SGD is ahead of GD
    (:func:`~.completion.ahead_on`, by the time to the target ``reading`` where one of the two reaches it, else at equal time;
    ``bases`` fixed readings, :func:`~.completion.comparison_bases`, default those of ``table``) and, where they are read by
    their times, GD's time over SGD's is at least ``factor`` (:func:`~.completion.factor_reached` of
    :func:`~.completion.speedup`; a censored lower bound below it is undecided). Three-valued (:func:`~.completion.all_of`)."""
    factor = check_real("factor", factor, low=1.0)
    if not isinstance(budget, dict):
        raise TypeError(f"budget must be a mapping dataset -> work or None; got {type(budget).__name__}")
    bases = comparison_bases(table, reading, D32_PAIRS) if bases is None else bases
    out = []
    for n in pd.unique(table.dataset):
        b = check_choice(f"bases[{(n, 'SGD', 'GD')!r}]", bases.get((n, "SGD", "GD")), BASES)
        out.append(ahead_on(table, n, "SGD", "GD", reading, b))
        if b == BASES[0]:
            out.append(factor_reached(*speedup(table, n, reading, budget.get(n) or horizon(table, n), fast="SGD", slow="GD"), factor))
    return all_of(out)


def claim_tests(table: pd.DataFrame, budget: dict, reading: str, factor: float = 1.5) -> dict:
    """D3.1-D3.3's tests on one table of runs (:func:`~.completion.run_table`), each a function of a table (None: not
    measured), D3.2's and D3.3's readings (time to the target ``reading``, or equal time) fixed on ``table``
    (:func:`~.completion.comparison_bases`), so that a bootstrap resample reads each pair as the measured runs do:
    ``"D3.1"`` :func:`~.completion.d31_test`, ``"D3.2"`` :func:`d32_factor_test`, ``"D3.3"``
    :func:`~.completion.d33_test` at the common ``budget`` (``{dataset: work or None}``) and ``factor`` (both margins)."""
    if not isinstance(budget, dict):
        raise TypeError(f"budget must be a mapping dataset -> seconds or None; got {type(budget).__name__}")
    factor = check_real("factor", factor, low=1.0)
    b32, b33 = comparison_bases(table, reading, D32_PAIRS), comparison_bases(table, reading, D33_PAIRS)
    return {"D3.1": d31_test, "D3.2": lambda t: d32_factor_test(t, reading, budget, factor, b32),
            "D3.3": lambda t: d33_test(t, reading, budget, factor, b33)}


def supported(table: pd.DataFrame, test, seed: int):
    """The bootstrap support over seeds (:func:`~inferopt.experiment.support.bootstrap_support`, ``by="seed"``) of
    ``test`` (a function of a table: True, False or None) holding on ``table``; None where ``test`` is not measured."""
    check_callable("test", test)
    check_table("table", table, ("seed",))
    seed = check_int("seed", seed, low=0)
    return None if test(table) is None else bootstrap_support(lambda t: test(t) is True, table, by="seed", seed=seed)


def map_run_table(runs: dict, label: str, *, dataset: str, start: float, optimum: float, shares, budget: dict, M: int,
                  absolute: dict | None = None) -> pd.DataFrame:
    """The run table (:func:`~.completion.run_table`, stays-below times, work columns with ``M`` probes) of the map's
    cell ``label``: ``runs`` maps ``(label, dataset, method, seed)`` to a result; its targets are ``shares`` of the way
    from the ``start``'s test RMSE (θ = 0, the training mean: the same at every setting) to the cell's model
    ``optimum``'s, read at its ``budget`` (``{dataset: seconds or None}``), and ``absolute`` (``{reading: test RMSE}``,
    e.g. the paper's RMSE 1.5 of Sec. 5.1, which D3.3's literal reading reads in :data:`RAW_CELL`, :func:`cell_budget`)."""
    if not isinstance(runs, dict):
        raise TypeError(f"runs must be a mapping (label, dataset, method, seed) -> result; got {type(runs).__name__}")
    own = {k[1:]: r for k, r in runs.items() if k[0] == label}
    if not own:
        raise ValueError(f"runs hold no run of the cell label {label!r}")
    shares = [check_real("shares (an entry of)", s, low=0.0, low_open=True) for s in _grid_values("shares", shares)]
    if absolute is not None and (not isinstance(absolute, dict) or not all(isinstance(k, str) for k in absolute)):
        raise TypeError(f"absolute must map a reading's name to its test RMSE target; got {absolute!r}")
    extra = {k: check_real(f"absolute[{k!r}]", v, low=0.0, low_open=True) for k, v in (absolute or {}).items()}
    return run_table(own, {dataset: {share_key(s): rmse_target(start, optimum, s) for s in shares} | extra}, budget, M=M, stay=True)


def cell_budget(label: str, map_budget, budget):
    """A map cell's work budget: ``map_budget`` (:func:`map_budgets`' ``"budget"``) for every cell but the paper's literal
    one, :data:`RAW_CELL` (the chosen (ε, λ) on the raw box [0, 5] from θ = 0, run where the regime is centred), which gets
    the main runs' ``budget`` (session 43's review: D3.3's literal reading, "about 2 times faster to achieve RMSE 1.5",
    Sec. 5.1, is read there by times to that target, which the map's shorter budget cut before any run reached it)."""
    if not isinstance(label, str):
        raise TypeError(f"label must be a map cell's label; got {label!r}")
    map_budget, budget = _seconds_or_none("map_budget", map_budget), _seconds_or_none("budget", budget)
    return budget if label == RAW_CELL and budget is not None else map_budget


def verdict_map(cells: dict, *, dataset: str, reading: str, n_seeds: int, seed: int, methods=METHODS, claims=MAP_CLAIMS) -> tuple:
    """D3.1-D3.3 read at every cell of the map. ``cells`` maps a label to ``{"setting": {"eps", "lam"}, "table": its
    runs (:func:`~.completion.run_table`), "budget": {dataset: seconds or None}, "quality": :func:`optimum_quality`,
    "optimum": the optimum's test RMSE, "factors": {arm: step factor}, "edges": {arm: grid edge or None}}`` (the chosen
    cell is the main runs). Each claim's test (:func:`claim_tests`) decides each cell, its bootstrap support over seeds
    beside (:func:`supported`); a cell with fewer seeds than decide (:func:`~.completion.seeded_cell`: ``n_seeds`` of the
    main runs, or at least 5) is shown undecided.

    A cell's setting may carry ``"ratings": "centred"`` (:data:`CENTRED_CELL`, :func:`cell_data`): it is read as any other
    cell, its setting keeping the key (so that it is not the chosen one, and a diagnosis can tell a rescue resting on it).

    Returns ``({claim: [cell, ...]}, [row, ...])``: the cells of each claim (what :func:`~.completion.completion_diagnosis`
    reads) and one row per cell for the map's table (setting, its ``ratings``, raw or centred, quality with ``b/a`` and
    ``q0``, budget, seeds, each arm's median final test
    RMSE, step factor and grid edge, SGD's zero-degree share, each claim's outcome). ``methods``: the arms the cells ran
    (:func:`map_arms`); ``claims``: the claims read (:func:`map_claims`; the others get no cells). A cell input may carry
    ``"bounds"`` (:func:`can_rescue` of its first seeds): a cell stopped with fewer seeds than decide where no claim could
    be rescued records, per claim, ``no rescue`` (the bound on its support) beside ``undecided``."""
    if not isinstance(cells, dict) or not cells:
        raise TypeError("cells must be a non-empty mapping label -> {setting, table, budget, quality, optimum, factors, edges}")
    n_seeds, seed = check_int("n_seeds", n_seeds, low=1), check_int("seed", seed, low=0)
    methods = list(methods)
    claims = list(claims)
    check_choices("claims", claims, set(MAP_CLAIMS))
    need = {"setting", "table", "budget", "quality", "optimum", "factors", "edges"}
    map_cells, rows = {c: [] for c in MAP_CLAIMS}, []
    for label, c_ in cells.items():
        if not isinstance(c_, dict) or not need <= set(c_):
            raise ValueError(f"cells[{label!r}] must hold {sorted(need)}; got {sorted(c_) if isinstance(c_, dict) else c_!r}")
        tb = check_table(f"cells[{label!r}]['table']", c_["table"], ("seed", "method", "final RMSE", "zero-degree share"))
        check_choices(f"cells[{label!r}]['factors']", methods, set(c_["factors"]))
        check_choices(f"cells[{label!r}]['edges']", methods, set(c_["edges"]))
        s_ = c_["setting"]
        if not isinstance(s_, dict) or not {"eps", "lam"} <= set(s_):
            raise ValueError(f"cells[{label!r}]['setting'] must be {{'eps', 'lam'[, 'ratings']}}; got {s_!r}")
        setting = {"dataset": dataset, "eps": check_real(f"cells[{label!r}]['setting']['eps']", s_["eps"], low=0.0, low_open=True),
                   "lam": check_real(f"cells[{label!r}]['setting']['lam']", s_["lam"], low=0.0, low_open=True)} | (
            {RATINGS: CENTRED} if on_centred(s_) else {})
        optimum = check_real(f"cells[{label!r}]['optimum']", c_["optimum"], low=0.0)
        if not isinstance(c_["budget"], dict) or dataset not in c_["budget"]:
            raise ValueError(f"cells[{label!r}]['budget'] must be a mapping holding {dataset!r}: its seconds or None")
        tests = {c: t for c, t in claim_tests(tb, c_["budget"], reading).items() if c in claims} if claims else {}
        outcome = {c: t(tb) for c, t in tests.items()}
        bounds = c_.get("bounds") or {}
        medians = tb.groupby("method")[["final RMSE", "zero-degree share"]].median()
        seeds = int(tb.seed.nunique())
        rows.append({"cell": label} | setting | {RATINGS: setting.get(RATINGS, "raw")} | c_["quality"] | {"optimum test RMSE": optimum}
                    | {"budget (work)": c_["budget"][dataset], "seeds": seeds}
                    | {f"{m} final test RMSE": float(medians.loc[m, "final RMSE"]) for m in methods}
                    | {f"{m} step factor": c_["factors"][m] for m in methods}
                    | {f"{m} step at grid edge": c_["edges"][m] or "" for m in methods}
                    | {"SGD zero-degree share": float(medians.loc["SGD", "zero-degree share"]) if "SGD" in methods else float("nan")}
                    | {f"{c} holds": outcome.get(c) for c in MAP_CLAIMS}
                    | {f"{c} support bound": bounds[c]["bound"] for c in claims if c in bounds})
        for c, test in tests.items():
            one = seeded_cell(setting, outcome[c], support=supported(tb, test, seed), seeds=seeds, main_seeds=n_seeds,
                              construction="ours", data="stand-in")
            if "undecided" in one and c in bounds and not bounds[c]["possible"]:
                b = bounds[c]
                one |= {"no rescue": f"{b['against']} of its {b['seeds']} seeds count against it: at {b['at']} "
                        f"seeds its bootstrap support of holding is at most {b['bound']:.2f}, below {RESCUE_SUPPORT:g}, whatever the "
                        "other seeds give (stopped: it cannot rescue the claim)"}
            map_cells[c].append(one)
    return map_cells, rows


def centred_diagnosis(cells, text: str, **kw):
    """:func:`~.completion.completion_diagnosis` of a D3 claim's verdict-map ``cells`` (its keywords ``kw``), saying
    whether a ``setting`` diagnosis rests on the centred cell (:func:`on_centred`; the paper gives the raw box [0, 5],
    the centred ratings are an open setting of ours): the same diagnosis of the map without its centred cells decides it.
    Where that is no ``setting``, the rescue rests on the centred cells alone and the text says so; where it is one, the
    raw ratings rescue the claim too and the text says that. The evidence records it (``rests on the centred cell``).
    Any other diagnosis is :func:`~.completion.completion_diagnosis`'s."""
    cells = list(cells)
    out = completion_diagnosis(cells, text, **kw)
    centred = [c for c in cells if on_centred(c["setting"])]
    if not centred or not isinstance(out, dict) or out.get("kind") != "setting":
        return out
    raw = completion_diagnosis([c for c in cells if not on_centred(c["setting"])], text, **kw)
    alone = not (isinstance(raw, dict) and raw.get("kind") == "setting")
    said = (f" The rescue rests on the centred cell alone: the claim holds, decisively, on {CENTRED_WORDS}, and at no cell on the "
            "paper's raw ratings." if alone else
            f" The map's raw-ratings cells rescue it without the centred cell ({CENTRED_WORDS}): the rescue does not rest on it.")
    return out | {"text": out["text"] + said, "evidence": out["evidence"] | {"rests on the centred cell": alone}}


#: the arms each claim of the map reads (GD, the map's budget reference, runs in every cell)
CLAIM_ARMS = {"D3.1": ("SGD-DET", "SGD", "SVRG"), "D3.2": ("SGD", "GD"), "D3.3": ("SVRG", "GD", "SGD")}

#: the support a rescue needs (a decisive cell, :func:`~inferopt.experiment.verdict_map.cell`)
RESCUE_SUPPORT = 0.9


def map_claims(outcomes: dict) -> list:
    """The claims the map must diagnose: those of :data:`MAP_CLAIMS` whose test fails at the chosen cell (``outcomes``:
    ``{claim: True, False or None}``, the main runs' :func:`claim_tests`). A claim that holds needs no diagnosis, and one
    that is undecided or not measured at the chosen cell takes none (:class:`~inferopt.experiment.claims.Unearned`): the map
    runs only for what it can change."""
    if not isinstance(outcomes, dict):
        raise TypeError(f"outcomes must be a mapping claim -> True, False or None; got {type(outcomes).__name__}")
    check_choices("outcomes' claims", list(outcomes), set(MAP_CLAIMS))
    for c, v in outcomes.items():
        if v is not None and not isinstance(v, bool | np.bool_):
            raise TypeError(f"outcomes[{c!r}] must be True, False or None; got {v!r}")
    return [c for c in MAP_CLAIMS if c in outcomes and outcomes[c] is not None and not bool(outcomes[c])]


def map_arms(claims) -> list:
    """The arms the map runs for ``claims`` (:func:`map_claims`): GD (the budget's reference) and every arm a claim reads
    (:data:`CLAIM_ARMS`), in :data:`~.completion.METHODS`' order; SGD-DET only where D3.1 is mapped."""
    claims = list(claims)
    check_choices("claims", claims, set(MAP_CLAIMS))
    need = {"GD"} | {m for c in claims for m in CLAIM_ARMS[c]}
    return [m for m in METHODS if m in need]


def rescue_bound(against: int, n_seeds: int) -> float:
    """The largest bootstrap support (resamples of ``n_seeds`` seeds with replacement) a cell can give a claim holding when
    ``against`` of its seeds count against it (:func:`against_seeds`): a claim read on medians over seeds holds in a
    resample only if at least half its draws are seeds for it, so its support is at most ``P(Binomial(n, a / n) <= n // 2)``
    (the chance that at most ``n // 2`` draws land on the ``a`` seeds against; more seeds against only lower it)."""
    from scipy.stats import binom

    n_seeds = check_int("n_seeds", n_seeds, low=1)
    against = check_int("against", against, low=0, high=n_seeds)
    return float(binom.cdf(n_seeds // 2, n_seeds, against / n_seeds))


def first_seeds(n_seeds: int, level: float = RESCUE_SUPPORT) -> int:
    """How many seeds a cell runs first: the fewest whose all counting against a claim bound any cell of ``n_seeds`` seeds
    below the support a rescue needs (:func:`rescue_bound` below ``level``), whatever the remaining seeds give; 5 seeds: 2
    (at most 0.68). ``n_seeds`` when no fewer can."""
    n_seeds = check_int("n_seeds", n_seeds, low=1)
    level = check_real("level", level, low=0.0, low_open=True, high=1.0)
    return next((a for a in range(1, n_seeds + 1) if rescue_bound(a, n_seeds) < level), n_seeds)


def against_seeds(table: pd.DataFrame, claim: str, reading: str, budget, factor: float = 1.5) -> list:
    """The seeds of a cell's runs (``table``, :func:`~.completion.run_table` of one dataset, GD deterministic) that count
    against ``claim`` holding on either of its readings (by the times to the target ``reading`` or at equal time,
    :func:`~.completion.comparison_bases`): D3.2 (SGD) and D3.3 (SVRG), a seed whose run reaches the target later than
    GD's time (at most the ``budget``, work or None) divided by ``factor`` (both claims' margin) and ends no lower than GD
    (D3.3's SVRG-GD part, which the whole claim needs). A median over seeds below GD's needs at least half its draws from the other seeds
    (:func:`rescue_bound`). D3.1 (a gap beyond the seeds' range) has no such bound: no seed is counted against it."""
    check_choice("claim", claim, MAP_CLAIMS)
    tb = check_table("table", table, ("dataset", "method", "seed", "final RMSE", f"time to {reading}"))
    if tb.dataset.nunique() != 1:
        raise ValueError("table must hold one dataset's runs (one cell)")
    factor = check_real("factor", factor, low=1.0)
    limit = np.inf if budget is None else check_real("budget", budget, low=0.0, low_open=True)
    if claim == "D3.1":
        return []
    arm, scale = ("SGD", factor) if claim == "D3.2" else ("SVRG", factor)
    gd = tb[tb.method == "GD"]
    if gd.empty or not (tb.method == arm).any():
        raise ValueError(f"table must hold GD's run and {arm}'s runs for {claim}")
    t_gd, r_gd = float(gd[f"time to {reading}"].iloc[0]), float(gd["final RMSE"].iloc[0])
    bar = min(t_gd, limit) / scale
    rows = tb[tb.method == arm]
    times = rows[f"time to {reading}"].to_numpy(float)
    late = times > bar     # the factor may be met exactly
    worse = rows["final RMSE"].to_numpy(float) >= r_gd
    return sorted(int(s) for s in rows.seed[late & worse])


def can_rescue(table: pd.DataFrame, claims, reading: str, budget, n_seeds: int, factor: float = 1.5,
               level: float = RESCUE_SUPPORT) -> dict:
    """Whether a cell of the map could still rescue each of ``claims`` once it has ``n_seeds`` seeds, from its first
    seeds' runs (``table``): ``{claim: {"possible", "against", "seeds", "bound", "at"}}``, ``bound`` the largest support the
    cell could then give the claim holding (:func:`rescue_bound` of :func:`against_seeds`), ``possible`` whether it
    reaches ``level``. A cell where no claim can be rescued needs no more seeds: its verdict on the rescue is decided."""
    n_seeds = check_int("n_seeds", n_seeds, low=1)
    level = check_real("level", level, low=0.0, low_open=True, high=1.0)
    seeds = int(check_table("table", table, ("seed",)).seed.nunique())
    out = {}
    for c in claims:
        a = len(against_seeds(table, c, reading, budget, factor))
        bound = rescue_bound(min(a, n_seeds), n_seeds)
        out[c] = {"possible": bound >= level, "against": a, "seeds": seeds, "bound": bound, "at": n_seeds}
    return out
