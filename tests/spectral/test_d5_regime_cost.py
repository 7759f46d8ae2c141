"""D5 fixes of the second review (issue 41): the humidity split chosen on a validation split, the accurate likelihood
beside the RMSE, and D5.5 judged on measured seconds; each deciding function holds and fails on constructed inputs."""

import numpy as np
import pandas as pd
import pytest

from inferopt.experiment.claims import DegenerateTest
from inferopt.experiment.spectral import accurate_nll, choose_split, d55_test
from inferopt.spectral import SKIGaussianProcess, rademacher


def test_choose_split_takes_the_longest_meaningful_gap():
    good, drifting, useless = [1.0, 0.5, 0.3, 0.301], [1.0, 0.8, 0.9, 0.93], [1.0, 0.97, 0.96]
    gap, ok = choose_split({1: {"path": good, "mean": 1.0}, 6: {"path": good, "mean": 1.0}, 24: {"path": drifting, "mean": 1.0}})
    assert gap == 6 and ok == {1: True, 6: True, 24: False}            # 24 h: the optimum drifts 16 % above its path's best
    gap, ok = choose_split({1: {"path": good, "mean": 1.0}, 24: {"path": useless, "mean": 1.0}})
    assert gap == 1 and not ok[24]                                      # 24 h: agrees but does not beat the mean by 10 %
    gap, ok = choose_split({6: {"path": drifting, "mean": 1.0}, 24: {"path": useless, "mean": 1.0}})
    assert gap == 6 and not any(ok.values())                           # none meaningful: the shortest
    assert choose_split({24: {"path": drifting, "mean": 1.0}}, agree=0.2)[0] == 24


def test_choose_split_bad_input():
    with pytest.raises(ValueError, match="fits"):
        choose_split({})
    with pytest.raises(ValueError, match="path"):
        choose_split({1: {"path": [1.0], "mean": 1.0}})
    with pytest.raises(ValueError, match="'path' and 'mean'"):
        choose_split({1: [1.0, 0.5]})
    with pytest.raises(DegenerateTest):
        choose_split({1: {"path": [1.0, 0.5], "mean": float("nan")}})


def test_d55_test_holds_and_fails():
    linear = {"seconds, d (r fixed)": 1.02, "seconds, M": 0.97, "seconds, N": 1.1}
    keys = list(linear)
    assert d55_test(linear, keys, 0.25)
    assert not d55_test(linear | {"seconds, d (r fixed)": 2.0}, keys, 0.25)     # quadratic in d: fails
    assert not d55_test(linear, keys, 0.05)                                      # N's 1.1 above a cut of 0.05
    with pytest.raises(ValueError, match="keys"):
        d55_test(linear, ["seconds, r"], 0.25)
    with pytest.raises(DegenerateTest):
        d55_test(linear | {"seconds, M": float("nan")}, keys, 0.25)
    with pytest.raises(TypeError, match="keys"):
        d55_test(linear, "seconds, M", 0.25)


def test_accurate_nll_matches_the_dense_likelihood_and_leaves_the_work_count():
    rng = np.random.default_rng(0)
    x = np.sort(rng.uniform(0, 50, 200))
    y = np.sin(x / 3) + 0.2 * rng.standard_normal(200)
    gp = SKIGaussianProcess(x, y, r=100, low=[0.01, 0.01, 0.1], high=[10, 10, 100], cg_tol=1e-10, rng=0)
    th = np.array([0.5, 1.0, 2.0])
    before = gp.matvecs
    value = accurate_nll(gp, th, rademacher(np.random.default_rng(1), gp.dim, 2000), 80)
    assert gp.matvecs == before
    assert value == pytest.approx(gp.objective(th), rel=1e-2)
    worse = accurate_nll(gp, [5.0, 0.1, 50.0], rademacher(np.random.default_rng(1), gp.dim, 200), 80)
    assert worse > value + 10                                             # a poor fit reads as one


def _runs(first_hit, lanczos_hit=None, lanczos_speed=1.0, every=3):
    """SGD and LANCZOS on one dataset over 4 seeds: each run's RMSE falls from 1 to 0.1 over 10 records, reaching 0.5 at the
    record ``first_hit`` (1: at the first record after the start; LANCZOS at ``lanczos_hit``, its clock ``lanczos_speed``
    times SGD's); a record every ``every`` iterations (one number for both, or (SGD's, LANCZOS's); 3: a target met at any
    record may have been met sooner, at an unrecorded iterate; 1: every iterate recorded, every cost exact)."""
    from inferopt.spectral import SpectralSolveResult
    out = {}
    sgd_every, lan_every = (every, every) if np.isscalar(every) else every
    for m, hit, pace, step in (("SGD", first_hit, 1.0, sgd_every), ("LANCZOS", lanczos_hit or first_hit, lanczos_speed, lan_every)):
        for s in range(4):
            metric = np.r_[1.0, np.linspace(0.5, 0.1, 10 - hit + 1)] if hit == 1 else np.r_[np.linspace(1.0, 0.55, hit), np.linspace(0.5, 0.1, 10 - hit + 1)]
            t = pace * np.arange(metric.size, dtype=float)
            out["sound", m, s] = SpectralSolveResult(x=np.zeros(3), objective=np.full(t.size, np.nan), n_iter=t.size - 1, converged=False, message="",
                                                    times=t, iterations=step * np.arange(t.size), metric=metric, matvecs=10.0 * t)
    return out


