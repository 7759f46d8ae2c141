"""Pipeline machinery: stripping, parameter passing with YAML types, scales, the report."""

import json
import os
import re
from pathlib import Path

import nbformat
import pytest
import yaml
from papermill.translators import translate_parameters

from inferopt.experiment import repo_root
from inferopt import _config as config
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


def test_report_html_reads_offline_verdicts_first_code_folded(tmp_path):
    """One self-contained file: no script at all (the formulas are inline SVG, not MathJax), the
    verdicts, figures and contents before the notebook, each code cell's source folded."""
    import base64
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    nb = _notebook(True)
    del nb.metadata["widgets"]   # (an empty widget state, which nbconvert cannot read beside a figure)
    fig, ax = plt.subplots()
    ax.plot([0, 1])
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    nb.cells[2].outputs.append(nbformat.v4.new_output("display_data", data={"image/png": base64.b64encode(buf.getvalue()).decode()}))
    nb.cells.insert(1, nbformat.v4.new_markdown_cell("## Second part\n\nwhere $\\|w\\|_0 \\le k$ and $\\nosuchmacro$"))
    claims = [{"id": "N.1", "target": "N", "text": "small", "verdict": "fails", "measured": {"x": 0.5}}]
    path = tmp_path / "n.ipynb"
    nbformat.write(nb, path)
    html = notebook_to_html(path, tmp_path / "html" / "n.html", claims=claims).read_text()
    assert "<script" not in html and "mathjax" not in html.lower()
    assert not re.search(r"""(src|href)=["'](https?:|//|\.\./)""", html)
    # formulas typeset as inline SVG (the TeX kept as alt text); one mathtext cannot read stays as TeX
    assert html.count('class="math"') == 2 and 'alt="x^2"' in html and "data:image/svg+xml;base64," in html
    assert "&#36;\\nosuchmacro&#36;" in html or "$\\nosuchmacro$" in html
    # verdicts, figures and contents first, then the notebook; the thumbnail links to the figure in place
    order = [html.index(x) for x in (">Verdicts<", ">Figures<", ">Contents<", 'class="jp-Cell')]
    assert order == sorted(order)
    assert 'href="#figure-0"' in html and 'id="figure-0"' in html and 'href="#Second-part"' in html and 'id="Second-part"' in html
    # each code cell's source folded; the printed claims table is not repeated
    assert html.count('<details class="code">') == 2 and html.count("<summary>code</summary>") == 2


def test_report_contents_link_to_the_headings_nbconvert_renders(tmp_path):
    """Each heading of levels 1-3 has one contents entry whose link finds it, whatever the heading
    holds (a formula, brackets, an apostrophe, a dash); the entry shows the formula typeset, not
    its TeX. A level-4 heading has none."""
    nb = _notebook(False)
    titles = ["A1 — Gaussian mean: KL against $k$ (35–65 band)", "Herding on [0, 1]", "The authors' rule",
              "Data: train / test"]
    nb.cells = [nbformat.v4.new_markdown_cell(f"{'#' * (1 + i % 3)} {t}\n\ntext") for i, t in enumerate(titles)]
    nb.cells.append(nbformat.v4.new_markdown_cell("#### Not in the contents"))
    path = tmp_path / "n.ipynb"
    nbformat.write(nb, path)
    page = notebook_to_html(path, tmp_path / "n.html").read_text()
    contents = re.search(r"<h2>Contents</h2><ol>(.*?)</ol>", page, re.S).group(1)
    targets = re.findall(r'<li[^>]*><a href="#([^"]+)">', contents)
    ids = re.findall(r'<h[1-4] id="([^"]+)"', page)
    assert targets == ids[:4] and len(ids) == 5
    assert "$" not in contents and contents.count('class="math"') == 1 and "Herding on [0, 1]" in contents


