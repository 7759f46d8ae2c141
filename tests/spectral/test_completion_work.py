"""D3's hardware-neutral work and conditioning (issue 41, design review): exact gradients and Chebyshev mat-vec
products counted from a run's draws; ``b/a`` and the optimal distribution's zero-degree share against a brute-force
pmf; the diagnosis does not rescue the chosen cell with itself and says when a rescue lands where the model means
nothing."""

import numpy as np
import pytest

from inferopt.datasets.movielens import synthetic_low_rank_ratings
from inferopt.experiment.spectral import (completion_diagnosis, cumulative_work, run_table, spectrum_ratio, work_at,
                                          zero_degree_draws, zero_degree_share)
from inferopt.experiment.spectral.completion import completion_problem
from inferopt.experiment.support import deterministic
from inferopt.experiment.verdict_map import cell
from inferopt.spectral import gd, sgd, sgd_det, svrg
from inferopt.spectral.chebyshev import bernstein_rho


@pytest.fixture(scope="module")
def problem():
    D = synthetic_low_rank_ratings(30, 24, 2, 300, rng=5, test_fraction=0.2, noise=0.3)
    return completion_problem(D, 0.05, 0.5, rng=0)


def test_zero_degree_share_is_the_optimal_pmf_at_zero():
    # the review's numbers: q0 = 0.08, 0.70, 0.97, 0.994 at b/a = 1e3, 1e4, 1e6, 2.7e7 with N = 15
    got = [zero_degree_share(r, 15) for r in (1e3, 1e4, 1e6, 2.7e7)]
    assert got == pytest.approx([0.080, 0.703, 0.970, 0.9942], abs=2e-3)
    # brute force: 1 - N (rho - 1) / rho when K = 0, rho from the singularity 0 mapped to [-1, 1]
    t = (1e4 + 1) / (1e4 - 1)
    rho = t + np.sqrt(t * t - 1)
    assert rho == pytest.approx(bernstein_rho(1.0, 1e4, 0.0))
    assert zero_degree_share(1e4, 15) == pytest.approx(1 - 15 * (rho - 1) / rho)
    assert zero_degree_share(3.0, 15) == 0.0                                   # well conditioned: K > 0, no zero draws
    with pytest.raises(ValueError, match="ratio"):
        zero_degree_share(0.5, 15)


def test_spectrum_ratio_reads_the_problems_interval(problem):
    theta = np.full(problem.shape, 2.0)
    a, b = problem.interval(theta)
    assert spectrum_ratio(problem, theta) == pytest.approx(b / a) and b / a > 1


def test_work_counts_follow_the_drawn_degrees(problem):
    theta0, M = np.zeros(problem.shape), 3
    r_sgd = sgd(problem, theta0, max_iter=12, step=0.1, M=M, N=4, rng=1)
    exact, mv = cumulative_work(r_sgd, M)
    assert exact[-1] == 0 and mv[-1] == M * r_sgd.info["degrees"].sum() and mv[5] == M * r_sgd.info["degrees"][:5].sum()
    r_det = sgd_det(problem, theta0, degree=4, max_iter=6, step=0.1, M=M, rng=1)
    assert work_at(r_det, M, 6) == (0.0, 6 * 4 * M) and zero_degree_draws(r_det) == 0.0
    r_svrg = svrg(problem, theta0, n_outer=3, n_inner=4, step=0.1, M=M, N=4, rng=2, max_iter=10)
    exact, mv = cumulative_work(r_svrg, M)
    assert exact.tolist() == [0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3] and r_svrg.info["n_full_gradients"] == 3
    assert mv[-1] == 2 * M * r_svrg.info["degrees"].sum()
    r_gd = gd(problem, theta0, max_iter=5, step=0.1)
    assert work_at(r_gd, M, 5) == (5.0, 0.0) and np.isnan(zero_degree_draws(r_gd))
    assert work_at(r_gd, M, None) == (np.inf, np.inf)


def test_svrg_records_its_degrees_without_changing_its_run(problem):
    """The degrees come from the draws the run makes anyway: the same seed gives the same iterates as before."""
    theta0 = np.zeros(problem.shape)
    a = svrg(problem, theta0, n_outer=2, n_inner=3, step=0.1, M=2, N=4, rng=3)
    b = svrg(problem, theta0, n_outer=2, n_inner=3, step=0.1, M=2, N=4, rng=3)
    assert (a.checksums == b.checksums).all() and a.info["degrees"].size == 6 and (a.info["degrees"] >= 0).all()


def test_run_table_adds_work_to_the_target(problem):
    theta0, M = np.zeros(problem.shape), 2
    results = {("s", "GD", None): gd(problem, theta0, max_iter=8, step=0.3),
               ("s", "SGD", 0): sgd(problem, theta0, max_iter=8, step=0.3, M=M, N=4, rng=4)}
    start = float(results["s", "GD", None].metric[0])
    target = float(results["s", "GD", None].metric[3])                        # GD reaches it at step 3
    tb = run_table(results, {"s": {"t": target}}, {"s": None}, M=M)
    gd_row = tb[tb.method == "GD"].iloc[0]
    assert gd_row["exact gradients to t"] == 3.0 and gd_row["mat-vecs to t"] == 0.0 and gd_row["exact gradients"] == 8.0
    sgd_row = tb[tb.method == "SGD"].iloc[0]
    assert sgd_row["exact gradients"] == 0.0 and sgd_row["mat-vecs"] == M * results["s", "SGD", 0].info["degrees"].sum()
    assert 0.0 <= sgd_row["zero-degree share"] <= 1.0 and start > target
    assert "mat-vecs" not in run_table(results, {"s": {"t": target}}, {"s": None}).columns


def test_the_chosen_cell_is_no_rescue_of_itself_nor_is_a_meaningless_one():
    chosen = {"eps": 10.0}
    one = {"support": deterministic("a constructed cell")}
    cells = [cell(chosen, True, data="stand-in", **one), cell({"eps": 100.0}, False, data="stand-in", **one),
             cell({"eps": 1000.0}, False, data="stand-in", **one), cell({"eps": 1e4}, False, data="stand-in", **one),
             cell({"lam": 1.0}, False, data="stand-in", **one)]
    d = completion_diagnosis(cells, "t.", no_authors_construction="none", chosen=chosen)
    assert not (isinstance(d, dict) and d["kind"] == "setting")                # only the chosen cell holds: no rescue
    cells[2] = cell({"eps": 1000.0}, True, data="stand-in", **one)
    d = completion_diagnosis(cells, "t.", no_authors_construction="none", chosen=chosen, worse_than_mean=[{"eps": 1000.0}])
    assert not (isinstance(d, dict) and d["kind"] == "setting")                # holds only where the model means nothing
    assert "eps = 1000" in (d["text"] if isinstance(d, dict) else d.reason) and "no rescue" in (d["text"] if isinstance(d, dict) else d.reason)
    assert len((d["evidence"] if isinstance(d, dict) else d.evidence)["sweep"]) == 5
    d = completion_diagnosis(cells, "t.", no_authors_construction="none", chosen=chosen)
    assert d["kind"] == "setting" and "eps = 1000" in d["text"] and "worse than the training mean" not in d["text"]