def test_informative_is_one_sided():
    from inferopt.experiment.spectral import d51_test, gp_comparison, informative, ratio_bound, readable_shares
    coarse = gp_comparison(_runs(1), ("SGD", "LANCZOS"), [0.5, 0.9])
    fine = gp_comparison(_runs(4, every=1), ("SGD", "LANCZOS"), [0.5, 0.9])
    assert ratio_bound(coarse, "sound", "LANCZOS", 0.5) is None and ratio_bound(fine, "sound", "LANCZOS", 0.5) == "exact"
    assert not informative(coarse, {"sound": False}, "LANCZOS", 0.5) and informative(fine, {"sound": False}, "LANCZOS", 0.5)
    assert ratio_bound(coarse, "sound", "LANCZOS", 0.9) is None            # a later coarse record bounds as the first does
    assert readable_shares(coarse, "sound", "LANCZOS", [0.5, 0.9]) == [] and readable_shares(fine, "sound", "LANCZOS", [0.5, 0.9]) == [0.5, 0.9]
    # LANCZOS recorded every 3 iterations, SGD at every one: LANCZOS's cost is an upper bound, so is the ratio
    lan_first = gp_comparison(_runs(4, lanczos_hit=1, lanczos_speed=2.0, every=(1, 3)), ("SGD", "LANCZOS"), [0.5])
    assert ratio_bound(lan_first, "sound", "LANCZOS", 0.5) == "upper"
    miss = not d51_test(lan_first, "LANCZOS", 0.5, 1.5)                     # ratio 2 / 3 < 1.5
    assert miss and informative(lan_first, {"sound": False}, "LANCZOS", 0.5)    # a miss bounded from above: fails
    held = d51_test(lan_first, "LANCZOS", 0.5, 0.5)
    assert held and not informative(lan_first, {"sound": True}, "LANCZOS", 0.5)  # a pass on an upper bound: not measured
    # SGD recorded coarsely: the ratio is a lower bound, which decides a pass, not a miss
    sgd_first = gp_comparison(_runs(1, lanczos_hit=4, lanczos_speed=3.0, every=(3, 1)), ("SGD", "LANCZOS"), [0.5])
    assert ratio_bound(sgd_first, "sound", "LANCZOS", 0.5) == "lower"
    assert d51_test(sgd_first, "LANCZOS", 0.5, 1.5) and informative(sgd_first, {"sound": True}, "LANCZOS", 0.5)
    assert not informative(sgd_first, {"sound": False}, "LANCZOS", 0.5)
    # a record at every iterate: a target met at the first record is met at the method's first iterate, its cost exact
    stepwise = gp_comparison(_runs(1, lanczos_hit=4, lanczos_speed=3.0, every=1), ("SGD", "LANCZOS"), [0.5])
    assert ratio_bound(stepwise, "sound", "LANCZOS", 0.5) == "exact" and informative(stepwise, {"sound": False}, "LANCZOS", 0.5)
    # need "any" (D5.4): one decided pass decides; "all" (D5.3): one decided miss decides
    assert informative(fine, {"sound": True}, "LANCZOS", 0.5, need="any")
    with pytest.raises(ValueError, match="share"):
        informative(fine, {"sound": True}, "LANCZOS", 0.75)
    with pytest.raises(ValueError, match="name"):
        informative(fine, {"humidity": True}, "LANCZOS", 0.5)
    with pytest.raises(ValueError, match="need"):
        informative(fine, {"sound": True}, "LANCZOS", 0.5, need="most")


