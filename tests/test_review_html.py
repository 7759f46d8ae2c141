"""The review page as HTML (``reports/review.html``), the truth of its generated sentences, and the
small paper-scale figures that a fresh clone shows without running the paper scale."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from inferopt.pipeline.report import build_index
from inferopt.pipeline.review import prose, review_markdown, what_would_change, why_inconclusive
from inferopt.pipeline.review_html import review_html
from inferopt.pipeline.small_figures import MAX_BYTES, NOT_COMMITTED, figure_block, keep_small_figures

ROOT = Path(__file__).resolve().parents[1]
BOOT = {"method": "bootstrap", "unit": "trial", "n_units": 10, "n_resamples": 200, "seed": 0}
READINGS = [{"value": 0.02, "verdict": "fails"}, {"value": 0.05, "verdict": "fails"}, {"value": 0.1, "verdict": "holds"}]
#: inconclusive by the reading of a cut-off, with a decisive bootstrap (every resample holds at the chosen cut-off)
BY_READING = {"id": "X1.2", "target": "X1", "text": "The gap is at most 0.05.", "verdict": "inconclusive",
              "measured": {"gap": 0.07}, "support": BOOT | {"fraction_holding": 1.0},
              "threshold": {"value": 0.05, "source": "ours", "readings": READINGS},
              "reason": "the verdict turns within the readings of our cut-off (0.02: fails, 0.05: fails, 0.1: holds)",
              "diagnosis": {"kind": "reading", "text": "It turns within the readings.", "scale": "paper",
                            "evidence": {"readings": READINGS}}}


# ------------------------------------------------------------------ a contradiction detector

def contradictions(claim: dict, sentences: list[str]) -> list[str]:
    """The sentences that contradict ``claim``'s own record: a bootstrap share that is not the
    record's, a bootstrap called short of 90 % either way when it is decisive, more trials offered
    to settle a claim whose bootstrap is decisive, and a cut-off offered as a change to itself."""
    f = (claim.get("support") or {}).get("fraction_holding")
    decisive = f is not None and max(f, 1 - f) >= 0.9
    chosen = (claim.get("threshold") or {}).get("value")
    bad = []
    for s in sentences:
        for pct in re.findall(r"(\d+) % of the bootstrap resamples hold", s):
            if f is None or int(pct) != round(100 * f):
                bad.append(s)
        if decisive and ("short of the 90 %" in s or "more trials could settle" in s):
            bad.append(s)
        m = re.search(r"reading the cut-off as (.*) instead of (\S+?)\.?$", s)
        if m and re.search(rf"(^|, ){re.escape(m.group(2))} \(", m.group(1)):
            bad.append(s)
        if chosen is not None and claim["verdict"] == "inconclusive" and "instead of" in s:
            bad.append(s)   # an undecided claim has no verdict another reading would change *to*
    return list(dict.fromkeys(bad))


#: what the page said before (reports/paper/REVIEW.md of the issue): sentences the detector must catch
OLD_SENTENCES = [
    "paper: reading the cut-off as 0.02 (fails), 0.05 (fails), 0.1 (holds) instead of 0.05.",
    "paper: 100 % of the bootstrap resamples hold, short of the 90 % either way: more trials could settle it.",
]


def test_the_detector_catches_the_old_sentences_and_passes_the_new():
    assert contradictions(BY_READING, OLD_SENTENCES) == OLD_SENTENCES
    new = what_would_change({"paper": BY_READING})
    assert new and not contradictions(BY_READING, new)
    assert any("readings of our cut-off disagree (0.02 and 0.05 give fails; 0.1 gives holds)" in s for s in new)
    assert any("bootstrap is decisive (100 %" in s and "more trials would not settle it" in s for s in new)


def test_a_claim_short_of_support_says_so_with_its_own_share():
    split = dict(BY_READING, threshold=None, support=BOOT | {"fraction_holding": 0.76},
                 reason="only 76 % of resamples agree", diagnosis=None)
    lines = what_would_change({"default": split})
    assert lines == ["default: the trials are split (76 % of the bootstrap resamples hold, 24 % fail, 90 % needed "
                     "either way): more trials could settle it."]
    assert not contradictions(split, lines)


def _committed_claims():
    for folder in (ROOT / "reports" / "paper" / "metrics", ROOT / "reports" / "metrics"):
        for path in sorted(folder.glob("*.json")):
            yield from json.loads(path.read_text()).get("claims", [])


def test_no_generated_sentence_contradicts_its_claim_over_the_committed_metrics():
    checked = 0
    for claim in _committed_claims():
        lines = what_would_change({"paper": claim})
        assert not contradictions(claim, lines), (claim["id"], lines)
        checked += 1
    assert checked > 50


# ------------------------------------------------------------------ no Python literal reaches the page

# a Python literal's marks: an opening brace or bracket with a quote, a quoted key and its colon ('line_search': ...; a
# key has no spaces, so prose with a possessive before a colon -- "authors': half step" -- is not one; nor is an apostrophe
# inside a word, as "paper's': holds" closing a quoted cell name)
REPR = re.compile(r"\{'|\['|\{\"|(?<!\w)'\w[^'\s]*'\s*:\s|\{data:|=\s'")


def test_the_literal_pattern_catches_reprs_and_not_apostrophes():
    for literal in ("{'a': 1}", "x = 'b'", "per d: 'sound': 0.3", "['x', 'y']", '{"k": 2}'):
        assert REPR.search(literal), literal
    for prose in ("the cell 'start: ours, d = paper's': holds", "the authors' hypc: holds"):
        assert not REPR.search(prose), prose


def _text(page: str) -> str:
    page = re.sub(r"src=('data:[^']*'|\"data:[^\"]*\")", "", page)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_prose_puts_python_literals_in_words():
    assert prose("Table 2 ({'line_search': 36.4, 'adafw': 5.6}): outside there: ['AdaFW', 'AdaPFW'].") == \
        "Table 2 (line_search 36.4, adafw 5.6): outside there: AdaFW and AdaPFW."
    assert prose("with {'data': 'California housing', 'phi': \"authors' Phi\"}") == \
        "with data California housing, phi authors' Phi"
    assert prose("no evidence['sweep'] here; sizes [1, 2, 3]") == "no evidence › sweep here; sizes [1, 2, 3]"
    assert prose("an open {brace and [bracket") == "an open {brace and [bracket"


def test_a_recorded_none_or_nan_reads_as_words_not_python():
    from inferopt.pipeline.review_html import value_html

    assert value_html(None) == "none" and value_html(float("nan")) == "—"
    assert value_html({"crossover k": None, "ratio": [1.5, float("nan")]}) == "crossover k = none<br>ratio = 1.5, —"
    assert value_html(0.0) == "0" and value_html(2) == "2"
    from inferopt.pipeline.report import _measured

    row = _measured({"id": "X1.1", "measured": {"crossover k (None: not within the run)": None, "ratio": float("nan")}}, None)
    assert "crossover k (none: not within the run) = none" in row and "ratio = —" in row and "None" not in row


def test_a_boolean_a_nan_string_and_a_deep_mapping_read_as_words():
    from inferopt.pipeline.report import _measured
    from inferopt.pipeline.review import plain_lines
    from inferopt.pipeline.review_html import value_html

    assert value_html(True) == "yes" and value_html(False) == "no" and value_html("nan") == "—"
    assert value_html("False") == "no" and value_html(1) == "1" and value_html("Falsehood") == "Falsehood"
    assert value_html({"giga": ["nan", 296.0]}) == "giga = —, 296"
    measured = {"verdict with the authors' baseline": True, "per-trial": {"giga": ["nan", 296.0]},
                "spread": {"k = 50": {"mean": 0.1, "identical": False}}}
    assert plain_lines(measured) == ["verdict with the authors' baseline = yes", "per-trial › giga = [—, 296]",
                                     "spread › k = 50 = mean 0.1, identical no"]
    row = _measured({"id": "X1.1", "measured": measured}, None)
    assert not re.search(r"\b(True|False|nan)\b|\{", html.unescape(re.sub(r"<[^>]+>", " ", row))), row
    # an experiment's report page: its verdicts table at the top
    from inferopt.pipeline.render import claims_html

    table = claims_html([{"id": "X1.1", "target": "X1", "text": "t", "verdict": "holds", "measured": measured}])
    assert "verdict with the authors&#x27; baseline = yes" in table and "per-trial › giga = [—, 296]" in table
    assert not re.search(r"\b(True|False|nan)\b", table), table


@pytest.fixture(scope="module")
def committed_page():
    """The review page over the committed metrics (and the default scale's, where present), with
    whether each paper-scale run is current (its reasons when stale)."""
    from inferopt._config import experiments

    return review_html(ROOT, experiments())


def test_the_review_page_over_the_committed_metrics_has_no_python_literal(committed_page):
    text = _text(committed_page)
    found = [text[max(0, m.start() - 60):m.end() + 60] for m in REPR.finditer(text)]
    assert not found, found[:5]
    python_words = [text[max(0, m.start() - 60):m.end() + 20] for m in re.finditer(r"\b(True|False|None|nan)\b", text)]
    assert not python_words, python_words[:5]
    # the old page printed them: the committed metrics do hold such literals, so this test can fail
    raw = json.dumps([c.get("diagnosis", {}).get("text", "") for c in _committed_claims()])
    assert "{'" in raw or "['" in raw


def test_the_summary_table_comes_first_and_lists_every_claim(committed_page):
    first_claim = committed_page.index("<section class='claim'")
    assert committed_page.index("<table class='summary'>") < first_claim
    summary = committed_page[committed_page.index("<table class='summary'>"):first_claim]
    ids = {c["id"] for c in _committed_claims()}
    assert all(f"href='#{i}'" in summary for i in ids)
    # every inconclusive verdict's reason stands beside it in the summary, a long one folded after its first words
    unfolded = re.sub(r"<details class='more'><summary>(.*?) … \(more\)</summary>(.*?)</details>", r"\1\2", summary)
    assert unfolded != summary
    for claim in _committed_claims():
        if claim["verdict"] == "inconclusive":
            assert html.escape(why_inconclusive(claim)) in unfolded, claim["id"]


def test_each_paper_has_one_heading_whatever_citation_a_run_recorded(committed_page):
    from inferopt.pipeline.review import paper_heading

    assert paper_heading("D4", {"paper": "Han, Avron & Shin, ICML 2018"}) == "Han, Avron & Shin, NeurIPS 2018"
    assert paper_heading("X1", {"paper": "Someone, 2020"}) == "Someone, 2020"
    headings = re.findall(r"<h2>(.*?)</h2>", committed_page)
    assert headings[0] == "Summary" and len(headings) == 5 and len(set(headings)) == 5, headings
    md = review_markdown(ROOT)
    assert len(re.findall(r"^## ", md, re.M)) == 4


def test_no_section_is_empty(committed_page):
    for part in committed_page.split("<p><b>What would change the verdict.</b></p>")[1:]:
        assert part.startswith("<ul><li>")
    assert "<ul></ul>" not in committed_page
    md = review_markdown(ROOT)
    assert "**What would change the verdict.**\n\n\n" not in md and not re.search(r"\*\*What would change the verdict\.\*\*\n\n#", md)


def test_the_page_reads_offline(committed_page):
    assert "<script" not in committed_page
    assert 'class="math"' in committed_page and "$k = 300$" not in committed_page   # the papers' formulas, typeset
    assert not re.search(r"""(src|href)=['"](https?:|//|\.\./)""", committed_page)


# ------------------------------------------------------------------ small paper-scale figures

def _big_png(path: Path) -> Path:
    """A figure as a paper-scale run writes one: large, with noise that does not compress."""
    rng = np.random.default_rng(0)
    pixels = np.full((1300, 1900, 3), 255, np.uint8)
    pixels[200:1100, 200:1700] = rng.integers(0, 255, (900, 1500, 3), dtype=np.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(pixels).save(path)
    return path


def test_a_paper_run_keeps_small_copies_of_its_figures(tmp_path):
    out = tmp_path / "paper"
    big = _big_png(out / "figures" / "X1" / "fig9.png")
    (out / "figures-small" / "X1").mkdir(parents=True)
    (out / "figures-small" / "X1" / "old.png").write_bytes(b"left by an earlier run")
    written = keep_small_figures(out, "X1", ["figures/X1/fig9.png"])
    assert [p.name for p in written] == ["fig9.png"] and sorted(p.name for p in (out / "figures-small" / "X1").iterdir()) == ["fig9.png"]
    assert big.stat().st_size > 1_000_000 and written[0].stat().st_size <= MAX_BYTES
    with Image.open(written[0]) as small:
        assert small.width <= 480
    with pytest.raises(FileNotFoundError, match="did not write"):
        keep_small_figures(out, "X1", ["figures/X1/missing.png"])


def _project(tmp_path, *, figure: bool):
    meta = {"experiment": "X1", "title": "A ratio", "paper": "Someone et al. (2099)", "figure": "Fig. 9", "stand_ins": [],
            "figures": ["figures/X1/fig9.png"]}
    paper = tmp_path / "reports" / "paper"
    (paper / "metrics").mkdir(parents=True)
    (paper / "metrics" / "X1.json").write_text(json.dumps(meta | {"claims": [BY_READING]}))
    (tmp_path / "reports" / "metrics").mkdir(parents=True)
    (tmp_path / "reports" / "metrics" / "X1.json").write_text(json.dumps(meta | {"claims": [BY_READING]}))
    _big_png(tmp_path / "reports" / "figures" / "X1" / "fig9.png")
    if figure:
        keep_small_figures(paper, "X1", ["figures/X1/fig9.png"]) if (paper / "figures/X1/fig9.png").exists() else None
        _big_png(paper / "figures" / "X1" / "fig9.png")
        keep_small_figures(paper, "X1", ["figures/X1/fig9.png"])
    return tmp_path, meta


@pytest.mark.parametrize("figure", [True, False])
def test_pages_show_the_paper_scale_figure_or_say_it_is_not_committed(tmp_path, figure):
    root, meta = _project(tmp_path, figure=figure)
    page = review_html(root)
    index = build_index({"X1": meta | {"claims": [BY_READING]}}, root / "reports",
                        papers={"X1": {"claims": {"X1.2": BY_READING}, "stale": [], "changed": [], "run": {}}}, review=True)
    for html_ in (page, index):
        assert ("paper scale: fig9" in html_) == figure
        assert (NOT_COMMITTED in html_) != figure
        assert "data:image/png;base64," in html_            # the default scale's figure when none is committed
        assert ("default scale: fig9" in html_) != figure
    block = figure_block(root / "reports" / "paper", "X1", [])
    assert (NOT_COMMITTED in block) != figure


def test_the_front_page_gives_each_paper_one_line_and_the_reason_beside_inconclusive(tmp_path):
    root, meta = _project(tmp_path, figure=False)
    index = build_index({"X1": meta | {"claims": [BY_READING]}}, root / "reports",
                        papers={"X1": {"claims": {"X1.2": BY_READING}, "stale": [], "changed": [], "run": {}}}, review=True)
    results = index[index.index("<table class='results'>"):]
    results = results[:results.index("</table>")]
    assert "paper scale: 1 inconclusive; headline claim" in results and "X1.2</a> (Fig. 9)" in results
    assert "inconclusive</span> <span class='why'>— the verdict turns within the readings" in results
    assert index.index("<table class='results'>") < index.index("<h2>All claims</h2>")
    # a long reason folds after HEADLINE_REASON_CHARS: the paper's line stays one line, the rest under "(more)"
    long_ = BY_READING | {"reason": "the verdict turns within the readings " + "of a long reason " * 30}
    index = build_index({"X1": meta | {"claims": [long_]}}, root / "reports",
                        papers={"X1": {"claims": {"X1.2": long_}, "stale": [], "changed": [], "run": {}}}, review=True)
    results = index[index.index("<table class='results'>"):index.index("</table>")]
    assert "<span class='why'>— <details class='more'><summary>the verdict turns within the readings" in results
    assert "… (more)</summary>" in results


def test_the_cli_makes_small_figures_of_an_existing_paper_run(tmp_path, monkeypatch, capsys):
    """Paper-scale runs made before the runner kept small figures get them without compute."""
    from inferopt._paths import repo_root
    from inferopt.pipeline.__main__ import main

    root, _ = _project(tmp_path, figure=False)
    _big_png(root / "reports" / "paper" / "figures" / "X1" / "fig9.png")
    for name in ("dvc.yaml", "pyproject.toml"):
        (root / name).write_text("")
    monkeypatch.chdir(root)
    monkeypatch.setenv("INFEROPT_ROOT", str(root))
    repo_root.cache_clear()
    try:
        assert main(["small-figures", "X1"]) == 0
        assert main(["small-figures", "Z9"]) == 2
    finally:
        repo_root.cache_clear()
    small = root / "reports" / "paper" / "figures-small" / "X1" / "fig9.png"
    assert small.is_file() and small.stat().st_size <= MAX_BYTES
    assert "no paper-scale metrics" in capsys.readouterr().err


def test_the_paper_scale_front_page_labels_its_own_figures_paper_scale(tmp_path):
    """`make paper`'s own front page (reports/paper/index.html) shows its run's figures as paper scale."""
    root, meta = _project(tmp_path, figure=False)
    paper = root / "reports" / "paper"
    _big_png(paper / "figures" / "X1" / "fig9.png")
    index = build_index({"X1": meta | {"claims": [BY_READING]}}, paper, figures_scale="paper")
    assert "paper scale: fig9" in index and "default scale: fig9" not in index and NOT_COMMITTED in index


def test_a_gated_claim_says_its_reason_once_in_its_row():
    """Session 37's screenshot: a gated claim's reason stood twice in its row (under the verdict and as its support)."""
    from inferopt.pipeline.review_html import claim_html
    note = "no step rule gains over plain VI beyond 2 standard errors at any start (a long reason)"
    gated = {"id": "X1.3", "target": "X1", "text": "Adaptive above line search.", "verdict": "inconclusive", "measured": {},
             "support": {"method": "gated", "note": note}, "reason": f"gated out: {note}"}
    row = re.search(r"<table>.*?</table>", claim_html("X1.3", {"paper": gated}, None)).group(0)
    assert row.count(html.escape(note)) == 1 and "gated out (the reason is beside the verdict)" in row
    # a bootstrap's share is not in its reason: both stay
    short = dict(BY_READING, support=BOOT | {"fraction_holding": 0.7}, reason="only 70 % of the resamples hold")
    page = claim_html("X1.2", {"paper": short}, None)
    assert "holds in 70 % of 200 bootstrap resamples of 10 trials" in page and "why:" in page
