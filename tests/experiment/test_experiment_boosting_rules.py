"""C2/C3's runs with each step rule's own settings (the authors' per-rule values), the RELBO's entropy weight as an
open choice, the ELBO of the full-covariance Laplace approximation, and when a ranking of the rules by ELBO is measured."""

import numpy as np
import pandas as pd
import pytest

from inferopt.boosting.mixture import Mixture
from inferopt.boosting.relbo import greedy_step, relbo_lambda
from inferopt.boosting.targets import GaussianMixtureTarget, LogisticTarget
from inferopt.experiment.boosting import (AUTHORS_RULE_SETTINGS, check_rule_settings, compare_methods, headroom,
                                          selected_is_plain_vi, settings_apart_from)
from inferopt.models.laplace import laplace_approximation


def small_data(seed=0, n=120, d=3):
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, d))
    y = np.where(rng.random(n) < 1 / (1 + np.exp(-Z @ np.array([1.5, -1.0, 0.5]))), 1.0, -1.0)
    return {"Z": Z, "y": y, "Zt": Z[:40], "yt": y[:40]}


RUN = dict(max_iter=2, n_replicates=1, n_eval=20, n_samples=20, reuse_samples=False, ls_draws="authors", estimates="authors",
           greedy={"max_iter": 30, "n_samples": 1, "lr": 0.1})


def test_a_rules_own_settings_reach_its_runs_and_no_other():
    data = small_data()
    plain = compare_methods(data, methods=["predefined", "adafw"], rng=np.random.default_rng(3), C0=0.001, **RUN)
    own = compare_methods(data, methods=["predefined", "adafw"], rng=np.random.default_rng(3), C0=0.001,
                          rule_settings={"adafw": {"C0": 50.0, "eta": 0.5}}, **RUN)
    pre = [r[r.method == "predefined"].drop(columns=[c for c in r if c.startswith("time")])
           .reset_index(drop=True) for r in (plain, own)]
    pd.testing.assert_frame_equal(*pre)                                   # the other rule is untouched, bit for bit
    ada_plain, ada_own = (r[(r.method == "adafw") & (r.iteration == 1)].iloc[0] for r in (plain, own))
    assert ada_plain.gamma != ada_own.gamma                                # C_-1 = 50 takes a different first step


def test_rule_settings_are_checked_by_name():
    assert check_rule_settings(None) == {}
    assert check_rule_settings(AUTHORS_RULE_SETTINGS)["adaafw"] == {"C0": 1.0, "eta": 0.1, "tau": 5.0}
    with pytest.raises(ValueError, match="rule_settings"):
        check_rule_settings({"adafw": {"C1": 1.0}})
    with pytest.raises(ValueError, match="rule_settings"):
        check_rule_settings({"fastest": {"C0": 1.0}})
    with pytest.raises(TypeError, match="rule_settings"):
        check_rule_settings({"adafw": 1.0})


def test_a_map_cell_keeps_every_rule_setting_but_the_one_it_varies():
    """The verdict map's C_-1 cells run each rule at its own eta, tau and the line search at its own steps (equal inputs
    with the main run): only C_-1 is left to the cell."""
    kept = settings_apart_from(AUTHORS_RULE_SETTINGS, ("C0",))
    assert kept["adafw"] == {"eta": 0.01, "tau": 2.0} and kept["line_search"] == {"ls_lr": 0.05, "ls_iter": 25}
    assert settings_apart_from({"adafw": {"C0": 1.0}}, ("C0",)) is None and settings_apart_from(None) is None
    assert settings_apart_from(AUTHORS_RULE_SETTINGS, ("ls_iter",))["line_search"] == {"ls_lr": 0.05}
    with pytest.raises(ValueError, match="varied"):
        settings_apart_from(AUTHORS_RULE_SETTINGS, ("C1",))


def test_the_entropy_weight_is_annealed_or_constant():
    target = GaussianMixtureTarget(np.array([[0.0, 0.0], [3.0, 0.0]]), np.ones((2, 2)))
    q = Mixture.from_component(greedy_step(target, "gaussian", rng=np.random.default_rng(0), max_iter=20).component)
    annealed = greedy_step(target, "gaussian", q, rng=np.random.default_rng(1), max_iter=5, t=3)
    constant = greedy_step(target, "gaussian", q, rng=np.random.default_rng(1), max_iter=5, anneal="constant")
    assert annealed.info["lam"] == pytest.approx(relbo_lambda(3)) == pytest.approx(0.5)
    assert constant.info["lam"] == 1.0
    with pytest.raises(ValueError, match="anneal"):
        greedy_step(target, "gaussian", q, rng=np.random.default_rng(1), max_iter=5, anneal="linear")


def test_headroom_is_the_elbo_of_the_laplace_approximation():
    data = small_data(n=300)
    room = headroom(data, n_eval=20000, rng=np.random.default_rng(0))
    # independent: E_q[log p - log q] with the approximation's own log density on fresh draws
    target = LogisticTarget(data["Z"], data["y"])
    approx = laplace_approximation(target.model)
    x = approx.sample(20000, np.random.default_rng(1))
    direct = target.log_density(x) - approx.logpdf(x)
    assert abs(room["elbo"] - direct.mean()) < 4 * np.hypot(room["elbo_se"], direct.std() / np.sqrt(len(x)))
    with pytest.raises(TypeError, match="data"):
        headroom({"Z": data["Z"]}, rng=np.random.default_rng(0))


def table_records(gammas_by_method, ll_by_method):
    """Records of two replicates whose train LL per iteration is ``ll_by_method[m]`` and steps ``gammas_by_method[m]``."""
    rows = []
    for m, gammas in gammas_by_method.items():
        for r in range(2):
            for t, ll in enumerate(ll_by_method[m]):
                rows.append({"method": m, "replicate": r, "iteration": t, "train_ll": ll,
                             "gamma": np.nan if t == 0 else gammas[t - 1]})
    return pd.DataFrame(rows)


def test_a_selected_iterate_reached_by_zero_steps_is_still_plain_vi():
    # line search takes gamma = 0 twice and its evaluation noise picks t = 2: still plain VI
    zero = table_records({"line_search": [0.0, 0.0], "adafw": [0.2, 0.1]},
                         {"line_search": [-0.70, -0.69, -0.68], "adafw": [-0.60, -0.65, -0.66]})
    assert selected_is_plain_vi(zero)
    moved = table_records({"line_search": [0.0, 0.3], "adafw": [0.2, 0.1]},
                          {"line_search": [-0.70, -0.69, -0.68], "adafw": [-0.60, -0.65, -0.66]})
    assert not selected_is_plain_vi(moved)                       # line search's t = 2 follows a step of 0.3
    with pytest.raises(ValueError, match="records"):
        selected_is_plain_vi(zero.drop(columns="gamma"))