def test_claim_informative_wrappers_hold_fail_and_none():
    from inferopt.experiment.spectral import d51_informative, d53_informative, d54_informative, gp_comparison
    from inferopt.spectral import SpectralSolveResult
    both = {}
    for name in ("sound", "humidity"):
        both |= {(name, *k[1:]): r for k, r in _runs(4, lanczos_hit=1, lanczos_speed=2.0, every=(1, 3)).items()}
    lan_first = gp_comparison(both, ("SGD", "LANCZOS"), [0.5, 0.9])
    assert d51_informative(lan_first, "LANCZOS", 0.5)                      # LANCZOS's upper bound 2 s < 1.5 x SGD's 4 s: decided miss
    assert not d51_informative(lan_first, "LANCZOS", 0.5, factor=0.1)      # a pass on an upper bound: not decided
    assert d53_informative(lan_first, "LANCZOS", 0.5)                      # one decided miss decides "all"
    assert d54_informative(lan_first, "LANCZOS", [0.5, 0.9])               # every readable target a decided miss
    assert not d54_informative(lan_first, "LANCZOS", [0.5, 0.9], factor=0.1)  # every pass rests on an upper bound: not decided
    exact = {}
    for name in ("sound", "humidity"):
        exact |= {(name, *k[1:]): r for k, r in _runs(4, lanczos_hit=1, lanczos_speed=2.0, every=1).items()}
    exact = gp_comparison(exact, ("SGD", "LANCZOS"), [0.5, 0.9])
    assert d54_informative(exact, "LANCZOS", [0.5, 0.9], factor=0.1)          # every iterate recorded: exact ratios decide
    tie = {}
    for name in ("sound", "humidity"):
        tie |= {(name, *k[1:]): r for k, r in _runs(1).items()}
    coarse = gp_comparison(tie, ("SGD", "LANCZOS"), [0.5])
    assert not d54_informative(coarse, "LANCZOS", [0.5])                   # no readable target: not measured
    assert not d53_informative(coarse, "LANCZOS", 0.5)


def test_own_map_diagnosis_lets_only_its_own_cells_rescue():
    from inferopt.experiment.claims import Unearned
    from inferopt.experiment.spectral import own_map_diagnosis
    c = lambda s, v, con: {"setting": {"setting": s}, "verdict": v, "support": 1.0 if v == "holds" else 0.0, "construction": con, "data": "stand-in"}
    ours = [c(f"s{i}", "fails", "ours") for i in range(4)]
    theirs = [c(f"s{i}", "fails", "authors") for i in range(4)]
    only_theirs = own_map_diagnosis(ours, theirs[:3] + [c("s3", "holds", "authors")], "Evidence.")
    assert isinstance(only_theirs, Unearned) and "s3" in only_theirs.reason        # an authors' cell cannot rescue ours
    assert "What would decide it" in only_theirs.reason and "headline sizes" in only_theirs.reason
    own = own_map_diagnosis(ours[:3] + [c("s3", "holds", "ours")], theirs, "Evidence.")
    assert own["kind"] == "setting" and "s3" in own["text"]                          # our own holding cell does
    assert not (isinstance(own_map_diagnosis(ours, theirs, "Evidence."), dict) and own_map_diagnosis(ours, theirs, "Evidence.")["kind"] == "setting")


def test_a_size_cell_rescues_nothing():
    """The reviewer's case: every map cell runs smaller data than the headline; where the main setting holds at that size
    too, the cells holding there are the size's, not their setting's: no `setting`, and the claim undecided (a size is
    not an open choice), unless a cell holds where the main setting at its size fails."""
    from inferopt.experiment.claims import Unearned
    from inferopt.experiment.claims import check_diagnosis
    from inferopt.experiment.spectral import own_map_diagnosis, size_held
    c = lambda s, d, v, con="ours": {"setting": {"setting": s, "d": d}, "verdict": v, "support": 1.0 if v == "holds" else 0.0,
                                     "construction": con, "data": "paper" if d == "paper's" else "stand-in"}
    head = [c("main", "paper's", "fails"), c("main", "paper's", "fails", "authors")]
    small = [c("main", 1000, "holds"), c("floor", 1000, "holds"), c("start", 1000, "fails")]
    theirs = [c("main", 1000, "fails", "authors"), c("floor", 1000, "fails", "authors")]
    assert [x["setting"]["setting"] for x in size_held(head + small + theirs)] == ["main", "floor"]
    found = own_map_diagnosis(head[:1] + small, head[1:] + theirs, "Evidence.")
    assert isinstance(found, Unearned) and "size" in found.reason and "What would decide it" in found.reason
    marked = [x for x in found.evidence["sweep"] if "size" in x]
    assert len(marked) == 2 and all("support" not in x for x in marked)
    # the main setting at the map's size fails: a cell holding there is its setting's
    setting = own_map_diagnosis(head[:1] + [c("main", 1000, "fails"), c("floor", 1000, "holds"), c("start", 1000, "fails")],
                                head[1:] + theirs, "Evidence.")
    assert setting["kind"] == "setting" and "floor" in setting["text"] and not size_held(setting["evidence"]["sweep"])
    # the main setting at the map's size undecided: a cell holding there cannot be told from the size
    unknown = head[:1] + [c("main", 1000, "not measured"), c("floor", 1000, "holds"), c("start", 1000, "fails")]
    assert [x["setting"]["setting"] for x in size_held(unknown)] == ["floor"]
    assert isinstance(own_map_diagnosis(unknown, head[1:] + theirs, "Evidence."), Unearned)
    # a size cell beside a real rescue: the rescue is named, the size cells marked and not named
    mixed = own_map_diagnosis(head[:1] + small + [c("floor", 300, "holds"), c("main", 300, "fails")], head[1:] + theirs, "Evidence.")
    assert mixed["kind"] == "setting" and "d = 300" in mixed["text"] and "d = 1000" not in mixed["text"]
    check_diagnosis(dict(mixed, scale="paper"), scale="paper")
    with pytest.raises(TypeError, match=r"cells\[0\]"):
        size_held([{"verdict": "holds"}])


