"""B1's other constructions of Fig. 3 (inferopt.experiment.herding_fig3): the authors' script's construction checked
against independent truths (a brute-force herding loop, a QP over the simplex by scipy, the start nearest 0.5), our
construction from a given first point, and the diagnosis they decide (it can be `construction`, and can be `paper`)."""
import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize

from inferopt.experiment.herding_claims import slope_gap, worse_at_same_rate
from inferopt.experiment.herding_fig3 import (WeightedGridTarget, authors_cg, authors_curves, authors_equal_proj, authors_grid,
                                               axis_claim, axis_verdict, best_always, cg_curves_from, lost_setting_claim,
                                               all_first_points, deciding_cells, first_points_table,
                                               every_share_above, fig3_diagnosis, gains_always, nearest_candidate,
                                               one_at_a_time, random_first_points, with_equal_proj)
from inferopt.experiment.verdict_map import cell
from inferopt.experiment.support import deterministic
from inferopt.herding import SobolevTarget, TrigDensity, mmd2, projected_errors

DENSITY = TrigDensity.random(np.random.default_rng(3), degree=2)
EXACT = SobolevTarget(1, DENSITY)


def exact_error(points, w):
    K = EXACT.kernel(points, points)
    return float(w @ K @ w - 2 * w @ EXACT.mean(points) + EXACT.mean_sqnorm)


def test_the_first_point_is_the_candidate_nearest_one_half():
    assert nearest_candidate(np.arange(200) / 200) == 100
    assert nearest_candidate([0.1, 0.45, 0.62, 0.9]) == 1
    assert nearest_candidate([0.0, 0.25, 0.75]) == 1           # an exact tie: the first, as MATLAB's min
    grid, w = authors_grid(DENSITY, 8)
    assert grid[nearest_candidate(grid)] == 0.5 and w.sum() == pytest.approx(1.0) and (w > 0).all()


def test_weighted_grid_target_is_the_weighted_mean_element():
    grid, w = authors_grid(DENSITY, 9)
    fit = WeightedGridTarget(EXACT, grid, w)
    K = EXACT.kernel(grid, grid)
    assert fit.mean_sqnorm == pytest.approx(w @ K @ w)
    assert np.allclose(fit.mean(grid), K @ w)
    with pytest.raises(ValueError, match="summing to 1"):
        WeightedGridTarget(EXACT, grid, 2 * w)


def brute_force(n_candidates, n_points, step):
    """The script's loop written out on the Gram matrix: g_0 = Phi(x_start), x = features - weighted mean; herding
    rho = 1/t, line search rho = <x, x - x_new> / ||x - x_new||^2; errors against the exact mu."""
    grid, p = authors_grid(DENSITY, n_candidates)
    K = EXACT.kernel(grid, grid)
    start = int(np.argmin(np.abs(grid - 0.5)))
    alpha = np.zeros(n_candidates)
    alpha[start] = 1.0
    errors = [exact_error(grid, alpha)]
    for t in range(1, n_points + 1):
        scores = K @ (alpha - p)                          # <Phi_j - mu_w, g - mu_w> up to a constant in j
        b = int(np.argmin(scores))
        e = np.zeros(n_candidates)
        e[b] = 1.0
        if step == "herding":
            rho = 1.0 / t
        else:
            d = alpha - e
            rho = float((alpha - p) @ K @ d / (d @ K @ d))
        alpha = (1 - rho) * alpha + rho * e
        errors.append(exact_error(grid, alpha))
    return np.array(errors)


@pytest.mark.parametrize("name, step", [("cg-1/(t+1)", "herding"), ("cg-l.search", "line search")])
def test_authors_herding_and_line_search_match_a_brute_force_loop(name, step):
    got, listed = authors_cg(EXACT, DENSITY, n_candidates=8, n_points=12)[name]
    want = brute_force(8, 12, step)
    assert len(got) == 13 and listed[0] == 4                  # abscissae 1..T+1; the start listed first
    assert np.allclose(got, want, rtol=1e-9, atol=1e-15)


