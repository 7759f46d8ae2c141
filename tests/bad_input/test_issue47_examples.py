"""Issue 47: each example of the issue, as a researcher would meet it. The generated sweeps
(test_sweep's sizes, settings and scaling; test_files_sweep's parameter files, method specs and
record names) cover the kinds; these pin the instances, with independent truths where there is
an answer to check."""

from __future__ import annotations

import shutil
import sys
import time
import warnings

import nbformat
import numpy as np
import pandas as pd
import pytest
import yaml

from inferopt._paths import repo_root

ROOT = repo_root()


# --- parameters a researcher edits ----------------------------------------------------------------
@pytest.fixture
def project(tmp_path):
    """A copy of the project's parameter files, with the notebooks linked."""
    for name in ("params.yaml", "params_paper.yaml"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "notebooks").symlink_to(ROOT / "notebooks")
    return tmp_path


def edit(root, change, name="params.yaml"):
    data = yaml.safe_load((root / name).read_text())
    change(data)
    (root / name).write_text(yaml.safe_dump(data, sort_keys=False))


def refusal(root, scale="default") -> str:
    from inferopt.pipeline.params_check import check_params_files

    with pytest.raises(ValueError) as info:
        check_params_files(root, scale=scale)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_a_yaml_syntax_error_names_the_file_line_and_column(project):
    lines = (project / "params.yaml").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("A4:"))
    lines.insert(at + 2, "  ks: [1, 5")                         # an unclosed list inside A4
    (project / "params.yaml").write_text("\n".join(lines) + "\n")
    message = refusal(project)
    assert message.startswith("params.yaml is not valid YAML at line ") and "column" in message


def test_an_experiments_entry_without_notebook_is_named(project):
    edit(project, lambda d: d["experiments"]["B2"].pop("notebook"))
    assert "experiments.B2 needs a notebook" in refusal(project)


def test_a_missing_section_is_refused_not_run_at_the_notebooks_tiny_defaults(project):
    from inferopt._config import experiment_parameters

    edit(project, lambda d: d.pop("A4"))
    assert "no section A4" in refusal(project) and "tiny defaults" in refusal(project)
    with pytest.raises(ValueError, match="no section A4"):
        experiment_parameters("A4", project)


def test_a_missing_key_names_the_notebooks_default_that_would_run(project):
    edit(project, lambda d: d["A4"].pop("n_trials"))
    message = refusal(project)
    assert "A4.n_trials is missing" in message and "n_trials = 2" in message   # the notebook's tiny default


@pytest.mark.parametrize("ks, k_min, ok", [
    ([1, 5, 10, 20], 1, False),      # the verdict map of A4.1/A4.2 would read k >= 1 twice: 2 cells
    ([1, 5, 10, 20], 20, False),     # = max(ks): 2 cells
    ([1, 5, 10, 20], 21, False),     # no size left at all
    ([1, 5, 10, 20], 2, True),       # 1, 2, 20: three distinct settings
    ([5, 10, 20], 5, True),          # 1, 5, 20
])
def test_a4_claim_k_min_must_leave_the_verdict_map_three_sizes(project, ks, k_min, ok):
    from inferopt.experiment.claims import MIN_SWEEP
    from inferopt.pipeline.params_check import check_params_files

    edit(project, lambda d: d["A4"].update(ks=ks, claim_k_min=k_min))
    # independent truth: the sizes record_glm_claims sweeps are {1, k_min, max(ks)}, all of them sizes <= max(ks)
    assert ok == (len({1, k_min, max(ks)}) >= MIN_SWEEP and k_min <= max(ks))
    if ok:
        check_params_files(project, ids=["A4"])
    else:
        message = refusal(project)
        assert "A4.claim_k_min" in message and f"got {k_min}" in message and "allowed" in message


def test_a7_claim_k_min_is_checked_against_its_sources_sizes(project):
    edit(project, lambda d: d["A7"].update(claim_k_min=1))
    assert "A7.claim_k_min = 1" in refusal(project)


@pytest.mark.parametrize("key, value", [("d", 1), ("d_sweep", [1, 6])])
def test_b3_needs_pairs_of_variables(project, key, value):
    from inferopt.herding import boundary_distance_bound

    with pytest.raises(ValueError, match="d must be >= 2"):      # the model's own requirement
        boundary_distance_bound(np.ones((4, 1)), np.zeros(1), 1)
    edit(project, lambda d: d["B3"].update({key: value}))
    assert f"B3.{key}" in refusal(project)


def test_an_extra_method_module_that_does_not_exist_is_refused_before_the_kernel(project):
    edit(project, lambda d: d["A1"].update(extra_methods=["no_such_module_47:solver"]))
    message = refusal(project)
    assert "A1.extra_methods[0]" in message and "no_such_module_47" in message


