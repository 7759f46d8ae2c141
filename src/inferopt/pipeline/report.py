"""The report stage: every executed notebook as HTML, and ``reports/index.html`` with
one card per experiment and the claims scorecard of every claim of every notebook.

Everything reads offline from disk: figures and thumbnails are embedded as base64 (each card's
thumbnail a :data:`THUMB_WIDTH`-pixel copy of the experiment's first figure), MathJax is a
local copy. Each claim shows both scales — the paper scale's verdict (marked STALE when it is,
:mod:`.paper_state`) and the default scale's, each diagnosis and each set of numbers labelled
with its scale — and the filter keeps a claim that does not hold at either scale. An experiment whose stage failed (``build/failed/<id>.json``,
written by the runner) or whose outputs are missing is marked on its card, and its old
report page is replaced by a page that says so: the index never shows a stale run as current.
"""

from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path

from PIL import Image

from ..experiment.claims import CLAIMS_CSS, VERDICT_CLASS, diagnosis_html, measured_html, verdict_html
from .._paths import repo_root
from .._config import experiments, load_params
from .layout import PAPER_DIR, failure_marker
from .metrics_file import read_metrics
from .paper_state import is_current, paper_results, run_note
from .render import copy_mathjax, notebook_to_html
from .timing_claims import timing_note

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:1200px;color:#222;padding:0 1rem}
h1{margin-bottom:.2rem} .sub{color:#555;margin-top:0}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(270px,1fr));gap:1rem;margin:1.5rem 0}
.card{border:1px solid #ddd;border-radius:8px;padding:.8rem;background:#fafafa}
.card.broken{border:2px solid #c33;background:#fff5f5}
.card img{width:100%;border:1px solid #eee;background:#fff}
.card h3{margin:.2rem 0 .4rem;font-size:1.05rem} .card p{margin:.2rem 0;font-size:.9rem;color:#444}
.missing{color:#a00;font-weight:600}
.summary span{margin-right:1rem}
.filter{position:sticky;top:0;background:#fff;padding:.5rem 0;border-bottom:1px solid #ddd;z-index:1}
body.problems-only tr.claim.holds{display:none}
.measured .scale{display:inline-block;margin-top:.3rem}
.card p.run{font-size:.75rem;color:#666}
""" + CLAIMS_CSS

#: The filter: show only the claims that do not hold (failing, inconclusive, not measured).
FILTER = """<div class="filter"><label><input type="checkbox" id="problems-only"
onchange="document.body.classList.toggle('problems-only', this.checked)">
show only claims that do not hold at the paper or the default scale (fails, inconclusive, not measured)</label></div>"""
#: width in pixels of a card's thumbnail (shown at most ~400 px wide; twice that would be retina-sharp)
THUMB_WIDTH = 480
#: colours of a thumbnail's palette: line plots on white need few (64 looks as 256 does, a quarter smaller)
THUMB_COLORS = 64


def thumbnail(png: Path, width: int = THUMB_WIDTH) -> bytes:
    """``png`` scaled down to ``width`` pixels wide (never up), as a PNG of :data:`THUMB_COLORS`
    palette colours: a card's thumbnail, 10-30 kB where the figure is several hundred."""
    with Image.open(png) as img:
        img = img.convert("RGB")
        if img.width > width:
            img = img.resize((width, max(1, round(img.height * width / img.width))), Image.LANCZOS)
        buf = io.BytesIO()
        img.quantize(colors=THUMB_COLORS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(buf, "PNG", optimize=True)
        return buf.getvalue()


def _data_uri(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def _tally(claims: list[dict]) -> str:
    counts = {v: sum(c["verdict"] == v for c in claims) for v in VERDICT_CLASS}
    return ", ".join(f"{n} {verdict}" for verdict, n in counts.items() if n) or "no claims"


def _stale_badge(paper: dict | None) -> str:
    """The STALE mark of a stale paper-scale run, its reasons shown on hover."""
    if not (paper and paper["stale"]):
        return ""
    return f"<span class='verdict stale' title='{html.escape('; '.join(paper['stale']))}'>STALE</span>"


def _problem(exp_id: str, failure: dict | None) -> str:
    """The red line of a card whose stage failed or whose outputs are missing."""
    if failure:
        return (
            f'<p class="missing">the last run of this stage FAILED ({html.escape(failure["time"])}): '
            f'{html.escape(failure["error"])}. Its previous outputs were removed; the partial notebook is '
            f'<code>{html.escape(failure["notebook"])}</code>. Fix and run <code>dvc repro {exp_id}</code>.</p>'
        )
    return f'<p class="missing">outputs missing: not run yet or removed (run <code>dvc repro {exp_id}</code>)</p>'


def _card(exp_id: str, meta: dict | None, reports: Path, failure: dict | None = None, paper: dict | None = None) -> str:
    at_paper = (f"<p>claims at paper scale: {_tally(list(paper['claims'].values()))}{_stale_badge(paper)}</p>"
                f"<p class='run'>{html.escape(run_note(paper))}</p>" if paper else "<p>claims at paper scale: not run</p>")
    if meta is None or failure:
        return f'<div class="card broken"><h3>{html.escape(exp_id)}</h3>{_problem(exp_id, failure)}{at_paper}</div>'
    thumb = ""
    if meta.get("figures"):
        png = reports / meta["figures"][0]
        if png.exists():
            thumb = f'<a href="html/{exp_id}.html"><img alt="{html.escape(exp_id)} figure" src="{_data_uri(thumbnail(png))}"></a>'
    stand_ins = "".join(f"<p><b>stand-in:</b> {html.escape(s)}</p>" for s in meta.get("stand_ins", []))
    return (
        f'<div class="card"><h3><a href="html/{exp_id}.html">{html.escape(exp_id)}: {html.escape(meta["title"])}</a></h3>'
        f"<p>{html.escape(meta.get('paper', ''))} — {html.escape(meta.get('figure', ''))}</p>{stand_ins}{thumb}"
        f"{at_paper}<p>claims at default scale: {_tally(meta['claims'])}</p></div>"
    )


def _groups(metas: dict) -> dict:
    """Experiments grouped by paper (the id's letter: A, B, C, D), in report order."""
    groups: dict = {}
    for exp_id, meta in metas.items():
        groups.setdefault(exp_id[0], {})[exp_id] = meta
    return groups


def _badges(claims: list[dict]) -> str:
    return "".join(
        f'<span class="verdict {cls}">{sum(c["verdict"] == v for c in claims)} {v}</span>' for v, cls in VERDICT_CLASS.items()
    )


def _summary(metas: dict, failures: dict, papers: dict) -> str:
    """Tallies of the paper-scale verdicts (runs, stale ones) and of the default scale's."""
    claims = [c for exp_id, m in metas.items() if m and exp_id not in failures for c in m["claims"]]
    broken = [e for e, m in metas.items() if m is None or e in failures]
    missing = f'<span class="missing">{len(broken)} experiment(s) failed or missing: {", ".join(broken)}</span>' if broken else ""
    runs = {e: papers[e] for e in metas if e in papers}
    paper_claims = [c for p in runs.values() for c in p["claims"].values()]
    stale = [e for e, p in runs.items() if p["stale"]]
    not_run = [e for e in metas if e not in runs]
    paper_line = (
        f'<p class="summary"><span><b>paper scale</b>: {len(paper_claims)} claims of {len(runs)} experiment(s)</span>'
        f'{_badges(paper_claims)}'
        + (f'<span class="missing">stale: {", ".join(stale)}</span>' if stale else "")
        + (f'<span>not run at paper scale: {", ".join(not_run)}</span>' if not_run else "") + "</p>"
    )
    return (paper_line + f'<p class="summary"><span><b>default scale</b>: {len(claims)} claims</span>'
            f'{_badges(claims)}{missing}</p>')


#: a scale with no verdict for a claim
NOT_RUN = "<span class='verdict nm'>not run</span>"
#: the scorecard's columns: the paper scale's verdict is the headline, the default scale's the quick check
SCORECARD_HEAD = ("id", "target", "paper scale", "default scale", "claim", "measured")


def diagnoses(default: dict | None, paper_claim: dict | None, paper: dict | None) -> list[tuple[str, dict]]:
    """``(scale, claim)`` for each diagnosis the scorecard shows: the paper scale's, then the
    default scale's (the same kind and sentence at both scales is shown once, at the paper
    scale). A default-scale verdict that does not hold and has no diagnosis of its own, while
    the current (not stale) paper-scale run holds, is the default scale's settings: it gets the
    diagnosis ``setting`` naming the paper-scale run."""
    shown = [("paper", paper_claim)] if paper_claim and paper_claim.get("diagnosis") else []
    if default and default.get("diagnosis"):
        same = shown and all(shown[0][1]["diagnosis"].get(k) == default["diagnosis"].get(k) for k in ("kind", "text"))
        shown += [] if same else [("default", default)]
    elif (default and paper_claim and default["verdict"] != "holds" and paper_claim["verdict"] == "holds"
            and is_current(paper)):
        shown.append(("default", {"diagnosis": {"kind": "setting", "text": f"It holds at paper scale ({run_note(paper)}): "
                                                "the default scale's smaller sizes and budgets (params.yaml) decide it."}}))
    return shown


def _timing(claim_id: str) -> str:
    """The mark of a claim that rests on timings (:mod:`.timing_claims`)."""
    note = timing_note(claim_id)
    return f"<div class='support' title='rests on CPU times, which vary between runs'>{note}</div>" if note else ""


def _measured(default: dict | None, paper_claim: dict | None) -> str:
    """The numbers behind each scale's verdict, each labelled with its scale."""
    return "".join(f"<div class='scale'>{scale} scale</div>{measured_html(c['measured'])}"
                   for scale, c in (("paper", paper_claim), ("default", default)) if c)


def _scorecard(metas: dict, failures: dict, papers: dict) -> str:
    """Every claim of the group: its paper-scale verdict (support, run, staleness), its
    default-scale verdict (support), the claim with each scale's diagnosis, and each scale's
    numbers. A row counts as holding (hidden by the filter) only if it holds at every scale
    that has a verdict."""
    rows = []
    for exp_id, meta in metas.items():
        paper = papers.get(exp_id)
        default = {} if meta is None or exp_id in failures else {c["id"]: c for c in meta["claims"]}
        ids = list(default) + [i for i in (paper or {}).get("claims", {}) if i not in default]
        stand_in = " <span class='verdict nm'>stand-in data</span>" if meta and meta.get("stand_ins") else ""
        for claim_id in ids:
            d, p = default.get(claim_id), (paper or {}).get("claims", {}).get(claim_id)
            shown = p if p is not None else d
            problem = next((c["verdict"] for c in (p, d) if c and c["verdict"] != "holds"), "holds")
            rows.append(
                f"<tr class='claim {VERDICT_CLASS.get(problem, 'nm')}'><td class='id'>{html.escape(claim_id)}{_timing(claim_id)}</td>"
                f"<td><a href='html/{exp_id}.html'>{html.escape(exp_id)}</a>{stand_in}</td>"
                f"<td class='v'>{verdict_html(p, run_note(paper, reasons=False)) + _stale_badge(paper) if p else NOT_RUN}</td>"
                f"<td class='v'>{verdict_html(d) if d else NOT_RUN}</td>"
                f"<td>{html.escape(shown['text'])}{''.join(diagnosis_html(c, s) for s, c in diagnoses(d, p, paper))}</td>"
                f"<td class='measured'>{_measured(d, p)}</td></tr>"
            )
    head = "".join(f"<th>{h}</th>" for h in SCORECARD_HEAD)
    return f"<table class='claims'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _paper_title(metas: dict) -> str:
    papers = [m["paper"] for m in metas.values() if m and m.get("paper")]
    return papers[0] if papers else "not run yet"


#: the review of every claim (quote, test, both verdicts, evidence), written by ``python -m inferopt.pipeline review``
REVIEW = PAPER_DIR / "REVIEW.md"


def build_index(metas: dict, reports: Path, scale: str = "default", failures: dict | None = None,
                papers: dict | None = None, review: bool = False) -> str:
    """The front page: overall tallies, the filter, then per paper its cards and its claims scorecard.

    ``failures`` maps the id of an experiment whose stage failed to its failure record;
    ``papers`` the committed paper-scale runs (:func:`.paper_state.paper_results`);
    ``review``: link :data:`REVIEW` (it exists)."""
    failures, papers = failures or {}, papers or {}
    sections = "".join(
        f'<section><h2>{letter}. {html.escape(_paper_title(group))}</h2>{_summary(group, failures, papers)}'
        f'<div class="cards">{"".join(_card(e, m, reports, failures.get(e), papers.get(e)) for e, m in group.items())}</div>'
        f"<h3>Claims</h3>{_scorecard(group, failures, papers)}</section>"
        for letter, group in _groups(metas).items()
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>inferopt reports</title><style>{STYLE}</style></head>
<body><h1>inferopt: reproduction reports</h1>
<p class="sub">Executed notebooks of <code>dvc repro</code> at the <b>{html.escape(scale)}</b> scale
(<code>params.yaml</code>{'' if scale == 'default' else ' overlaid by <code>params_paper.yaml</code>'});
each card links to its full report, and each experiment's numbers are in <code>reports/results/&lt;id&gt;/</code>
and <code>reports/metrics/&lt;id&gt;.json</code>. Verdicts are computed in the notebooks from the measurements;
each claim shows its headline numbers, the rest behind "more".
The <b>paper scale</b> column is the headline: the verdict of the last committed <code>make paper</code>
run (<code>reports/paper/metrics/&lt;id&gt;.json</code>), with the commit and date it ran at, marked
STALE when that run was made from a modified work tree, ran with parameters other than
<code>params_paper.yaml</code> over <code>params.yaml</code>, or when the experiment's notebook or library
modules changed since; the default scale is the quick check. The numbers of both scales are shown, labelled. Under a verdict: its support — the share of bootstrap resamples of the
trials in which the claim holds (<code>holds</code>/<code>fails</code> need 90 %, else
<code>inconclusive</code>) — or why it has none. A claim that does not hold carries its diagnosis:
PAPER (fails in the faithful setting), STAND-IN (rests on data we could not get), SETTING (rests on
a setting the paper does not publish) or CONSTRUCTION (ours differs from the authors'), with the
scale it was made at.</p>
{'<p><a href="paper/REVIEW.md">Review of every claim</a> (<code>reports/paper/REVIEW.md</code>): its quote, our test, both verdicts, support, diagnosis and evidence.</p>' if review else ''}
<h2>All claims</h2>{_summary(metas, failures, papers)}
{FILTER}
{sections}
</body></html>
"""


def failed_page(exp_id: str, failure: dict | None) -> str:
    """The report page of an experiment without a current run (replaces its stale page)."""
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(exp_id)}: no current run</title>'
        f"<style>{STYLE}</style></head><body><h1>{html.escape(exp_id)}: no current run</h1>"
        f'{_problem(exp_id, failure)}<p><a href="../index.html">all reports</a></p></body></html>\n'
    )


def _state(reports: Path, root: Path) -> tuple[dict, dict]:
    """Every experiment's metrics (None when missing) and the failure records of failed stages."""
    metas, failures = {}, {}
    for exp_id in experiments():
        metrics = reports / "metrics" / f"{exp_id}.json"
        metas[exp_id] = read_metrics(metrics) if metrics.exists() else None
        marker = failure_marker(root, exp_id, reports)
        # a failure counts until outputs newer than it appear (a re-run, or `dvc checkout` of an old run)
        if marker.exists() and (not metrics.exists() or metrics.stat().st_mtime <= marker.stat().st_mtime):
            failures[exp_id] = json.loads(marker.read_text())
    return metas, failures


def _write_index(reports: Path, metas: dict, failures: dict) -> Path:
    index = reports / "index.html"
    tmp = index.with_suffix(".tmp")
    root = repo_root()
    papers = {} if reports.resolve() == (root / PAPER_DIR).resolve() else paper_results(root, experiments())
    review = reports.resolve() == (root / "reports").resolve() and (root / REVIEW).exists()
    tmp.write_text(build_index(metas, reports, load_params().get("scale", "default"), failures, papers, review),
                   encoding="utf-8")
    tmp.replace(index)
    return index


def build_reports(reports_dir: str = "reports") -> Path:
    """Render every executed notebook and write ``index.html``; return its path."""
    root = repo_root()
    reports = root / reports_dir
    copy_mathjax(reports / "mathjax")
    metas, failures = _state(reports, root)
    for exp_id, meta in metas.items():
        notebook = reports / "notebooks" / f"{exp_id}.ipynb"
        page = reports / "html" / f"{exp_id}.html"
        if notebook.exists() and meta is not None and exp_id not in failures:
            notebook_to_html(notebook, page, mathjax_rel="../mathjax", root=root, claims=meta["claims"])
        else:
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(failed_page(exp_id, failures.get(exp_id)), encoding="utf-8")
    return _write_index(reports, metas, failures)


def refresh_index(reports_dir: str = "reports", *, failed: str | None = None) -> Path:
    """Rewrite ``index.html`` from the current state without re-rendering notebooks (the runner
    calls it when a stage fails); ``failed``'s report page is replaced by a failure page."""
    root = repo_root()
    reports = root / reports_dir
    metas, failures = _state(reports, root)
    if failed is not None:
        page = reports / "html" / f"{failed}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(failed_page(failed, failures.get(failed)), encoding="utf-8")
    return _write_index(reports, metas, failures)