def test_authors_herding_drops_the_start_after_its_first_step():
    got, listed = authors_cg(EXACT, DENSITY, n_candidates=8, n_points=4)["cg-1/(t+1)"]
    grid, _ = authors_grid(DENSITY, 8)
    assert got[0] == pytest.approx(exact_error(grid[[4]], np.ones(1)))      # abscissa 1: the start alone
    assert got[1] == pytest.approx(exact_error(grid[listed[1:2]], np.ones(1)))   # abscissa 2: its first point alone


def test_authors_min_norm_point_ends_on_the_simplex_qp_optimum():
    grid, p = authors_grid(DENSITY, 7)
    fit = WeightedGridTarget(EXACT, grid, p)
    got, _ = authors_cg(EXACT, DENSITY, n_candidates=7, n_points=20)["min-norm-point"]
    K, c = EXACT.kernel(grid, grid), fit.mean(grid)
    qp = minimize(lambda a: a @ K @ a - 2 * a @ c, np.full(7, 1 / 7), jac=lambda a: 2 * K @ a - 2 * c,
                  bounds=[(0, 1)] * 7, constraints=[{"type": "eq", "fun": lambda a: a.sum() - 1}], method="SLSQP",
                  options={"ftol": 1e-15, "maxiter": 500})
    assert got[-1] == pytest.approx(exact_error(grid, qp.x), rel=1e-5, abs=1e-12)
    assert got[-1] == pytest.approx(exact_error(grid, p), rel=1e-6)          # mu_w itself: the fitted mean


def test_projected_errors_against_another_target_match_a_simplex_qp():
    grid, p = authors_grid(DENSITY, 9)
    fit = WeightedGridTarget(EXACT, grid, p)
    pts = grid[[4, 0, 6, 0, 2, 7]]                            # a repeat, as herding's listed points have
    got = projected_errors(fit, pts, [2, 3, 6], EXACT)      # fitted to mu_w, read against the exact mu
    for t, g in zip([2, 3, 6], got):
        u = np.unique(pts[:t])
        K, c = EXACT.kernel(u, u), fit.mean(u)
        qp = minimize(lambda a: a @ K @ a - 2 * a @ c, np.full(len(u), 1 / len(u)), bounds=[(0, 1)] * len(u),
                      constraints=[{"type": "eq", "fun": lambda a: a.sum() - 1}], method="SLSQP", options={"ftol": 1e-15})
        assert g == pytest.approx(exact_error(u, qp.x), rel=1e-5, abs=1e-12)
    # the default target of the error is the fitted mean: the library's own -proj error
    own = projected_errors(fit, pts, [2, 3, 6])
    assert own == pytest.approx([projected_errors(fit, pts[:t], [t])[0] for t in [2, 3, 6]])
    assert not np.allclose(own, got)                          # mu_w is not mu: the target of the error matters
    with pytest.raises(TypeError):
        projected_errors(fit, pts, [2], error_target="exact")


def test_authors_curves_are_read_at_the_plotted_abscissae():
    df = authors_curves(EXACT, DENSITY, 2, 0, n_candidates=11, n_points=10)
    assert set(df.t) == {1, 3, 5, 7, 9, 11}
    assert set(df.method) == {"cg-1/(t+1)", "cg-1/(t+1)-proj", "cg-l.search", "cg-l.search-proj", "min-norm-point",
                              "random", "random-proj", "sobol", "sobol-proj"}
    assert df[df.method == "cg-1/(t+1)"].x.isna().all() and df[df.method == "sobol"].x.notna().all()


def test_random_first_points_are_seeded_candidates():
    a, b = random_first_points(64, 3, 5), random_first_points(64, 3, 5)
    assert a == b and all(0 <= i < 64 for i in a)