def test_readings_are_undecided_on_an_upper_bound_pass_at_every_reading():
    """Issue 41 (fourth review): a pass resting on an upper bound is undecided at every reading; a decided miss decides."""
    from inferopt.experiment.spectral import d51_reading, d53_reading, d54_reading, gp_comparison
    both = {}
    for name in ("sound", "humidity"):
        both |= {(name, *k[1:]): r for k, r in _runs(4, lanczos_hit=1, lanczos_speed=2.0, every=(1, 3)).items()}
    lan_first = gp_comparison(both, ("SGD", "LANCZOS"), [0.5, 0.9])
    assert d51_reading(lan_first, "LANCZOS", 0.5, 1.5) is False             # a decided miss: fails
    assert d51_reading(lan_first, "LANCZOS", 0.5, 0.1) is None              # a pass on an upper bound: undecided
    assert d53_reading(lan_first, "LANCZOS", 0.5) is False
    assert d54_reading(lan_first, "LANCZOS", [0.5, 0.9], 6.0) is False
    assert d54_reading(lan_first, "LANCZOS", [0.5, 0.9], 0.1) is None
    sgd_first = gp_comparison(_runs(1, lanczos_hit=4, lanczos_speed=3.0, every=(3, 1)), ("SGD", "LANCZOS"), [0.5])
    assert d51_reading(sgd_first, "LANCZOS", 0.5, 1.5) is True              # a pass on a lower bound: holds


def test_decided_share_reads_further_along_when_the_chosen_is_undecided():
    from inferopt.experiment.spectral import decided_share
    undecided_below = lambda s: None if s < 0.95 else True
    assert decided_share(undecided_below, [0.5, 0.75, 0.9, 0.95], 0.9) == 0.95
    assert decided_share(lambda s: False, [0.5, 0.9, 0.95], 0.9) == 0.9
    assert decided_share(lambda s: None if s > 0.6 else True, [0.5, 0.9, 0.95], 0.9) is None   # never nearer the start
    with pytest.raises(TypeError, match="reading"):
        decided_share(3, [0.9], 0.9)
    with pytest.raises(ValueError, match="shares"):
        decided_share(lambda s: True, [0.9, 1.5], 0.9)


def test_choose_eta0_takes_the_least_worst_likelihood():
    from inferopt.experiment.spectral import choose_eta0
    eta, worst = choose_eta0({0.3: [10.0, 12.0], 1.0: [5.0, 7.0, 6.0], 3.0: [-50.0, 60.0]})   # 3.0 wins on one seed, wanders on the other
    assert eta == 1.0 and worst[1.0] == 7.0 and worst[3.0] == 60.0
    assert choose_eta0({0.3: [10.0], 3.0: [-50.0, 9.0]})[0] == 3.0
    assert choose_eta0({1.0: [2.0], 0.1: [2.0]})[0] == 0.1                  # a tie: the smaller step
    with pytest.raises(ValueError, match="pilot"):
        choose_eta0({})
    with pytest.raises(ValueError, match="pilot"):
        choose_eta0({1.0: [np.nan]})
    with pytest.raises(ValueError, match="pilot"):
        choose_eta0({-1.0: [1.0]})