def test_the_paper_scale_names_the_file_the_bad_value_came_from(project):
    edit(project, lambda d: d["B2"].update(n_points=1), name="params_paper.yaml")
    message = refusal(project, scale="paper")
    assert message.startswith("params_paper.yaml: parameter B2.n_points") and "got 1" in message


def _toy_project(tmp_path, failing_line):
    for name in ("dvc.yaml", "pyproject.toml"):
        (tmp_path / name).write_text("")
    (tmp_path / "params.yaml").write_text("experiments: {E1: {notebook: e1}}\nE1: {n: 1, m: 2}\n")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("n = 0\nm = 0", metadata={"tags": ["parameters"]}),
                nbformat.v4.new_code_cell(failing_line)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for folder in ("notebooks", "build/stripped"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, tmp_path / "notebooks" / "e1.ipynb")
    nbformat.write(nb, tmp_path / "build" / "stripped" / "E1.ipynb")


def test_a_value_that_passes_the_check_and_fails_in_the_notebook_ends_in_one_line(tmp_path, monkeypatch, capsys):
    """``pipeline.run.main`` caught only ValueError and FileNotFoundError: a papermill failure was a traceback
    naming no key. Now one line: the stage, the cell, the error, the parameters its failing line reads."""
    from inferopt._paths import repo_root as root_of
    from inferopt.pipeline.__main__ import main

    _toy_project(tmp_path, "import math\nx = math.log(n - 1)")
    monkeypatch.setenv("INFEROPT_ROOT", str(tmp_path))
    root_of.cache_clear()
    try:
        code = main(["run", "E1"])
    finally:
        monkeypatch.delenv("INFEROPT_ROOT")
        root_of.cache_clear()
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1
    line = err[0]
    assert line.startswith("error: stage E1 failed in its notebook") and "ValueError: math domain error" in line
    assert "E1.n = 1" in line and "E1.m" not in line and "build/failed/E1.ipynb" in line


# --- your own method -----------------------------------------------------------------------------
@pytest.fixture
def modules(tmp_path):
    (tmp_path / "broken47.py").write_text("raise ImportError('a dependency is missing')\n")
    (tmp_path / "good47.py").write_text(
        "import numpy as np\nfrom types import SimpleNamespace\n\n"
        "def top(Phi, y, k):\n    return SimpleNamespace(x=np.zeros(np.shape(Phi)[1]))\n")
    sys.path.insert(0, str(tmp_path))
    yield
    sys.path.remove(str(tmp_path))


@pytest.mark.parametrize("spec, words", [
    ("no_such_module_47:top", "no module named 'no_such_module_47'"),
    ("broken47:top", "fails on import: ImportError: a dependency is missing"),
    (".good47:top", "relative module"),
    ("builtins:max", "has no signature"),
])
def test_an_extra_method_that_cannot_load_names_its_entry(spec, words, modules, registries):
    from inferopt.coresets.path import SOLVERS
    from inferopt.experiment.extra import load_extra_methods

    with pytest.raises((ValueError, TypeError)) as info:
        load_extra_methods(["good47:top", spec], "coresets")
    assert "extra_methods[1]" in str(info.value) and words in str(info.value)
    assert "top" not in SOLVERS          # the valid entry before it is not registered either


def test_a_failed_registration_leaves_nothing_runnable(registries):
    """``add_method`` refused a name ending in ``_refit`` only after the solver had entered coreset_path."""
    from inferopt.coresets import coreset_path
    from inferopt.experiment import register_method

    def mine(Phi, y, k):
        return None

    with pytest.raises(ValueError, match="_refit"):
        register_method("mine_refit", mine, family="coresets")
    Phi = np.random.default_rng(0).normal(size=(4, 6))
    with pytest.raises(ValueError, match="solver must be one of"):
        coreset_path("mine_refit", Phi, Phi.sum(axis=1), [1])


def test_a_builtin_without_a_signature_is_refused_at_registration(registries):
    from inferopt.experiment import register_method

    with pytest.raises(TypeError, match="no signature"):
        register_method("biggest", max, family="boosting")


# --- settings that are ignored --------------------------------------------------------------------
def _target():
    from inferopt.boosting import GaussianMixtureTarget
    return GaussianMixtureTarget([[0.0, 0.0], [2.0, 2.0]], [[1.0, 1.0], [0.5, 0.5]])