def test_cg_curves_from_start_at_the_first_point():
    grid = np.arange(32) / 32
    df = cg_curves_from(EXACT, grid, 8, 5, [2, 4])
    h = df[df.method == "cg-1/(t+1)"].sort_values("t")
    assert h.x.iloc[0] == grid[5]
    assert h.error.iloc[0] == pytest.approx(mmd2(EXACT, grid[[5]]))
    assert df[df.method == "min-norm-point"].error.iloc[0] == pytest.approx(mmd2(EXACT, grid[[5]]))
    assert set(df[df.method == "cg-l.search-proj"].t) == {2, 4}


DET = deterministic("one computation")


def test_fig3_diagnosis_is_construction_where_the_authors_cell_differs():
    cells = [cell({"grid": "ours"}, False, support=DET), cell({"grid": "odd"}, False, support=DET),
             cell({"first point": "random"}, False, support=DET),
             cell({"construction": "authors' script"}, True, support=DET, construction="authors")]
    d = fig3_diagnosis(cells, "It fails.")
    assert d["kind"] == "construction" and "ours fails" in d["text"] and "holds" in d["text"]


def test_fig3_diagnosis_is_paper_where_every_cell_fails_decisively():
    cells = [cell({"grid": "ours"}, False, support=DET), cell({"grid": "odd"}, False, support=DET),
             cell({"construction": "authors' script"}, False, support=DET, construction="authors")]
    assert fig3_diagnosis(cells, "It fails.")["kind"] == "paper"


def test_authors_equal_proj_snaps_to_the_candidates_and_fits_the_weighted_mean():
    grid, w = authors_grid(DENSITY, 11)
    fit = WeightedGridTarget(EXACT, grid, w)
    df = authors_equal_proj(EXACT, DENSITY, 2, 0, n_candidates=11, n_points=10)
    assert set(df.method) == {"sobol-proj", "random-proj"} and set(df.t) == {1, 3, 5, 7, 9, 11}
    # the same draws as authors_curves from a generator seeded alike, snapped to the nearest candidate
    from inferopt.experiment.herding import snap_to_grid
    rng = np.random.default_rng(0)
    pts = snap_to_grid(DENSITY.sample(11, rng), grid)
    want = projected_errors(fit, pts, [1, 3, 5, 7, 9, 11], EXACT)
    got = df[(df.method == "random-proj") & (df.rep == 0)].sort_values("t").error.to_numpy()
    assert np.allclose(got, want)
    # the authors' own random-proj (raw points, the exact mu) differs from it
    raw = authors_curves(EXACT, DENSITY, 2, 0, n_candidates=11, n_points=10)
    theirs = raw[(raw.method == "random-proj") & (raw.rep == 0)].sort_values("t").error.to_numpy()
    assert not np.allclose(got, theirs)
    both = with_equal_proj(raw, df)
    assert len(both) == len(raw) and np.allclose(
        both[(both.method == "random-proj") & (both.rep == 0)].sort_values("t").error.to_numpy(), want)


def test_every_share_above_holds_and_fails_with_the_share():
    gains = {"a": np.array([2.0] * 9 + [1.1]), "b": np.array([3.0] * 10)}
    assert every_share_above(gains, 1.5, 0.9)
    assert not every_share_above(gains, 1.5, 1.0)
    assert not every_share_above(gains, 2.5, 0.9)             # "a" is above 2.5 nowhere
    with pytest.raises(ValueError):
        every_share_above({}, 1.5, 0.9)


def s_cells(ours_1, ours_2, authors_1=None):
    boot = lambda h: {"method": "bootstrap", "fraction_holding": 1.0 if h else 0.0, "unit": "rep", "n_units": 10,
                      "n_resamples": 200, "seed": 0}
    out = [cell({"s": 1, "grid": "ours"}, ours_1, support=boot(ours_1)), cell({"s": 1, "grid": "odd"}, ours_1, support=boot(ours_1))]
    if authors_1 is not None:
        out.append(cell({"s": 1, "construction": "authors"}, authors_1, support=boot(authors_1), construction="authors"))
    return out + [cell({"s": 2, "grid": "ours"}, ours_2, support=boot(ours_2)), cell({"s": 2, "grid": "odd"}, ours_2, support=boot(ours_2))]