def test_a_level_an_arm_converges_above_is_a_miss_where_the_other_reaches():
    """The reviewer's case (the map's "step in theta" cell): an arm whose runs level off above a target the other arm reaches
    never gets there, a miss (its cost infinite, the other wins at that target), for either arm alike; a target both level off
    above is dropped; a LANCZOS still descending when its budget ends bounds the ratio from below."""
    from inferopt.experiment.spectral import (capped, d51_reading, d53_reading, d54_reading, gp_comparison, levels_above, never_reaches,
                                              ratio_bound, readable_shares, time_ratio)
    from inferopt.spectral import SpectralSolveResult
    t = np.arange(11.0)
    mk = lambda m: SpectralSolveResult(x=np.zeros(3), objective=np.full(t.size, np.nan), n_iter=10, converged=False, message="",
                                       times=t, iterations=np.arange(t.size), metric=m, matvecs=10.0 * t)
    reach = np.maximum(2.0 - 0.2 * t, 1.0)                      # reaches the reference 1.0 at 5 s
    flat = np.r_[2.0, np.full(10, 1.05)]                        # levelled off at 1.05 from its first step
    flat2 = np.r_[2.0, np.full(10, 1.04)]                       # levelled off at 1.04
    falling = 2.0 - 0.09 * t                                    # still descending, 1.1 at the end
    seeds = lambda c: c if isinstance(c, list) else [c] * 4
    table = lambda sgd_, lan: gp_comparison({(n, m, s): mk(c[s]) for n in ("sound", "humidity") for s in range(4)
                                             for m, c in (("SGD", seeds(sgd_)), ("LANCZOS", seeds(lan)))}, ("SGD", "LANCZOS"), [0.5, 0.99])
    # SGD levels off above the far target while LANCZOS reaches it: a miss for SGD, LANCZOS wins there (SGD is not faster)
    tb = table(flat, reach)
    assert levels_above(tb, "sound", "SGD", 0.99) and never_reaches(tb, "sound", "SGD", 0.99) and not never_reaches(tb, "sound", "LANCZOS", 0.99)
    assert ratio_bound(tb, "sound", "LANCZOS", 0.99) == "exact" and readable_shares(tb, "sound", "LANCZOS", [0.5, 0.99]) == [0.5, 0.99]
    for u in ("seconds", "matvecs"):
        assert time_ratio(tb, "sound", "LANCZOS", 0.99, unit=u) == 0.0
    assert d51_reading(tb, "LANCZOS", 0.99, 1.5) is False and d53_reading(tb, "LANCZOS", 0.99) is False
    # LANCZOS levels off above it while SGD reaches it: a miss for LANCZOS, SGD wins there, by any factor
    tb = table(reach, flat)
    assert never_reaches(tb, "humidity", "LANCZOS", 0.99) and not capped(tb, "humidity", "LANCZOS", 0.99)
    assert ratio_bound(tb, "humidity", "LANCZOS", 0.99) == "exact" and time_ratio(tb, "humidity", "LANCZOS", 0.99) == np.inf
    assert d51_reading(tb, "LANCZOS", 0.99, 1.5) is True and d54_reading(tb, "LANCZOS", [0.5, 0.99], 6.0) is True
    # neither reaches it (both level off above it; one SGD seed of four sets the reference): dropped
    tb = table([reach] + [flat] * 3, flat2)
    assert levels_above(tb, "humidity", "SGD", 0.99) and levels_above(tb, "humidity", "LANCZOS", 0.99)
    assert not never_reaches(tb, "humidity", "SGD", 0.99) and not never_reaches(tb, "humidity", "LANCZOS", 0.99)
    assert ratio_bound(tb, "humidity", "LANCZOS", 0.99) is None and readable_shares(tb, "humidity", "LANCZOS", [0.5, 0.99]) == [0.5]
    # LANCZOS levels off above while SGD still descends without reaching it: no miss either way, dropped
    tb = table(falling, [reach] + [flat] * 3)
    assert not never_reaches(tb, "humidity", "LANCZOS", 0.99) and ratio_bound(tb, "humidity", "LANCZOS", 0.99) is None
    # a LANCZOS still descending when its budget ends bounds the ratio from below (its budget alone passes 1x)
    tb = table(reach, falling)
    assert capped(tb, "humidity", "LANCZOS", 0.99) and not levels_above(tb, "humidity", "LANCZOS", 0.99)
    assert ratio_bound(tb, "humidity", "LANCZOS", 0.99) == "lower" and d54_reading(tb, "LANCZOS", [0.5, 0.99], 1.0) is True
    with pytest.raises(ValueError, match="plateau"):
        levels_above(tb, "humidity", "LANCZOS", 0.99, plateau=-1.0)


def test_iterations_per_record_counts_iterates_not_line_search_evaluations():
    from inferopt.experiment.spectral import iterations_per_record
    from inferopt.spectral import SpectralSolveResult
    mk = lambda it, info: SpectralSolveResult(x=np.zeros(3), objective=np.zeros(len(it)), n_iter=int(it[-1]), converged=False, message="",
                                              times=np.arange(len(it), dtype=float), iterations=np.asarray(it), info=info)
    assert iterations_per_record(mk([0, 1, 2, 3], {})) == 1.0                       # a step loop recording every step
    assert iterations_per_record(mk([0, 5, 10], {})) == 5.0                         # ... every 5 steps
    assert iterations_per_record(mk([0, 1, 2, 3, 4], {"n_evaluations": 20})) == 1.0   # a line search recording every accepted iterate
    with pytest.raises(TypeError, match="result"):
        iterations_per_record([0, 1])


def _line_search(metric, times, n_evaluations=50):
    """A run recorded at every accepted iterate of a line search (Dong et al.'s LANCZOS): ``n_evaluations`` over its iterates."""
    from inferopt.spectral import SpectralSolveResult
    t = np.asarray(times, dtype=float)
    return SpectralSolveResult(x=np.zeros(3), objective=np.full(t.size, np.nan), n_iter=t.size - 1, converged=False, message="", times=t,
                               iterations=np.arange(t.size), metric=np.asarray(metric, dtype=float), matvecs=100.0 * t,
                               info={"n_evaluations": n_evaluations})


