"""The notebook helpers: claims, metrics contract, parameters, seeds, paths."""

import json

import numpy as np
import pytest

from inferopt.experiment import Experiment, open_experiment, parameters_since, repo_root, resolve, to_jsonable, verdict
from inferopt.pipeline.run import check_metrics


def test_verdict_is_computed_from_a_boolean():
    assert verdict(True) == "holds" and verdict(np.bool_(False)) == "fails" and verdict(None) == "not measured"
    with pytest.raises(ValueError, match="boolean"):
        verdict("holds")


def test_to_jsonable_rounds_and_converts():
    out = to_jsonable({"a": np.float64(1.234567891), "b": np.arange(3), "c": (np.int64(2), np.inf), 4: np.bool_(True)})
    assert out == {"a": 1.23457, "b": [0, 1, 2], "c": [2, "inf"], "4": True}
    json.dumps(out)


def test_experiment_writes_the_metrics_contract(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    exp = Experiment("Z9", title="t", paper="p", figure="Fig 0", params={"output_dir": str(tmp_path), "seed": 3})
    fig, ax = plt.subplots()
    ax.plot([0, 1])
    exp.savefig(fig, "panel")
    exp.claim("Z9.1", "x is small", holds=bool(0.1 < 1), measured={"x": 0.1})
    exp.claim("Z9.2", "not yet", holds=None, measured={})
    exp.metrics = {"x": np.float32(0.1)}
    path = exp.write()
    assert path == tmp_path / "metrics" / "Z9.json"
    data = check_metrics(path, "Z9")
    assert data["params"] == {"seed": 3}  # output_dir is where, not what: not recorded
    assert data["figures"] == ["figures/Z9/panel.png"] and (tmp_path / "figures/Z9/panel.png").exists()
    assert [c["verdict"] for c in data["claims"]] == ["holds", "not measured"]
    assert data["claims"][0] == {"id": "Z9.1", "target": "Z9", "text": "x is small", "verdict": "holds", "measured": {"x": 0.1},
                                 "support": {"method": "deterministic",
                                             "note": "computed once from this run's numbers: no trials to resample"}}
    assert "support" not in data["claims"][1]      # not measured: nothing to support
    table = exp.claims_table()
    assert list(table.index) == ["Z9.1", "Z9.2"] and table.loc["Z9.1", "measured"] == "x = 0.1"


def test_check_metrics_rejects_broken_files(tmp_path):
    path = tmp_path / "X.json"
    path.write_text(json.dumps({"experiment": "X", "title": "", "params": {}, "metrics": {}, "claims": []}))
    with pytest.raises(ValueError, match="no claims"):
        check_metrics(path, "X")
    path.write_text(json.dumps({"experiment": "X", "title": "", "params": {}, "metrics": {},
                                "claims": [{"id": "X.1", "target": "X", "text": "", "verdict": "maybe", "measured": {}}]}))
    with pytest.raises(ValueError, match="verdict"):
        check_metrics(path, "X")
    with pytest.raises(FileNotFoundError):
        check_metrics(tmp_path / "missing.json", "X")


def test_parameters_since_keeps_only_new_plain_values():
    before = {"np": np, "old": 1}
    namespace = {**before, "seed": 0, "flag": False, "names": ["a"], "_private": 1, "fn": len}
    assert parameters_since(namespace, set(before)) == {"seed": 0, "flag": False, "names": ["a"]}


def test_open_experiment_reads_the_registry_and_seeds_the_generator(tmp_path, capsys):
    """The opening call takes title, paper and figure from params.yaml's registry entry, the
    parameters from the names defined since the snapshot, and the generator from ``seed``;
    the closing call writes the metrics and prints the claims."""
    import yaml

    entry = yaml.safe_load((repo_root() / "params.yaml").read_text())["experiments"]["D1"]
    before = set(globals())
    namespace = dict(globals()) | {"seed": 4, "output_dir": str(tmp_path), "n_samples": 3}
    exp, rng = open_experiment("D1", namespace, before)
    assert (exp.title, exp.paper, exp.figure) == (entry["title"], entry["paper"], entry["figure"])
    assert exp.params == {"seed": 4, "n_samples": 3}
    assert rng.random() == np.random.default_rng(4).random()
    exp.claim("D1.9", "a claim", holds=True, measured={"x": 1.0})
    assert exp.finish() is None
    assert json.loads(exp.metrics_path.read_text())["title"] == entry["title"]
    assert "D1.9" in capsys.readouterr().out
    with pytest.raises(ValueError, match="seed"):
        open_experiment("D1", {"n": 1}, set())
    with pytest.raises(ValueError, match="unknown experiment"):
        open_experiment("Q7", {"seed": 0}, set())


def test_open_experiment_keeps_load_dependent_warnings_out_of_reports(tmp_path):
    """A1/A2's rendered reports showed SparseVI's LongCallWarning ("370 of 150000 steps took 0.5 s"), a projection of wall time
    that depends on the machine's load: after the opening call a notebook no longer shows it; other warnings still show."""
    import warnings

    from inferopt import LongCallWarning

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        warnings.warn("long", LongCallWarning)
        open_experiment("D1", {"seed": 0, "output_dir": str(tmp_path)}, set())
        warnings.warn("long", LongCallWarning)
        warnings.warn("other", UserWarning)
    assert [(w.category, str(w.message)) for w in seen] == [(LongCallWarning, "long"), (UserWarning, "other")]


def test_paths_are_anchored_at_the_repository_root(tmp_path, monkeypatch):
    root = repo_root()
    assert (root / "dvc.yaml").exists() and (root / "pyproject.toml").exists()
    monkeypatch.chdir(tmp_path)
    assert resolve("reports") == root / "reports"
    assert resolve(tmp_path) == tmp_path


def test_results_tables_round_trip_and_missing_tables_say_what_to_run(tmp_path):
    import pandas as pd

    from inferopt.experiment import load_results

    exp = Experiment("Z8", title="t", paper="p", figure="f", params={"output_dir": str(tmp_path)})
    frame = pd.DataFrame({"k": [1, 2], "kl": [0.5, 0.25], "method": ["a", "b"]})
    exp.save_results("curves", frame)
    pd.testing.assert_frame_equal(load_results("Z8", "curves", tmp_path), frame)
    with pytest.raises(FileNotFoundError, match="dvc repro Z7"):
        load_results("Z7", "curves", tmp_path)
    with pytest.raises(TypeError, match="DataFrame"):
        exp.save_results("bad", {"k": [1]})


def test_plot_band_draws_the_median_and_checks_shapes():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from inferopt.experiment import plot_band

    fig, ax = plt.subplots()
    Y = np.array([[1.0, 4.0], [2.0, np.nan], [3.0, 6.0]])
    line = plot_band(ax, [1, 2], Y, label="m")
    np.testing.assert_allclose(line.get_ydata(), [2.0, 5.0])
    assert len(ax.collections) == 1
    with pytest.raises(ValueError, match="one column per x"):
        plot_band(ax, [1, 2, 3], Y)
    with pytest.raises(ValueError, match="percentiles"):
        plot_band(ax, [1, 2], Y, q=(70, 30))
    plt.close(fig)


def test_claims_table_displays_as_the_index_scorecard(tmp_path):
    exp = Experiment("Z8", title="t", paper="p", figure="Fig 0", params={"output_dir": str(tmp_path)})
    exp.claim("Z8.1", "x <is> small", holds=False, measured={"x": 0.123456, "per method": {"a": 1.0, "b": 2.0, "c": 3.0}})
    table = exp.claims_table()
    page = table._repr_html_()
    assert "class='verdict fails'" in page and "x &lt;is&gt; small" in page and "<div>x = 0.1235</div>" in page
    assert "<details><summary>1 more</summary><div>per method › c = 3</div></details>" in page
    text = repr(table)
    assert text.splitlines()[0] == "Z8.1  [fails]  x <is> small" and "    per method › a = 1" in text
    assert table.loc["Z8.1", "verdict"] == "fails" and "verdict" in table.to_string()


def test_an_implementation_check_is_recorded_apart_from_the_papers_claims(tmp_path):
    """``claim(check=True)`` marks the record; the front page's tally and paper_claims leave it out; a non-boolean is refused."""
    from inferopt.experiment.claims import paper_claims
    from inferopt.pipeline.report import _tally

    exp = Experiment("Z9", title="t", paper="p", figure="Fig 0", params={"output_dir": str(tmp_path), "seed": 3})
    exp.claim("Z9.1", "a claim of the paper", holds=True)
    exp.claim("Z9.2", "an identity the paper proves, run on our code", holds=True, check=True)
    claims = check_metrics(exp.write(), "Z9")["claims"]
    assert "check" not in claims[0] and claims[1]["check"] is True
    assert [c["id"] for c in paper_claims(claims)] == ["Z9.1"]
    assert _tally(claims) == "1 holds (and 1 implementation check)"
    assert _tally(claims[:1]) == "1 holds"
    with pytest.raises(TypeError, match="check must be True or False"):
        exp.claim("Z9.3", "x", holds=True, check="yes")