def test_axis_verdict_holds_fails_with_setting_and_construction():
    assert axis_verdict(s_cells(True, True), "s", "x") == (True, None)
    h, d = axis_verdict(s_cells(False, True), "s", "It fails at s = 1.")
    assert h is False and d["kind"] == "setting" and "holds decisively at s = 2" in d["text"]
    h, d = axis_verdict(s_cells(False, True, authors_1=True), "s", "x")
    assert h is False and d["kind"] == "construction" and "s = 1 ours fails, the authors' holds" in d["text"]
    h, d = axis_verdict(s_cells(False, False), "s", "It fails.")
    assert h is False and not isinstance(d, dict) or d["kind"] != "setting"
    with pytest.raises(ValueError):
        axis_verdict([cell({"grid": "ours"}, True, support=DET)], "s", "x")


def test_axis_claim_gives_the_claim_its_verdict_support_and_readings():
    from inferopt.experiment.claims import Unearned, format_value
    cells = s_cells(False, True)
    for c in cells:
        c["readings"] = {"[1]": c["verdict"], "[2]": c["verdict"]}
    sup = {format_value(c["setting"]): {"method": "bootstrap", "fraction_holding": float(c["verdict"] == "holds")} for c in cells}
    got = axis_claim(cells, "s", "x", [[1], [2]], sup, "more draws")
    assert got["holds"] is False and got["diagnosis"]["kind"] == "setting"
    assert got["support"]["fraction_holding"] == 0.0 and [r["verdict"] for r in got["readings"]] == ["fails", "fails"]
    cells = s_cells(True, True)
    for c in cells:
        c["readings"] = {"[1]": "holds", "[2]": "holds"}
    got = axis_claim(cells, "s", "x", [[1], [2]], {}, "more draws")
    assert got["holds"] is True and got["diagnosis"] is None and got["readings"][0]["verdict"] == "holds"
    undecided = [cell({"s": 1, "grid": "ours"}, None), cell({"s": 2, "grid": "ours"}, True, support=DET)]
    for c in undecided:
        c["readings"] = {"[1]": "holds", "[2]": "fails"}
    got = axis_claim(undecided, "s", "x", [[1], [2]], {}, "more draws")
    assert isinstance(got["diagnosis"], Unearned) and got["readings"][1]["verdict"] == "fails"


def test_gains_always_reads_every_size_and_nine_in_ten():
    gains = {"a": np.array([2.0] * 9 + [1.1]), "b": np.array([1.6] * 6 + [1.2] * 4)}
    assert not gains_always(gains, 1.5, 1.0) and not gains_always(gains, 1.5, 0.9)   # "b" above 1.5 at 6 sizes in 10
    assert gains_always({"a": gains["a"]}, 1.5, 0.9) and not gains_always({"a": gains["a"]}, 1.5, 1.0)
    assert gains_always(gains, 1.5, 0.5)                                               # the median reading: 6 in 10
    assert not gains_always(gains | {"c": np.array([1.6] * 4 + [1.2] * 6)}, 1.5, 0.5)  # "c" above 1.5 at 4 sizes in 10
    for bad in (0.7, 0.25):
        with pytest.raises(ValueError):
            gains_always(gains, 1.5, bad)


def test_best_always_reads_every_size_and_nine_in_ten():
    t = np.arange(8, 18)
    o = {"p": pd.DataFrame({"ratio": [0.5] * 9 + [1.03]}, index=t), "q": pd.DataFrame({"ratio": [0.9] * 10}, index=t)}
    assert not best_always(o, 1e-9, 8, 1.0)       # a loss at t = 17
    assert best_always(o, 1e-9, 8, 0.9, cap=0.05)  # nine in ten, the loss narrower than the cap
    assert not best_always(o, 1e-9, 8, 0.9, cap={"p": 0.02, "q": 0.5})   # the loss wider than p's own cap: not forgiven
    o["q"] = pd.DataFrame({"ratio": [1.01] * 6 + [0.5] * 4}, index=t)
    assert not best_always(o, 1e-9, 8, 0.9, cap=0.05)
    with pytest.raises(ValueError):
        best_always(o, 1e-9, 8, 0.9)              # the share needs its cap
    for bad in (0.5, 0.3):
        with pytest.raises(ValueError):
            best_always(o, 1e-9, 8, bad, cap=0.05)


