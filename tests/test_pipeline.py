"""Pipeline machinery: stripping, parameter passing with YAML types, scales, the report."""

import json

import nbformat
import pytest
import yaml
from papermill.translators import translate_parameters

from inferopt.pipeline import config
from inferopt.pipeline.render import notebook_to_html
from inferopt.pipeline.report import build_index
from inferopt.pipeline.strip import strip_notebook


def _notebook(outputs: bool):
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell("flag = True\nnames = ['a']")
    params.metadata["tags"] = ["parameters"]
    work = nbformat.v4.new_code_cell("print(flag, names)")
    if outputs:
        work.outputs = [nbformat.v4.new_output("stream", text="False ['x']\n")]
        work.execution_count = 7
        nb.metadata["widgets"] = {"state": {}}
        work.metadata["collapsed"] = True
    nb.cells = [nbformat.v4.new_markdown_cell("# $x^2$"), params, work]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def test_stripped_copy_ignores_outputs_and_editor_state(tmp_path):
    clean, saved = tmp_path / "clean.ipynb", tmp_path / "saved.ipynb"
    nbformat.write(_notebook(False), clean)
    nbformat.write(_notebook(True), saved)
    a = strip_notebook(clean, tmp_path / "a.ipynb").read_bytes()
    b = strip_notebook(saved, tmp_path / "b.ipynb").read_bytes()
    assert a == b
    assert nbformat.reads(a.decode(), as_version=4).cells[1].metadata["tags"] == ["parameters"]


def test_parameters_keep_their_yaml_types():
    params = yaml.safe_load("flag: false\nnames: [x, y]\nratio: 0.5\nlabel: 'no'\n")
    # what papermill's Python API (used by the runner) injects for a dict of parameters
    source = translate_parameters("python3", "python", params, "Parameters")
    namespace = {}
    exec(source, namespace)
    assert namespace["flag"] is False and namespace["names"] == ["x", "y"]
    assert namespace["ratio"] == 0.5 and namespace["label"] == "no"


def test_paper_scale_overlays_params(tmp_path):
    (tmp_path / "params.yaml").write_text(
        "scale: paper\nseed: 4\nexperiments: {E1: {notebook: e1}}\nE1: {n: 3, flag: true}\n"
    )
    (tmp_path / "params_paper.yaml").write_text("E1: {n: 300}\n")
    assert config.experiment_parameters("E1", tmp_path) == {"n": 300, "flag": True, "seed": 4}
    (tmp_path / "params.yaml").write_text("scale: huge\nexperiments: {E1: {notebook: e1}}\n")
    with pytest.raises(ValueError, match="scale"):
        config.experiment_parameters("E1", tmp_path)
    with pytest.raises(ValueError, match="unknown experiment"):
        config.experiment_parameters("E2", tmp_path)


def test_report_html_reads_offline(tmp_path):
    nb = _notebook(True)
    path = tmp_path / "n.ipynb"
    nbformat.write(nb, path)
    html = notebook_to_html(path, tmp_path / "html" / "n.html", mathjax_rel="../mathjax").read_text()
    assert 'src="../mathjax/MathJax.js?config=' in html
    assert "cdnjs" not in html and 'src="http' not in html and 'href="http' not in html.replace('href="https://', "", 0)


def test_index_has_cards_and_every_claim(tmp_path):
    claim = lambda i, v: {"id": f"Q1.{i}", "target": "Q1", "text": f"claim {i} <b>", "verdict": v, "measured": {"x": 1.23456}}  # noqa: E731
    metas = {
        "Q1": {"title": "Quick", "paper": "P", "figure": "Fig 1", "figures": [], "stand_ins": ["S instead of T"],
               "claims": [claim(1, "holds"), claim(2, "fails"), claim(3, "not measured")]},
        "Q2": None,
        "R1": {"title": "Other", "paper": "Paper R", "figure": "Tab 1", "figures": [], "stand_ins": [],
               "claims": [dict(claim(4, "holds"), id="R1.1", target="R1")]},
    }
    page = build_index(metas, tmp_path, scale="paper")
    assert page.count("<tr><td>Q1.") == 3 and "claim 1 &lt;b&gt;" in page and "x = 1.235" in page
    assert "1 hold" in page and "1 fail" in page and "1 not measured" in page
    assert "stand-in:</b> S instead of T" in page and "not run yet" in page and 'href="html/Q1.html"' in page
    # one section per paper letter, each with its own tallies; overall tallies first; the scale is named
    assert "<h2>Q. P</h2>" in page and "<h2>R. Paper R</h2>" in page and "<b>paper</b> scale" in page
    assert page.count("4 claims") == 1 and page.count("3 claims") == 1 and page.count("1 claims") == 1
    assert page.count("stand-in data") == 3  # each Q1 claim row is marked as resting on stand-in data
    json.dumps(metas)


def test_executed_notebooks_carry_their_figures_even_under_mplbackend_agg(tmp_path, monkeypatch):
    """The pipeline and the tests run with MPLBACKEND=Agg, which a kernel inherits; set_style()
    must still draw inline, or the executed notebooks and their HTML reports lose every figure."""
    import papermill

    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "import matplotlib.pyplot as plt\nfrom inferopt.experiment import set_style\nset_style()\n"
        "fig, ax = plt.subplots()\nax.plot([0, 1], [1, 0])\nplt.show()"
    )]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    src, out = tmp_path / "fig.ipynb", tmp_path / "fig_out.ipynb"
    nbformat.write(nb, src)
    papermill.execute_notebook(str(src), str(out), kernel_name="python3", progress_bar=False, cwd=str(tmp_path))
    outputs = nbformat.read(out, as_version=4).cells[0].outputs
    assert any("image/png" in o.get("data", {}) for o in outputs)