def test_report_html_shows_claims_as_html_and_no_machine_paths(tmp_path):
    import sysconfig

    site = sysconfig.get_paths()["purelib"]
    nb = _notebook(False)
    claims = [{"id": "N.1", "target": "N", "text": "small", "verdict": "fails", "measured": {"x": 0.5}}]
    nb.cells[2].outputs = [
        nbformat.v4.new_output("stream", name="stderr", text=f"{site}/tqdm/auto.py:21: note\n{tmp_path}/data/x.csv read\n/opt/other/env/lib/python3.9/site-packages/m.py\n"),
        nbformat.v4.new_output("stream", text="      verdict  claim  measured\nid\nN.1 fails small x = 0.5\n"),
    ]
    path = tmp_path / "n.ipynb"
    nbformat.write(nb, path)
    html = notebook_to_html(path, tmp_path / "n.html", root=tmp_path, claims=claims).read_text()
    assert str(tmp_path) not in html and site not in html
    assert "&lt;site-packages&gt;/tqdm/auto.py" in html and "./data/x.csv" in html and "/opt/other" not in html
    assert '<tr class="claim fails"><td class="id">N.1</td>' in html and "N.1 fails small" not in html
    assert nbformat.read(path, as_version=4).cells[2].outputs[1]["name"] == "stdout"  # the notebook keeps its raw output


REPORTS = repo_root() / "reports" / "html"


@pytest.mark.skipif(not any(REPORTS.glob("*.html")), reason="no rendered reports: run `dvc repro` first")
@pytest.mark.parametrize("page", sorted(REPORTS.glob("*.html")), ids=lambda p: p.stem)
def test_rendered_reports_carry_no_warnings_or_machine_paths(page):
    text = page.read_text()
    assert str(repo_root()) not in text and os.path.expanduser("~") + "/" not in text
    warnings = re.findall(r"\w*(?:Warning|Error): [^<]{0,80}", text)
    assert not warnings, f"{page.name} shows {warnings[:3]}"
    # every red (stderr) box says something, and the claims table is there once
    boxes = re.findall(r'data-mime-type="application/vnd.jupyter.stderr"[^>]*>\s*<pre>(.*?)</pre>', text, re.S)
    assert all(box.strip() for box in boxes), f"{page.name} has an empty error box"
    assert text.count("<table class='claims'>") + text.count('<table class="claims">') == (0 if "no current run" in text else 1)


def test_a_failed_stage_is_marked_and_its_partial_notebook_kept_aside(tmp_path, monkeypatch):
    from inferopt._paths import repo_root as root_of
    from inferopt.pipeline.run import run_experiment

    for name in ("dvc.yaml", "pyproject.toml"):
        (tmp_path / name).write_text("")
    (tmp_path / "params.yaml").write_text("experiments: {E1: {notebook: e1}}\nE1: {n: 1}\n")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("n = 0", metadata={"tags": ["parameters"]}),
                nbformat.v4.new_code_cell("raise ValueError(f'bad n = {n}')")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, (tmp_path / "build" / "stripped").mkdir(parents=True) or tmp_path / "build/stripped/E1.ipynb")
    (tmp_path / "reports" / "html").mkdir(parents=True)
    (tmp_path / "reports" / "html" / "E1.html").write_text("old run")
    monkeypatch.setenv("INFEROPT_ROOT", str(tmp_path))
    root_of.cache_clear()
    try:
        with pytest.raises(Exception, match="bad n = 1"):
            run_experiment("E1", progress=False)
    finally:
        monkeypatch.delenv("INFEROPT_ROOT")
        root_of.cache_clear()
    assert (tmp_path / "build/failed/E1.ipynb").exists() and not list((tmp_path / "reports").rglob("*.ipynb"))
    index = (tmp_path / "reports/index.html").read_text()
    assert "FAILED" in index and "bad n = 1" in index and "build/failed/E1.ipynb" in index
    assert "old run" not in (tmp_path / "reports/html/E1.html").read_text()