def test_deciding_cells_are_the_random_first_points_only():
    DET = deterministic("x")
    cells = [cell({"grid": "ours"}, False, support=DET), cell({"grid": "quarter"}, True, support=DET),
             cell({"first point": "x = 0.1 (draw 1)"}, True, support=DET), cell({"first point": "x = 0.7 (draw 2)"}, True, support=DET),
             cell({"construction": "raw"}, False, support=DET, construction="authors"),
             cell({"construction": "eq", "inputs": "equal"}, True, support=DET, construction="authors")]
    for c, r in zip(cells, ("fails", "holds", "holds", "holds", "fails", "holds")):
        c["readings"] = {"[1]": r}
    got = deciding_cells(cells)                   # THE RULE's clause 1: the authors' cells (either) only diagnose
    assert [c["setting"] for c in got] == [cells[2]["setting"], cells[3]["setting"]]
    with pytest.raises(ValueError):
        deciding_cells(cells[:2])                                           # no random first point: nothing decides
    with pytest.raises(ValueError):
        deciding_cells(cells[4:])


def test_all_first_points_holds_from_every_first_point_and_fails_otherwise():
    DET = deterministic("x")
    cells = [cell({"first point": f"draw {j}"}, True, support=DET) for j in range(3)]
    for c in cells:
        c["readings"] = {"[1]": "holds"}
    table = first_points_table(cells, "[1]")
    assert list(table["first"]) == [0, 1, 2] and all_first_points(table)
    cells[1]["readings"]["[1]"] = "fails"
    assert not all_first_points(first_points_table(cells, "[1]"))
    from inferopt.experiment.support import bootstrap_support
    sup = bootstrap_support(all_first_points, first_points_table(cells, "[1]"), by="first", seed=0)
    assert 0.6 < 1 - sup["fraction_holding"] < 0.8                          # one failing draw in three: ~0.70, inconclusive
    cells[1]["readings"]["[1]"] = "holds"
    equal = cell({"construction": "eq", "inputs": "equal"}, False, support=DET, construction="authors")
    equal["readings"] = {"[1]": "fails"}
    table = first_points_table(cells + [equal], "[1]")
    assert len(table) == 3 and all_first_points(table)                       # the authors' cell decides nothing
    with pytest.raises(ValueError):
        first_points_table(cells, "[2]")
    with pytest.raises(ValueError):
        all_first_points(pd.DataFrame())


def test_one_at_a_time_moves_one_cut_off_and_stacks_the_corners_beside():
    read, beside = one_at_a_time([1.5, 1.0, 1], [(1.25, 1.5, 2.0), (1.0, 0.9, 0.5), (1, 2)])
    assert read[0] == [1.5, 1.0, 1] and len(read) == 1 + 2 + 2 + 1
    assert all(sum(a != b for a, b in zip(r, read[0])) == 1 for r in read[1:])
    assert [1.25, 0.9, 2] in beside and len(beside) == 3 * 3 * 2 - len(read)
    with pytest.raises(ValueError):
        one_at_a_time([3.0, 1.0, 1], [(1.25, 1.5), (1.0,), (1,)])