def test_a_reach_at_the_first_accepted_iterate_has_an_exact_cost():
    """The review of a938e8b: the first point a method returns has an exact cost, whether a step loop's first step or a line
    search's first accepted iterate (its evaluations inside the line search counted in that cost)."""
    from inferopt.experiment.spectral import coarse_record, d51_reading, gp_comparison, ratio_bound, time_ratio
    from inferopt.spectral import SpectralSolveResult
    t = np.arange(11.0)
    sgd = SpectralSolveResult(x=np.zeros(3), objective=np.full(t.size, np.nan), n_iter=10, converged=False, message="", times=t,
                              iterations=np.arange(t.size), metric=1.0 + np.linspace(1.0, 0.0, t.size), matvecs=10.0 * t)
    lan = _line_search(1.0 + np.array([1.0, 0.4, 0.2, 0.1, 0.05, 0.0, 0.0]), 8.0 * np.arange(7))      # its first accepted iterate at 8 s meets 0.5
    tb = gp_comparison({("sound", m, s): r for s in range(3) for m, r in (("SGD", sgd), ("LANCZOS", lan))}, ("SGD", "LANCZOS"), [0.5, 0.9])
    assert int(tb.loc[tb.method == "LANCZOS", "records to 0.5"].iloc[0]) == 1
    assert not coarse_record(tb, "sound", "LANCZOS", 0.5) and ratio_bound(tb, "sound", "LANCZOS", 0.5) == "exact"
    assert time_ratio(tb, "sound", "LANCZOS", 0.5) == pytest.approx(8.0 / 5.0)
    assert d51_reading(tb, "LANCZOS", 0.5, 1.5) is True and d51_reading(tb, "LANCZOS", 0.5, 2.0) is False   # exact: decides both ways


def test_the_share_walk_ends_in_holds_and_in_fails():
    """The chosen share undecided (a pass on an upper bound: LANCZOS recorded every 3 iterations), the walk reads further along
    the way and ends where a reading is decided, in a pass or in a miss."""
    from inferopt.experiment.spectral import d51_reading, decided_share, gp_comparison
    from inferopt.spectral import SpectralSolveResult
    t = np.arange(11.0)
    sgd = SpectralSolveResult(x=np.zeros(3), objective=np.full(t.size, np.nan), n_iter=10, converged=False, message="", times=t,
                              iterations=np.arange(t.size), metric=1.0 + np.linspace(1.0, 0.0, t.size), matvecs=10.0 * t)
    coarse = lambda metric, times: SpectralSolveResult(x=np.zeros(3), objective=np.full(len(times), np.nan), n_iter=3 * (len(times) - 1),
                                                       converged=False, message="", times=np.asarray(times, float), iterations=3 * np.arange(len(times)),
                                                       metric=1.0 + np.asarray(metric, float), matvecs=10.0 * np.asarray(times, float))
    shares = [0.5, 0.9]
    walk = lambda lan: (lambda tb: (decided_share(lambda s_: d51_reading(tb, "LANCZOS", s_, 1.5), shares, 0.5),
                                    [d51_reading(tb, "LANCZOS", s_, 1.5) for s_ in shares]))(
        gp_comparison({("sound", m, s): r for s in range(3) for m, r in (("SGD", sgd), ("LANCZOS", lan))}, ("SGD", "LANCZOS"), shares))
    # 0.5 met at 8 s against SGD's 5 s (1.6x, an upper bound: undecided); 0.9 never met, still descending at 40 s: a lower bound, a pass
    share, verdicts = walk(coarse([1.0, 0.45, 0.4, 0.35, 0.3, 0.25], [0, 8, 16, 24, 32, 40]))
    assert share == 0.9 and verdicts == [None, True]
    # 0.5 as before; 0.9 met at 10 s against SGD's 9 s (1.1x, an upper bound below 1.5x: a decided miss)
    share, verdicts = walk(coarse([1.0, 0.45, 0.05, 0.0], [0, 8, 10, 12]))
    assert share == 0.9 and verdicts == [None, False]


def test_objective_agrees_reads_the_split_rule_on_every_arm_and_the_regime_on_the_nearest():
    """Sound on the authors' grid (review of fc98b42): the best-likelihood runs end 10-14 % above their path's best test RMSE:
    the rule rejects the regime; a regime where they end within 2 % passes. Every arm is read (review of a938e8b): an arm
    further from the optimum that fails the rule is named, its own convergence, not the regime."""
    import pandas as pd
    from inferopt.experiment.spectral import objective_agrees
    rows = lambda lan_final, sgd_final: pd.DataFrame(
        [{"dataset": "sound", "method": m, "seed": s, "final RMSE": f, "best RMSE": 0.5, "final NLL": nll}
         for s in range(3) for m, f, nll in (("SGD", sgd_final, 10.0), ("LANCZOS", lan_final, 9.0))])
    ok, arms = objective_agrees(rows(0.56, 0.505), "sound")
    assert not ok and arms["LANCZOS"]["final / best"] == pytest.approx(1.12) and arms["SGD"]["final / best"] == pytest.approx(1.01)
    assert arms["LANCZOS"]["nearest"] and not arms["LANCZOS"]["agrees"] and arms["SGD"]["agrees"]
    ok, arms = objective_agrees(rows(0.505, 0.511), "sound")
    assert ok and arms["LANCZOS"]["agrees"] and not arms["SGD"]["agrees"]       # SGD 1.022 fails the rule, named per arm
    assert arms["SGD"]["final NLL"] == 10.0 and not arms["SGD"]["nearest"]
    assert objective_agrees(rows(0.56, 0.505), "sound", agree=0.15)[0]
    with pytest.raises(ValueError, match="agree"):
        objective_agrees(rows(0.56, 0.505), "sound", agree=-1.0)