def test_index_has_cards_and_every_claim(tmp_path):
    claim = lambda i, v: {"id": f"Q1.{i}", "target": "Q1", "text": f"claim {i} <b>", "verdict": v, "measured": {"x": 1.23456}}  # noqa: E731
    metas = {
        "Q1": {"title": "Quick", "paper": "P", "figure": "Fig 1", "figures": [], "stand_ins": ["S instead of T"],
               "claims": [claim(1, "holds"), claim(2, "fails"), claim(3, "not measured"),
                          dict(claim(4, "inconclusive"), diagnosis={"kind": "setting", "text": "too few trials"})]},
        "Q2": None,
        "R1": {"title": "Other", "paper": "Paper R", "figure": "Tab 1", "figures": [], "stand_ins": [],
               "claims": [dict(claim(4, "holds"), id="R1.1", target="R1")]},
    }
    page = build_index(metas, tmp_path, scale="paper")
    assert page.count("<tr class='claim ") == 5 and "claim 1 &lt;b&gt;" in page and "<div>x = 1.235</div>" in page
    for verdict, cls in [("holds", "holds"), ("fails", "fails"), ("not measured", "nm"), ("inconclusive", "inconclusive")]:
        assert f"<tr class='claim {cls}'><td class='id'>Q1." in page and f"1 {verdict}" in page
    assert "<b>setting</b> <span class='scale'>default scale</span> too few trials" in page
    assert "stand-in:</b> S instead of T" in page and 'href="html/Q1.html"' in page
    assert "outputs missing" in page and "failed or missing: Q2" in page
    # one section per paper letter, each with its own tallies; overall tallies first; the scale is named
    assert "<h2>Q. P</h2>" in page and "<h2>R. Paper R</h2>" in page and "<b>paper</b> scale" in page
    assert page.count("5 claims") == 1 and page.count("4 claims") == 1 and page.count("1 claims") == 1
    assert page.count("stand-in data") == 4  # each Q1 claim row is marked as resting on stand-in data
    assert 'id="problems-only"' in page and "body.problems-only tr.claim.holds{display:none}" in page
    json.dumps(metas)


def test_index_marks_a_failed_stage_instead_of_its_old_run(tmp_path):
    meta = {"title": "Quick", "paper": "P", "figure": "Fig 1", "figures": [], "stand_ins": [],
            "claims": [{"id": "Q1.1", "target": "Q1", "text": "c", "verdict": "holds", "measured": {}}]}
    failure = {"error": "ValueError: bad n", "time": "now", "notebook": "build/failed/Q1.ipynb"}
    page = build_index({"Q1": meta}, tmp_path, failures={"Q1": failure})
    assert "FAILED" in page and "ValueError: bad n" in page and "build/failed/Q1.ipynb" in page
    assert "<tr class='claim" not in page  # the old run's verdicts are not shown as current


def test_long_measurements_fold_behind_a_disclosure():
    from inferopt.experiment.claims import HEADLINE_LINES, claim_row_html

    measured = {"a": 1.0, "b": [1, 2], "per k": {str(k): k / 3 for k in range(6)}}
    row = claim_row_html({"id": "Z.1", "target": "Z", "text": "t", "verdict": "fails", "measured": measured})
    shown, folded = row.split("<details>")
    assert shown.count("<div>") == HEADLINE_LINES and "<div>a = 1</div>" in shown
    assert folded.count("<div>") == 8 - HEADLINE_LINES and "b = [1, 2]" in folded


def test_long_reasons_and_diagnoses_fold_at_a_word_and_keep_every_word():
    from inferopt.experiment.claims import DIAGNOSIS_CHARS, REASON_CHARS, claim_row_html, folded_text_html

    assert folded_text_html("a <short> reason") == "a &lt;short&gt; reason"
    long = " ".join(f"cell{i}: fails" for i in range(40))
    folded = folded_text_html(long, 50)
    head, rest = re.fullmatch(r"<details class='more'><summary>(.*) … \(more\)</summary>(.*)</details>", folded).groups()
    assert len(head) <= 50 and head + rest == long and rest.startswith(" ")
    assert folded_text_html("x" * 80, 50).startswith("<details class='more'><summary>" + "x" * 50 + " …")  # no space: cut at the limit
    claim = {"id": "Z.1", "target": "Z", "text": "t", "verdict": "inconclusive", "reason": long, "measured": {},
             "diagnosis": {"kind": "reading", "text": long, "scale": "paper"}}
    row = claim_row_html(claim)
    assert row.count("<details class='more'>") == 2
    assert len(re.search(r"<div class='support why'><details class='more'><summary>(.*?) … ", row).group(1)) <= REASON_CHARS
    assert len(re.search(r"<div class='diagnosis'>.*?<summary>(.*?) … ", row).group(1)) <= DIAGNOSIS_CHARS
    for bad, match in (({"text": 3}, "text"), ({"text": "t", "limit": 0}, "limit"), ({"text": "t", "limit": True}, "limit")):
        with pytest.raises((TypeError, ValueError), match=match):
            folded_text_html(**bad)


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