def test_lost_setting_claim_holds_fails_and_is_inconclusive_where_the_values_disagree():
    from inferopt.experiment.claims import Unearned
    boot = lambda h: {"method": "bootstrap", "fraction_holding": float(h), "unit": "rep", "n_units": 10, "n_resamples": 200,
                      "seed": 0}
    # a map of three cells at each s (a verdict map needs three settings): s_cells' two and the cells' midpoints
    with_readings = lambda cells: [c | {"readings": {"[1]": c["verdict"]}} for c in cells + [
        cell({"s": c["setting"]["s"], "grid": "midpoints"}, c["verdict"] == "holds", support=boot(c["verdict"] == "holds"))
        for c in cells if c["setting"].get("grid") == "ours"]]
    got = lost_setting_claim(with_readings(s_cells(True, True)), "s", "x", [[1]], {}, "more draws")
    assert got["holds"] is True and got["diagnosis"] is None and got["by value"] == {1: "holds", 2: "holds"}
    got = lost_setting_claim(with_readings(s_cells(False, False)), "s", "x", [[1]], {}, "more draws")
    assert got["holds"] is False and got["by value"] == {1: "fails", 2: "fails"}     # both fail: the map's own diagnosis
    assert "authors' construction" in got["diagnosis"].reason and "lost setting" not in got["diagnosis"].reason
    boot0 = {"method": "bootstrap", "fraction_holding": 0.0, "unit": "rep", "n_units": 10, "n_resamples": 200, "seed": 0}
    got = lost_setting_claim(with_readings(s_cells(False, True)), "s", "x", [[1]], {"[1, 'ours']": boot0}, "more draws")
    assert got["holds"] is False and isinstance(got["diagnosis"], Unearned) and "lost setting" in got["diagnosis"].reason
    assert got["by value"] == {1: "fails", 2: "holds"} and got["readings"] == [{"value": [1], "verdict": "inconclusive"}]
    undecided = with_readings(s_cells(True, True))
    undecided[0] = cell({"s": 1, "grid": "ours"}, True) | {"readings": {"[1]": "inconclusive"}}
    undecided[1] = cell({"s": 1, "grid": "odd"}, None) | {"readings": {"[1]": "not measured"}}
    got = lost_setting_claim(undecided, "s", "x", [[1]], {}, "more draws")
    assert got["holds"] is False and isinstance(got["diagnosis"], Unearned) and "more draws" in got["diagnosis"].reason
    with pytest.raises(ValueError):
        lost_setting_claim([cell({"grid": "ours"}, True)], "s", "x", [[1]], {}, "more draws")


def test_slope_gap_and_worse_at_same_rate_hold_and_fail():
    t = np.arange(8, 201)
    w = pd.DataFrame({"ls": 3 * t ** -1.0, "h": t ** -1.1, "fast": t ** -2.0}, index=t)
    assert slope_gap(w, "ls", "h", t) == pytest.approx(0.1)
    assert slope_gap(w, "ls", "fast", t) == pytest.approx(1.0)
    assert worse_at_same_rate({"a": 3.0, "b": 2.0}, {"a": 0.1, "b": 0.15}, 0.2)
    assert not worse_at_same_rate({"a": 3.0, "b": 2.0}, {"a": 0.1, "b": 0.93}, 0.2)   # a slope gap: not the same rate
    assert not worse_at_same_rate({"a": 0.9, "b": 2.0}, {"a": 0.1, "b": 0.1}, 0.2)    # better, not worse
    with pytest.raises(ValueError, match="one value per panel"):
        worse_at_same_rate({"a": 2.0}, {"a": 0.1, "b": 0.1}, 0.2)


from inferopt.experiment.herding_fig3 import exact_argmin, exact_herding_uniform, uniform_prefix_errors  # noqa: E402


@pytest.mark.parametrize("s", [1, 2])
def test_exact_argmin_matches_a_brute_force_fine_grid(s):
    target = SobolevTarget(s, TrigDensity.uniform())
    grid = np.arange(400_000) / 400_000
    for seed in range(3):
        pts = np.random.default_rng(seed).random(5 + 4 * seed)
        x, value = exact_argmin(s, pts)
        f = target.kernel(grid, pts).sum(axis=1)
        assert value <= f.min() + 1e-12                     # no grid point does better
        assert value == pytest.approx(target.kernel(np.array([x]), pts).sum(), abs=1e-12)
        assert min(abs(x - grid[np.argmin(f)]), 1 - abs(x - grid[np.argmin(f)])) < 1e-4


