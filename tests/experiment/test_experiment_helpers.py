"""Small helpers of the experiment layer: the method registry, win counts, time to a target."""

import numpy as np
import pandas as pd
import pytest

from inferopt._result import SolveResult
from inferopt.experiment import color, colors_of, label, labels_of
from inferopt.experiment.coresets import always_wins, win_counts, wins
from inferopt.experiment.spectral import faster, time_to


def test_registry_labels_and_colours_are_one_per_method_and_shared_by_refits():
    assert label("a_iht_ii") == "A-IHT II" and label("giga_refit") == "GIGA + re-fit"
    assert color("giga_refit") == color("giga") and color("giga") != color("frank_wolfe")
    assert labels_of(["adafw", "SGD"]) == {"adafw": "AdaFW", "SGD": "SGD"}
    assert set(colors_of(["cg-1/(t+1)", "sobol"])) == {"cg-1/(t+1)", "sobol"}
    with pytest.raises(ValueError, match="unknown method"):
        label("newton")


def test_win_counts_and_always_wins_compare_column_by_column():
    med = pd.DataFrame({"a_iht": [1.0, 2.0, 3.0], "giga": [2.0, 1.0, 4.0], "sparsevi": [5.0, 5.0, 5.0]})
    assert win_counts(med, ["a_iht"], ["giga", "sparsevi"]) == {"A-IHT < GIGA": "2/3", "A-IHT < SparseVI": "3/3"}
    assert always_wins(med, ["a_iht"], ["sparsevi"]) and not always_wins(med, ["a_iht"], ["giga"])


def test_wins_tabulates_win_fractions_per_dataset_and_metric():
    rows = [{"dataset": "d", "k": k, "trial": 0, "method": m, "forward_kl": v, "reverse_kl": v}
            for k, vals in [(1, {"a": 1.0, "b": 2.0}), (2, {"a": 3.0, "b": 2.0})] for m, v in vals.items()]
    table = wins(pd.DataFrame(rows), ["a"], ["b"])
    assert table.loc["d", "forward_kl"] == 0.5 and table.loc["d", "reverse_kl"] == 0.5
    assert wins(pd.DataFrame(rows), ["a"], ["b"], k_min=2).loc["d", "forward_kl"] == 0.0


def test_time_to_target_and_speed_up():
    res = SolveResult(x=np.zeros(1), objective=np.zeros(3), n_iter=2, converged=False, message="",
                      times=np.array([0.0, 1.0, 2.0]))
    res.metric = np.array([3.0, 1.5, 0.5])
    assert time_to(res, 1.5) == 1.0 and np.isnan(time_to(res, 0.1)) and time_to(res, 0.1, missing=np.inf) == np.inf
    assert faster(1.0, 3.0, factor=2.0) and not faster(2.0, 3.0, factor=2.0)
    assert faster(np.nan, np.nan) is None and faster(np.nan, 1.0) is False and faster(1.0, np.nan) is True


@pytest.mark.parametrize("k", [2, 5])
def test_relative_rms_difference_is_zero_for_the_full_data_and_matches_the_contour_panels(k):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from inferopt.coresets import make_rbf_regression
    from inferopt.experiment.coresets import contour_row, relative_rms_difference
    coords = np.random.default_rng(0).normal(size=(40, 2))
    model, info = make_rbf_regression(coords, np.random.default_rng(1).normal(size=40), rng=0, n_subsample=20,
                                      scales=(0.5, 1.0), n_per_scale=2)
    assert relative_rms_difference(model, info, coords, np.ones(model.N), 6) == 0.0
    rng = np.random.default_rng(k)
    w = {m: np.where(rng.random(model.N) < k / model.N + 0.2, rng.uniform(0.5, 3.0, model.N), 0.0) for m in ["a_iht_ii", "sparsevi"]}
    fig, axes = plt.subplots(1, 3)
    shown = contour_row(axes, {"model": model, "info": info, "weights": {m: {k: w[m]} for m in w}}, k, "t", coords, 6)
    plt.close(fig)
    for m in w:
        assert relative_rms_difference(model, info, coords, w[m], 6) == pytest.approx(shown[m], rel=1e-12)
        assert shown[m] > 0


def test_surface_differences_reads_every_trial_every_method_ran():
    from inferopt.coresets import make_rbf_regression
    from inferopt.experiment.coresets import relative_rms_difference, surface_differences
    coords = np.random.default_rng(0).normal(size=(40, 2))
    trials = []
    for t in range(3):
        made = make_rbf_regression(coords, np.random.default_rng(1).normal(size=40), rng=t, n_subsample=20,
                                   scales=(0.5, 1.0), n_per_scale=2)
        w = np.where(np.random.default_rng(t).random(20) < 0.5, 1.5, 0.0)
        trials.append((made, None, {"a_iht_ii": {"ks": np.array([3, 5]), "weights": np.vstack([w, 2 * w])},
                                    "sparsevi": {"ks": np.array([5]), "weights": (w > 0)[None, :] * 1.0}}))
    t = surface_differences({"a_iht_ii": trials, "sparsevi": trials[:2]}, coords, 5, 6)
    assert sorted(t.trial.unique()) == [0, 1] and len(t) == 4      # the trials both methods ran
    got = t.set_index(["trial", "method"]).relative_rms_difference
    assert got[(1, "a_iht_ii")] == relative_rms_difference(*trials[1][0], coords, trials[1][2]["a_iht_ii"]["weights"][1], 6)
    with pytest.raises(ValueError, match="no coreset of size k = 3"):
        surface_differences({"sparsevi": trials}, coords, 3, 6)
    with pytest.raises(ValueError, match="no run of 'giga'"):
        surface_differences({"giga": trials}, coords, 5, 6)
    with pytest.raises(TypeError, match="trials_of"):
        surface_differences([], coords, 5, 6)