def test_boost_refuses_a_setting_its_rule_does_not_use():
    from inferopt.boosting import boost

    kw = dict(rng=np.random.default_rng(0), max_iter=1, family="gaussian", n_samples=10, greedy=dict(max_iter=5))
    with pytest.raises(ValueError, match=r"eta = 5 is not a setting of step 'predefined'"):
        boost(_target(), "predefined", eta=5, **kw)
    with pytest.raises(ValueError, match=r"C0 = 1.0 is not a setting of step 'line_search'.*\(adafw, adaafw, adapfw\)"):
        boost(_target(), "line_search", C0=1.0, **kw)
    res = boost(_target(), "adafw", eta=0.5, C0=1.0, **kw)       # used: runs
    assert np.isfinite(res.record.objective).all()


@pytest.mark.parametrize("settings, match", [
    ({"adafw": {"C0": -1}}, r"rule_settings\['adafw'\]: .*C0 must be > 0"),
    ({"adafw": {"eta": "x"}}, r"rule_settings\['adafw'\]: eta must be a real number"),
    ({"adaafw": {"imax": 0}}, r"rule_settings\['adaafw'\]: imax must be >= 1"),
    ({"adapfw": {"tau": 1.0}}, r"rule_settings\['adapfw'\]: tau must be > 1"),
    ({"line_search": {"ls_iter": 0}}, r"rule_settings\['line_search'\]: ls_iter must be >= 1"),
    ({"predefined": {"eta": 0.5}}, r"rule_settings\['predefined'\]: eta = 0.5 is not a setting"),
    ({"line_search": {"C0": 1.0}}, r"rule_settings\['line_search'\]: C0 = 1.0 is not a setting"),
])
def test_check_rule_settings_checks_values_and_the_keys_each_rule_uses(settings, match):
    from inferopt.experiment.boosting import AUTHORS_RULE_SETTINGS, check_rule_settings

    with pytest.raises((ValueError, TypeError), match=match):
        check_rule_settings(settings)
    assert check_rule_settings(AUTHORS_RULE_SETTINGS) == AUTHORS_RULE_SETTINGS     # the authors' settings pass


def test_greedy_step_refuses_t_with_lam_and_an_init_that_is_no_component():
    from inferopt.boosting import Mixture, greedy_step, relbo_lambda

    q = Mixture("gaussian", np.zeros((1, 2)), np.zeros((1, 2)), np.array([1.0]))
    kw = dict(rng=np.random.default_rng(0), max_iter=3, n_samples=5)
    with pytest.raises(ValueError, match="give t .* or lam, not both"):
        greedy_step(_target(), "gaussian", q, t=3, lam=0.2, **kw)
    with pytest.raises(TypeError, match="init must be a Component"):
        greedy_step(_target(), "gaussian", q, init="x", **kw)
    # t alone sets lam = 1/sqrt(t+1): the same run as lam given
    by_t = greedy_step(_target(), "gaussian", q, t=3, rng=np.random.default_rng(0), max_iter=3, n_samples=5)
    by_lam = greedy_step(_target(), "gaussian", q, lam=relbo_lambda(3), rng=np.random.default_rng(0), max_iter=3,
                         n_samples=5)
    assert by_t.info["lam"] == pytest.approx(0.5) and np.array_equal(by_t.x, by_lam.x)


# --- numbers at the edges -------------------------------------------------------------------------
def _coreset_problem():
    rng = np.random.default_rng(0)
    Phi = rng.normal(size=(6, 8))
    return Phi, Phi.sum(axis=1)


@pytest.mark.parametrize("solver", ["a_iht_ii", "giga", "a_iht", "iht", "hilbert_frank_wolfe", "uniform"])
@pytest.mark.parametrize("c", [1e160, 1e-200, 1e-310])
def test_a_scaled_coreset_problem_has_the_weights_of_the_problem(solver, c):
    """a_iht_ii returned w = 0 at c = 1e160 (overflow warnings) and 1e-310 (silently); giga other weights at
    1e-200. The truth: the same numbers brought back by the power of two nearest 1/c (exact) at scale 1."""
    import inferopt.coresets as cs

    Phi, y = _coreset_problem()
    fn = getattr(cs, solver)
    options = {"rng": 0} if solver == "uniform" else {}
    scaled = (Phi * c, y * c)
    back = -round(np.log2(c))
    truth = fn(np.ldexp(scaled[0], back), np.ldexp(scaled[1], back), 3, **options).x
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = fn(*scaled, 3, **options)
    np.testing.assert_allclose(res.x, truth, rtol=1e-12, atol=1e-300)
    assert np.count_nonzero(res.x) > 0
    np.testing.assert_allclose(np.asarray(res.x), fn(Phi, y, 3, **options).x, rtol=1e-6, atol=1e-9)


def test_an_exact_power_of_two_scale_gives_the_same_bits_and_the_objective_in_the_callers_units():
    from inferopt.coresets import a_iht_ii

    Phi, y = _coreset_problem()
    base = a_iht_ii(Phi, y, 3)
    far = a_iht_ii(np.ldexp(Phi, 300), np.ldexp(y, 300), 3)           # beyond 2^64: rescaled inside
    assert np.array_equal(far.x, base.x)
    np.testing.assert_array_equal(far.objective, np.ldexp(base.objective, 600))
    np.testing.assert_array_equal(far.info["step"], np.ldexp(base.info["step"], -600))