def _metrics(exp_id, verdicts, metrics=None):
    claims = [{"id": f"{exp_id}.{i}", "target": exp_id, "text": "t", "verdict": v, "measured": {}} for i, v in enumerate(verdicts, 1)]
    return {"experiment": exp_id, "title": "t", "params": {}, "metrics": metrics or {}, "claims": claims}


def test_scorecard_is_flat_with_verdicts_and_a_few_headline_numbers():
    from inferopt.pipeline.scorecard import MAX_HEADLINE, scorecard, verdicts

    data = _metrics("Q1", ["holds", "fails", "inconclusive", "not measured"],
                    {"kl": 0.5, "flag": True, "curve": [1, 2], "per": {"a": 1}, "n": 3, "m": 4, "o": 5})
    card = scorecard(data)
    assert card == {"Q1.1": 1, "Q1.2": 0, "Q1.3": "inconclusive", "Q1.4": "not measured", "Q1 kl": 0.5, "Q1 n": 3, "Q1 m": 4}
    assert MAX_HEADLINE == 3 and all(not isinstance(v, dict | list) for v in card.values())
    assert verdicts(card) == {"Q1.1": "holds", "Q1.2": "fails", "Q1.3": "inconclusive", "Q1.4": "not measured"}
    assert scorecard(_metrics("Q2", ["holds"], {"headline": {"rmse": 1.5}, "n": 3})) == {"Q2.1": 1, "Q2 rmse": 1.5}
    judged = _metrics("Q3", ["holds"], {"curve": [1, 2]})
    judged["claims"][0]["measured"] = {"per k": {"1": 2.0}, "ratio": 0.7, "k": 3}
    assert scorecard(judged) == {"Q3.1": 1, "Q3.1 ratio": 0.7}  # no top-level numbers: the claim's first


def test_claims_diff_between_commits_experiments_and_workspace(tmp_path):
    import subprocess

    from inferopt.pipeline.claims_diff import claims_diff
    from inferopt.pipeline.scorecard import write_scorecard

    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "t@t")
    git("config", "user.name", "t")
    cards = tmp_path / "reports" / "scorecard"
    write_scorecard(_metrics("Q1", ["holds", "fails"], {"kl": 0.5}), cards / "Q1.json")
    git("add", "-A")
    git("commit", "-qm", "one")
    write_scorecard(_metrics("Q1", ["holds", "holds", "inconclusive"], {"kl": 0.1}), cards / "Q1.json")
    git("commit", "-qam", "two")
    git("update-ref", "refs/exps/ab/cdef/variant", "HEAD~1")  # where DVC keeps an experiment called `variant`
    write_scorecard(_metrics("Q1", ["fails", "holds", "inconclusive"]), cards / "Q1.json")
    report = claims_diff(tmp_path, "HEAD~1", "HEAD")
    assert report.splitlines() == ["claims-diff HEAD~1 -> HEAD: 2 of 3 claims changed verdict",
                                   "  Q1.2  fails -> holds", "  Q1.3  absent -> inconclusive"]
    assert claims_diff(tmp_path, "variant", "HEAD") == report.replace("HEAD~1", "variant")
    assert claims_diff(tmp_path, "HEAD", "workspace").splitlines()[1:] == ["  Q1.1  holds -> fails"]
    assert "0 of 3" in claims_diff(tmp_path, str(tmp_path), "workspace")
    with pytest.raises(ValueError, match="neither"):
        claims_diff(tmp_path, "no-such-run", "HEAD")