def test_exact_herding_on_the_uniform_density_and_its_errors():
    x = exact_herding_uniform(2, 32)
    assert x[0] == 0.0 and x[1] == 0.5                      # the first point, then the farthest (a unique minimum)
    e = uniform_prefix_errors(2, x)
    target = SobolevTarget(2, TrigDensity.uniform())
    assert e[:8] == pytest.approx([mmd2(target, x[:t], np.full(t, 1 / t)) for t in range(1, 9)], rel=1e-9, abs=1e-18)
    # evenly spaced t points: sum over the multiples of t of 2 / (2 pi m)^4 = 1 / (720 t^4)
    assert e[31] == pytest.approx(1 / (720 * 32 ** 4), rel=1e-12)
    with pytest.raises(ValueError):
        exact_argmin(2, [])


def test_lattice_excuses_excuse_a_lattice_and_not_a_non_lattice():
    from inferopt.experiment.herding_fig3 import evenly_weighted_lattice, lattice_excuses, prefix_sets
    vdc = np.array([0, 0.5, 0.25, 0.75, 0.125, 0.625, 0.375, 0.875])         # van der Corput: a lattice at t = 2, 4, 8
    assert lattice_excuses(prefix_sets(vdc, range(1, 9)), uniform_density=True) == [2, 4, 8]
    assert lattice_excuses(prefix_sets(vdc + 0.3, [4, 8]), uniform_density=True) == [4, 8]   # any offset c
    assert lattice_excuses(prefix_sets(vdc, [4, 8]), uniform_density=False) == []          # no circulant Gram matrix
    # Sobol's quantile net on a non-uniform density: evenly spaced in quantile, not in x: not a lattice
    q = np.sqrt(np.array([0, 0.5, 0.25, 0.75]))
    assert lattice_excuses(prefix_sets(q, [4]), uniform_density=True) == []
    assert lattice_excuses(prefix_sets(np.random.default_rng(0).random(8), [4, 8]), uniform_density=True) == []
    # the authors' herding: the start at weight 0; a lattice where it coincides with a herding point (its weight merged),
    # not where it lies apart (-proj may give it weight)
    listed = np.array([0.5, 0.0, 0.5, 0.25, 0.75])
    assert lattice_excuses(prefix_sets(listed, [3, 4, 5], start_weight_zero=True), uniform_density=True) == [3, 5]
    listed = np.array([0.3, 0.0, 0.5, 0.25, 0.75])
    assert lattice_excuses(prefix_sets(listed, [3, 5], start_weight_zero=True), uniform_density=True) == []
    assert not evenly_weighted_lattice([0.0, 0.5, 0.25], [1 / 3] * 3)                     # uneven gaps
    assert not evenly_weighted_lattice([0.0, 0.5], [0.8, 0.2])                             # a lattice, uneven weights
    with pytest.raises(ValueError):
        evenly_weighted_lattice([0.0, 0.5], [0.5])


def _lattice_by_loop(points, weights, atol=1e-9):
    """evenly_weighted_lattice as it was, merging coinciding points in a Python loop (the reference of the vectorised one)."""
    x, w = np.mod(np.asarray(points, float), 1.0), np.asarray(weights, float)
    order = np.argsort(x, kind="stable")
    x, w = x[order], w[order]
    merged_x, merged_w = [], []
    for xi, wi in zip(x, w):
        if merged_x and (xi - merged_x[-1] <= atol):
            merged_w[-1] += wi
        else:
            merged_x.append(xi)
            merged_w.append(wi)
    if len(merged_x) > 1 and merged_x[0] + 1.0 - merged_x[-1] <= atol:
        merged_w[0] += merged_w.pop()
        merged_x.pop()
    px, pw = np.array(merged_x), np.array(merged_w)
    n = len(px)
    if n < 2:
        return False
    gaps = np.diff(np.r_[px, px[0] + 1.0])
    return bool(np.allclose(gaps, 1.0 / n, rtol=0.0, atol=atol) and np.allclose(pw, pw.sum() / n, rtol=0.0, atol=atol))