def test_sparsevi_refuses_a_problem_its_arithmetic_cannot_hold():
    from inferopt.coresets import sparsevi

    Phi, y = _coreset_problem()
    with pytest.raises(ValueError, match="Phi and y are too large for SparseVI"):
        sparsevi(Phi * 1e160, y * 1e160, 2, n_steps=3)


def test_herd_refuses_a_size_it_cannot_hold_before_it_starts_and_announces_a_long_one():
    from inferopt import LongCallWarning
    from inferopt.herding import SobolevTarget, TrigDensity, herd

    target, grid = SobolevTarget(1, TrigDensity.uniform()), np.linspace(0, 1, 20, endpoint=False)
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"n_points = 4611686018427387904 is more than this machine can hold"):
        herd(target, grid, 2**62)
    assert time.perf_counter() - start < 0.2                          # refused before the first point
    with warnings.catch_warnings():
        warnings.simplefilter("error", LongCallWarning)
        with pytest.raises(LongCallWarning, match=r"herd will take long: .* projected to take about [0-9.]+ min"):
            herd(target, grid, 10**7)


@pytest.mark.parametrize("call, name", [
    (lambda: __import__("inferopt.spectral", fromlist=["rademacher"]).rademacher(0, 4, 2**40), "M"),
    (lambda: __import__("inferopt.coresets", fromlist=["x"]).make_gaussian_mean(2**40, 5, 0), "D"),
    (lambda: __import__("inferopt.boosting", fromlist=["x"]).kl(_target(), _target().mixture, n_samples=2**40,
                                                              rng=np.random.default_rng(0)), "n_samples"),
    (lambda: __import__("inferopt.herding", fromlist=["x"]).sobol_points(
        __import__("inferopt.herding", fromlist=["x"]).TrigDensity.uniform(), 2**40), "n"),
])
def test_a_size_of_2_to_the_40_is_refused_before_numpys_allocator(call, name):
    with pytest.raises(ValueError, match=rf"^{name}.* = 1099511627776 is more than this machine can hold"):
        call()


# --- records --------------------------------------------------------------------------------------
def test_save_results_keeps_to_its_folder(tmp_path):
    from inferopt.experiment import Experiment

    exp = Experiment("Z9", title="t", paper="p", figure="f", params={"output_dir": str(tmp_path / "out"), "seed": 0})
    with pytest.raises(ValueError, match="name must be a plain file name"):
        exp.save_results("../escape", pd.DataFrame({"a": [1]}))
    assert not list(tmp_path.rglob("escape*"))
    assert exp.save_results("fine", pd.DataFrame({"a": [1]})) == exp.results_dir / "fine.csv"


# --- left from round two --------------------------------------------------------------------------
def test_independent_maxent_refuses_states_that_are_not_plus_or_minus_one():
    from inferopt.herding import all_states, independent_maxent

    with pytest.raises(ValueError, match="states must hold -1 and 1 only"):
        independent_maxent(np.array([[1.0, 0.5], [-1.0, 1.0]]), np.array([0.2, 0.1]))
    S, m = all_states(3), np.array([0.2, -0.4, 0.6])
    p = independent_maxent(S, m)
    np.testing.assert_allclose(p.sum(), 1.0)
    np.testing.assert_allclose(S.T @ p, m, atol=1e-12)                # the mean it was asked for


def test_kl_refuses_a_log_z_that_is_no_number_and_shifts_by_a_finite_one():
    from inferopt.boosting import kl

    q = _target().mixture
    with pytest.raises(ValueError, match="log_z must be finite"):
        kl(_target(), q, n_samples=50, rng=np.random.default_rng(0), log_z=float("nan"))
    a = kl(_target(), q, n_samples=50, rng=np.random.default_rng(0), log_z=0.0)
    b = kl(_target(), q, n_samples=50, rng=np.random.default_rng(0), log_z=1.5)
    assert b - a == pytest.approx(1.5)


def test_chebyshev_coefficients_refuse_a_complex_valued_f():
    from inferopt.spectral import chebyshev_coefficients

    with pytest.raises(TypeError, match="f must be real-valued"):
        chebyshev_coefficients(lambda x: np.log(x) + 1j * x, 1.0, 20.0)
    b = chebyshev_coefficients(lambda x: 3.0 + 0 * x, 1.0, 20.0)
    np.testing.assert_allclose(b[0], 3.0) and np.testing.assert_allclose(b[1:], 0.0, atol=1e-14)