def test_own_map_diagnosis_gives_each_kind():
    """The reviewer's case: a claim that holds in its main cell at the headline sizes has no failure for a map to explain
    (None: a verdict that turns then is the readings', the record's `reading`, never `setting`); a cell of its own
    construction holding elsewhere is a `setting`; a map failing everywhere is `paper` only when it varies, at the headline
    sizes, every choice the verdict depends on (``vary``), else Unearned naming what it lacks."""
    from inferopt.experiment.claims import Unearned, check_diagnosis
    from inferopt.experiment.spectral import own_map_diagnosis
    c = lambda s, d, v, con="ours": {"setting": {"setting": s, "d": d}, "verdict": v, "support": 1.0 if v == "holds" else 0.0,
                                     "construction": con, "data": "paper" if d == "paper's" else "stand-in"}
    small = [c("main", 1000, "fails"), c("floor", 1000, "fails"), c("start", 1000, "fails")]
    theirs = [c("main", "paper's", "fails", "authors"), c("main", 1000, "fails", "authors"), c("floor", 1000, "fails", "authors")]
    # holds at the headline main cell, fails in the map: nothing to diagnose (the readings decide: `reading`)
    assert own_map_diagnosis([c("main", "paper's", "holds")] + small, theirs, "Evidence.") is None
    # fails at the headline main cell, holds in one of its own cells: `setting`
    found = own_map_diagnosis([c("main", "paper's", "fails"), small[0], c("floor", 1000, "holds"), small[2]], theirs, "Evidence.")
    assert found["kind"] == "setting" and "floor" in found["text"]
    # fails everywhere: `paper` when the start is varied at the headline sizes ...
    head_start = [c("main", "paper's", "fails"), c("start far", "paper's", "fails")] + small
    found = own_map_diagnosis(head_start, theirs, "Evidence.", vary=["start"])
    assert found["kind"] == "paper"
    check_diagnosis(dict(found, scale="paper"), scale="paper")
    # ... and Unearned when the start is varied only on the map's smaller data
    lacking = own_map_diagnosis([c("main", "paper's", "fails")] + small, theirs, "Evidence.", vary=["start"])
    assert isinstance(lacking, Unearned) and "start" in lacking.reason and "headline sizes" in lacking.reason
    assert own_map_diagnosis([c("main", "paper's", "fails")] + small, theirs, "Evidence.")["kind"] == "paper"   # without vary: as before
    with pytest.raises(TypeError, match="vary"):
        own_map_diagnosis(head_start, theirs, "Evidence.", vary="start")


def test_a_cell_giving_the_baseline_more_work_rescues_nothing():
    """Issue 41 (fifth review): D5.1-authors' `setting` rested on the cell giving the authors' LANCZOS twice their probes and
    Lanczos steps: a baseline doing more work makes SGD look faster. A holding cell of ``unequal`` is marked and rescues
    nothing; a failing one stays decisive (SGD not faster even then); an equal-work cell still rescues."""
    from inferopt.experiment.claims import Unearned
    from inferopt.experiment.spectral import own_map_diagnosis
    c = lambda s, v, con="authors": {"setting": {"setting": s, "d": 1000}, "verdict": v, "support": 1.0 if v == "holds" else 0.0,
                                     "construction": con, "data": "stand-in"}
    head = {"setting": {"setting": "main", "d": "paper's"}, "verdict": "fails", "support": 0.0, "construction": "authors", "data": "paper"}
    own = [head, c("main", "fails"), c("start", "fails"), c("authors: 10 probes, 50 Lanczos steps", "holds")]
    theirs = [c("main", "fails", "ours"), c("start", "fails", "ours")]
    assert own_map_diagnosis(own, theirs, "Evidence.")["kind"] == "setting"                     # as before: the unequal cell rescued
    found = own_map_diagnosis(own, theirs, "Evidence.", unequal=["authors: 10 probes"])
    assert isinstance(found, Unearned) and "unequal inputs" in found.reason and "10 probes" in found.reason
    marked = [x for x in found.evidence["sweep"] if "unequal" in x]
    assert len(marked) == 1 and "support" not in marked[0]
    failing = own[:3] + [c("authors: 10 probes, 50 Lanczos steps", "fails")]
    assert own_map_diagnosis(failing, theirs, "Evidence.", unequal=["authors: 10 probes"])["kind"] == "paper"   # a failing one stays decisive
    rescued = own_map_diagnosis(own + [c("noise floor", "holds")], theirs, "Evidence.", unequal=["authors: 10 probes"])
    assert rescued["kind"] == "setting" and "noise floor" in rescued["text"]
    with pytest.raises(TypeError, match="unequal"):
        own_map_diagnosis(own, theirs, "Evidence.", unequal="authors")