def test_evenly_weighted_lattice_vectorised_agrees_with_the_loop():
    from inferopt.experiment.herding_fig3 import evenly_weighted_lattice
    rng = np.random.default_rng(3)
    vdc = np.array([0, 0.5, 0.25, 0.75, 0.125, 0.625, 0.375, 0.875])
    cases = [(vdc, np.full(8, 1 / 8)), (vdc + 0.3, np.full(8, 1 / 8)), (np.r_[vdc, 0.5], np.r_[np.full(8, 1 / 9), 1 / 9]),
             (np.r_[vdc, 0.25], np.r_[np.full(8, 1 / 8), 0.0]), (np.r_[0.5, vdc[:4]], np.r_[0.0, np.full(4, 0.25)]),
             (np.r_[1.0 - 1e-12, vdc[:4]], np.r_[0.1, 0.15, 0.25, 0.25, 0.25]), ([0.0, 1e-12, 0.5], [0.25, 0.25, 0.5]),
             ([0.3], [1.0]), ([0.0, 0.0], [0.5, 0.5]), ([0.0, 0.5, 0.25], [1 / 3] * 3), ([0.0, 0.5], [0.8, 0.2]),
             (rng.random(16), np.full(16, 1 / 16)), (np.arange(12) / 12 + 0.01, np.full(12, 1 / 12))]
    cases += [(np.r_[p, p[:3]], rng.random(11)) for p in [np.arange(8) / 8]]
    for pts, w in cases:
        assert evenly_weighted_lattice(pts, w) is _lattice_by_loop(pts, w), (pts, w)
    assert evenly_weighted_lattice(vdc, np.full(8, 1 / 8)) and evenly_weighted_lattice(np.r_[0.5, vdc[:4]], np.r_[0.0, np.full(4, 0.25)])


def test_draw_means_equal_the_table_of_the_drawn_draws():
    from inferopt.experiment.herding import error_table
    from inferopt.experiment.herding_fig3 import DrawMeans
    from inferopt.experiment.support import bootstrap_support
    rng = np.random.default_rng(5)
    rows = [{"panel": p, "method": m, "rep": r, "t": t, "error": rng.random() * 10.0 ** -t}
            for p in (0, 1) for r in range(4) for m in ("random", "random-proj") for t in range(1, 9)
            if m == "random" or t in (2, 5, 8)]
    curves = pd.DataFrame(rows)
    for average in ("mean", "geometric"):
        means = DrawMeans(curves, average)
        for drawn in ([0, 1, 2, 3], [3, 3, 0, 1], [2, 2, 2, 2]):
            table = pd.concat([curves[curves.rep == means.draws[d]].assign(rep=i) for i, d in enumerate(drawn)])
            if average == "geometric":
                table = table.assign(error=np.log(np.maximum(table.error, 1e-300)))
            for p, got in means.tables(drawn).items():
                want = error_table(table[table.panel == p])
                want = np.exp(want) if average == "geometric" else want
                pd.testing.assert_frame_equal(got, want[got.columns], check_names=False, rtol=1e-12)
    # the units table goes through bootstrap_support's relabelling with the draw's index kept
    means = DrawMeans(curves)
    seen = []
    sup = bootstrap_support(lambda d_: seen.append(sorted(d_.draw)) or means.tables(d_.draw)[0]["random"].iloc[0] > 0,
                            means.units(), by="rep", seed=1)
    assert sup["fraction_holding"] == 1.0 and any(len(set(d)) < 4 for d in seen)
    with pytest.raises(ValueError):
        DrawMeans(pd.concat([curves, curves.iloc[:1]]))
    with pytest.raises(ValueError):
        DrawMeans(curves, "median")