def test_construction_needs_the_other_variant_to_hold():
    """Issue 41 (fifth review): D5.3's `construction` rested on the authors' variant holding at one share while its own verdict
    was inconclusive (failing at shares 0.95 / 0.99). The other variant earns `construction` only where its main cell holds
    decisively and at every reading."""
    from inferopt.experiment.spectral import construction_holds
    main = {"setting": {"setting": "main", "d": "paper's"}, "verdict": "holds", "support": 1.0}
    ok = [{"value": s, "verdict": "holds"} for s in (0.5, 0.9)]
    assert construction_holds(main, ok)
    assert not construction_holds(main, ok + [{"value": 0.95, "verdict": "fails"}])              # turns with the reading
    assert not construction_holds(dict(main, verdict="inconclusive"), ok)                        # support below 90 %
    assert not construction_holds({k: v for k, v in main.items() if k != "support"}, ok)         # no support: not decisive
    assert not construction_holds(dict(main, verdict="fails", support=0.0), [{"value": 0.9, "verdict": "fails"}])
    with pytest.raises(TypeError, match="main"):
        construction_holds({"verdict": "holds"}, ok)
    with pytest.raises(TypeError, match=r"readings\[0\]"):
        construction_holds(main, [{"value": 0.9}])
    with pytest.raises(ValueError, match="readings"):
        construction_holds(main, [])


def test_a_main_cell_holding_at_the_chosen_reading_gets_no_setting():
    """A fresh review (session 20): a main cell that holds decisively at the claim's chosen reading but turns within the
    other readings is inconclusive (`verdict_map.cell`), which let another holding cell name a `setting` for a claim that
    fails nowhere at its chosen reading; map_cell keeps the chosen reading's verdict, and own_map_diagnosis reads it."""
    from inferopt.experiment.spectral import own_map_diagnosis
    from inferopt.experiment.spectral.gp import CHOSEN_READING
    c = lambda s, v, con="ours", **kw: {"setting": {"setting": s, "d": "paper's"}, "verdict": v, "support": 1.0 if v == "holds" else 0.0,
                                        "construction": con, "data": "paper", **kw}
    turned = c("main", "inconclusive", **{"readings turn": ["holds", "fails"]})
    rescue = [c("N 15", "holds"), c("start", "fails")]
    theirs = [c("main", "fails", "authors")]
    holding = own_map_diagnosis([dict(turned, **{CHOSEN_READING: "holds"})] + rescue, theirs, "Evidence.")
    assert holding is None                                                   # no failure for a map to explain
    failing = own_map_diagnosis([dict(turned, support=0.0, **{CHOSEN_READING: "fails"})] + rescue, theirs, "Evidence.")
    assert failing["kind"] == "setting" and "N 15" in failing["text"]        # it fails at its chosen reading: a rescue is one


def test_map_cell_keeps_the_chosen_reading_where_the_readings_turn():
    """map_cell on a table whose claim holds at the chosen share and fails at another keeps both: the cell inconclusive,
    and its verdict at the chosen reading alone."""
    import inferopt.experiment.spectral.gp_claims as gc
    from inferopt.experiment.spectral.gp import CHOSEN_READING
    table = pd.DataFrame({"dataset": "sound", "seed": np.arange(6)})   # a map cell's rows name their dataset (seed_strata)
    fake = dict(readable=lambda *a, **k: True, claim_readings=lambda *a, **k: [{"value": 0.9, "verdict": "holds"}, {"value": 0.5, "verdict": "fails"}],
                deciding_numbers=lambda *a, **k: {}, deciding_shares=lambda *a, **k: [0.9])
    saved = {k: getattr(gc, k) for k in fake}
    try:
        for k, v in fake.items():
            setattr(gc, k, v)
        got = gc.map_cell({"setting": "main"}, "D5.4", lambda t: True, table, "LANCZOS", [0.5, 0.9], 0.9)
        assert got["verdict"] == "inconclusive" and got[CHOSEN_READING] == "holds"
        steady = dict(fake, claim_readings=lambda *a, **k: [{"value": 0.9, "verdict": "holds"}, {"value": 0.5, "verdict": "holds"}])
        setattr(gc, "claim_readings", steady["claim_readings"])
        got = gc.map_cell({"setting": "main"}, "D5.4", lambda t: True, table, "LANCZOS", [0.5, 0.9], 0.9)
        assert got["verdict"] == "holds" and CHOSEN_READING not in got
    finally:
        for k, v in saved.items():
            setattr(gc, k, v)
