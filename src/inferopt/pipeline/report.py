"""The report stage: every executed notebook as HTML (:mod:`.render`), ``reports/index.html``
with a one-line verdict per paper, one card per experiment and the claims scorecard of every
claim of every notebook, and the review page ``reports/review.html`` (:mod:`.review_html`).

Everything reads offline from disk: figures and thumbnails are embedded as base64 (each card's
figure the committed small copy of the paper scale's first figure, else the default scale's,
:mod:`.small_figures`). Each claim shows both scales — the paper scale's verdict (marked STALE when it is,
:mod:`.paper_state`) and the default scale's, each diagnosis and each set of numbers labelled
with its scale — and the filter keeps a claim that does not hold at either scale. An experiment whose stage failed (``build/failed/<id>.json``,
written by the runner) or whose outputs are missing is marked on its card, and its old
report page is replaced by a page that says so: the index never shows a stale run as current.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from ..experiment.claims import CLAIMS_CSS, VERDICT_CLASS, checks_named, diagnosis_html, paper_claims as counted, folded_text_html, verdict_html
from .._paths import repo_root
from .._config import experiments, load_params
from .layout import PAPER_DIR, failure_marker
from .metrics_file import read_metrics
from .paper_state import is_current, paper_results, run_note
from .readme import PAPERS
from .render import notebook_to_html
from .review import plain_lines, prose, why_undecided
from .review_html import write_review_html
from .small_figures import figure_block, thumbnail  # noqa: F401  (thumbnail: the cards' copies, tested here)
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
.card .figures figure{margin:0} .card .figures figcaption,.card .note{font-size:.72rem;color:#666;margin:.1rem 0}
table.results{border-collapse:collapse;margin:.8rem 0} table.results td,table.results th{padding:.3rem .6rem;border-bottom:1px solid #e3e3e3;text-align:left}
.why{font-size:.8rem;color:#6b4d00} p.verdict-line{font-size:1.05rem;margin:.2rem 0 .6rem}
table.claims td.measured div.more{font-size:.75rem}
table.claims tr.claim td.id{white-space:normal} table.claims td.text{min-width:24rem}
""" + CLAIMS_CSS

#: The filter: show only the claims that do not hold (failing, inconclusive, not measured).
FILTER = """<div class="filter"><label><input type="checkbox" id="problems-only"
onchange="document.body.classList.toggle('problems-only', this.checked)">
show only claims that do not hold at the paper or the default scale (fails, inconclusive, not measured)</label></div>"""
def _tally(claims: list[dict]) -> str:
    """The paper's claims per verdict; the implementation checks named apart, never counted among them."""
    kept = counted(claims)
    counts = {v: sum(c["verdict"] == v for c in kept) for v in VERDICT_CLASS}
    return (", ".join(f"{n} {verdict}" for verdict, n in counts.items() if n) or "no claims") + checks_named(claims)


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


def _card(exp_id: str, meta: dict | None, reports: Path, failure: dict | None = None, paper: dict | None = None,
          figures_scale: str = "default") -> str:
    """An experiment's card: title, paper and figure, stand-ins, its paper-scale figure (the committed
    small copy, else a note and the figure of ``reports``, whose scale is ``figures_scale``), the
    tallies of both scales."""
    paper_dir = reports if figures_scale == "paper" else reports / "paper"
    at_paper = (f"<p>claims at paper scale: {_tally(list(paper['claims'].values()))}{_stale_badge(paper)}</p>"
                f"<p class='run'>{html.escape(run_note(paper))}</p>" if paper else "<p>claims at paper scale: not run</p>")
    if meta is None or failure:
        return f'<div class="card broken"><h3>{html.escape(exp_id)}</h3>{_problem(exp_id, failure)}{at_paper}</div>'
    figure = figure_block(paper_dir, exp_id, [reports / f for f in meta.get("figures", [])], first_only=True,
                          fallback_scale=figures_scale)
    thumb = f'<a href="html/{exp_id}.html">{figure}</a>'
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
    """The paper's claims per verdict (the implementation checks are not counted)."""
    kept = counted(claims)
    return "".join(
        f'<span class="verdict {cls}">{sum(c["verdict"] == v for c in kept)} {v}</span>' for v, cls in VERDICT_CLASS.items()
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
        f'<p class="summary"><span><b>paper scale</b>: {len(counted(paper_claims))} claims of {len(runs)} experiment(s)</span>'
        f'{_badges(paper_claims)}'
        + (f'<span class="missing">stale: {", ".join(stale)}</span>' if stale else "")
        + (f'<span>not run at paper scale: {", ".join(not_run)}</span>' if not_run else "") + "</p>"
    )
    return (paper_line + f'<p class="summary"><span><b>default scale</b>: {len(counted(claims))} claims</span>'
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


#: how many ``name = value`` lines of each scale's numbers a scorecard row shows (the rest are on the review page)
ROW_LINES = 2
#: how many characters of a claim's text a scorecard row shows before folding the rest (whole on the review page)
CLAIM_CHARS = 280


#: a recorded ``None`` (nothing found) or NaN (no such number) as a notebook printed it: shown as ``none`` and ``—``
_NONE_NAN = re.compile(r"\b(?:None|nan)\b")


def _measured(default: dict | None, paper_claim: dict | None, review: bool = False) -> str:
    """The first :data:`ROW_LINES` numbers behind each scale's verdict, each labelled with its
    scale, and how many more there are (linked to the claim on the review page when it exists); ``None`` reads
    ``none`` and NaN ``—``."""
    out = []
    for scale, c in (("paper", paper_claim), ("default", default)):
        if not c:
            continue
        lines = [_NONE_NAN.sub(lambda m: "none" if m.group() == "None" else "—", x) for x in plain_lines(c["measured"])]
        more = len(lines) - ROW_LINES
        link = (f"<a href='review.html#{html.escape(c['id'])}'>{more} more</a>" if review else f"{more} more") if more > 0 else ""
        out.append(f"<div class='scale'>{scale} scale</div>" + "".join(f"<div>{html.escape(x)}</div>" for x in lines[:ROW_LINES])
                   + (f"<div class='more'>{link}</div>" if link else ""))
    return "".join(out)


def _in_words(claim: dict) -> dict:
    """``claim`` with its diagnosis's sentence in words (:func:`.review.prose`: no Python literal)."""
    diagnosis = claim["diagnosis"]
    return dict(claim, diagnosis=dict(diagnosis, text=prose(diagnosis["text"]))) if isinstance(diagnosis, dict) else claim


def _with_reason(claim: dict) -> dict:
    """``claim``, an ``inconclusive`` or ``not measured`` one with its reason (read off its record when a run older
    than the reasons has none, or from its text: :func:`.review.why_undecided`)."""
    why = why_undecided(claim)
    return dict(claim, reason=why) if why else claim


def _scorecard(metas: dict, failures: dict, papers: dict, review: bool = False) -> str:
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
                f"<td class='v'>{verdict_html(_with_reason(p), run_note(paper, reasons=False)) + _stale_badge(paper) if p else NOT_RUN}</td>"
                f"<td class='v'>{verdict_html(_with_reason(d)) if d else NOT_RUN}</td>"
                f"<td class='text'>{folded_text_html(shown['text'], CLAIM_CHARS)}{''.join(diagnosis_html(_in_words(c), s) for s, c in diagnoses(d, p, paper))}</td>"
                f"<td class='measured'>{_measured(d, p, review)}</td></tr>"
            )
    head = "".join(f"<th>{h}</th>" for h in SCORECARD_HEAD)
    return f"<table class='claims'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _paper_title(metas: dict) -> str:
    papers = [m["paper"] for m in metas.values() if m and m.get("paper")]
    return papers[0] if papers else "not run yet"


def headline(group: dict, papers: dict) -> tuple[str, dict, str] | None:
    """``(experiment id, claim, scale)`` of a paper's headline claim: its central claim (the README's,
    :data:`.readme.PAPERS`), at the paper scale when that ran, else the default scale's; for a paper
    without one, the first claim of its first experiment."""
    for cid in PAPERS.get(next(iter(group), " ")[0], {}).get("central", ()):
        exp_id = cid.split(".")[0]
        paper = (papers.get(exp_id) or {}).get("claims") or {}
        if cid in paper:
            return exp_id, paper[cid], "paper"
        default = [c for c in (group.get(exp_id) or {}).get("claims", []) if c["id"] == cid]
        if default:
            return exp_id, default[0], "default"
    for exp_id, meta in group.items():
        paper = (papers.get(exp_id) or {}).get("claims") or {}
        if paper:
            return exp_id, next(iter(paper.values())), "paper"
        if meta and meta.get("claims"):
            return exp_id, meta["claims"][0], "default"
    return None


#: the characters of a headline claim's reason shown on the front page's paper line before it folds
HEADLINE_REASON_CHARS = 160


def verdict_line(group: dict, papers: dict) -> str:
    """A paper in one line: the tally of its paper-scale verdicts (the default scale's when none
    ran) and its headline claim's verdict, with the reason beside an ``inconclusive`` or ``not measured``."""
    paper_claims = [c for e in group if e in papers for c in papers[e]["claims"].values()]
    claims, scale = (paper_claims, "paper scale") if paper_claims else (
        [c for m in group.values() if m for c in m["claims"]], "default scale (no paper-scale run)")
    top = headline(group, papers)
    head = ""
    if top:
        exp_id, claim, at = top
        title = (group.get(exp_id) or {}).get("figure", "")
        # issue 45: one line per paper -- a long reason folds after HEADLINE_REASON_CHARS (the rest under "(more)"; no
        # closing parenthesis: Chromium puts what follows a folded <details> on a line of its own)
        reason = why_undecided(claim)
        why = f" <span class='why'>— {folded_text_html(reason, HEADLINE_REASON_CHARS)}</span>" if reason else ""
        head = (f"; headline claim <a href='review.html#{html.escape(claim['id'])}'>{html.escape(claim['id'])}</a>"
                f"{' (' + html.escape(title) + ')' if title else ''} at the {at} scale: "
                f"<span class='verdict {VERDICT_CLASS.get(claim['verdict'], 'nm')}'>{html.escape(claim['verdict'])}</span>{why}")
    return f"<span class='line'>{scale}: {_tally(claims)}{head}</span>"


def results_table(metas: dict, papers: dict) -> str:
    """One row per paper: its letter, title and :func:`verdict_line`."""
    rows = "".join(f"<tr><td><a href='#paper-{letter}'>{letter}</a></td><td>{html.escape(_paper_title(group))}</td>"
                   f"<td>{verdict_line(group, papers)}</td></tr>" for letter, group in _groups(metas).items())
    return f"<table class='results'><tr><th></th><th>paper</th><th>verdicts</th></tr>{rows}</table>"


def build_index(metas: dict, reports: Path, scale: str = "default", failures: dict | None = None,
                papers: dict | None = None, review: bool = False, figures_scale: str = "default") -> str:
    """The front page: overall tallies, the filter, then per paper its cards and its claims scorecard.

    ``failures`` maps the id of an experiment whose stage failed to its failure record;
    ``papers`` the committed paper-scale runs (:func:`.paper_state.paper_results`);
    ``review``: link the review page (:data:`.review_html.REVIEW_HTML`, written beside it);
    ``figures_scale``: the scale of the figures under ``reports`` (``paper`` for ``reports/paper/``)."""
    failures, papers = failures or {}, papers or {}
    sections = "".join(
        f'<section id="paper-{letter}"><h2>{letter}. {html.escape(_paper_title(group))}</h2>'
        f'<p class="verdict-line">{verdict_line(group, papers)}</p>{_summary(group, failures, papers)}'
        f'<div class="cards">{"".join(_card(e, m, reports, failures.get(e), papers.get(e), figures_scale) for e, m in group.items())}</div>'
        f"<h3>Claims</h3>{_scorecard(group, failures, papers, review)}</section>"
        for letter, group in _groups(metas).items()
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>inferopt reports</title><style>{STYLE}</style></head>
<body><h1>inferopt: reproduction reports</h1>
{results_table(metas, papers)}
{'<p><a href="review.html"><b>Review of every claim</b></a>: a summary table, then each claim with the paper&#39;s words, our test, its figure, its numbers, its diagnosis and what would change its verdict.</p>' if review else ''}
<details class="sub"><summary>How to read this page</summary><p>Executed notebooks of <code>dvc repro</code> at the <b>{html.escape(scale)}</b> scale
(<code>params.yaml</code>{'' if scale == 'default' else ' overlaid by <code>params_paper.yaml</code>'});
each card links to its full report, and each experiment's numbers are in <code>reports/results/&lt;id&gt;/</code>
and <code>reports/metrics/&lt;id&gt;.json</code>. Verdicts are computed in the notebooks from the measurements;
each claim shows its first numbers, the rest on the review page.
The <b>paper scale</b> column is the headline: the verdict of the last committed <code>make paper</code>
run (<code>reports/paper/metrics/&lt;id&gt;.json</code>), with the commit and date it ran at, marked
STALE when that run was made from a modified work tree, ran with parameters other than
<code>params_paper.yaml</code> over <code>params.yaml</code>, or when the experiment's notebook or library
modules changed since; the default scale is the quick check. The numbers of both scales are shown, labelled. Under a verdict: its support — the share of bootstrap resamples of the
trials in which the claim holds (<code>holds</code>/<code>fails</code> need 90 %, else
<code>inconclusive</code>) — or why it has none. A claim that does not hold carries its diagnosis:
PAPER (fails in the faithful setting), STAND-IN (rests on data we could not get), SETTING (rests on
a setting the paper does not publish) or CONSTRUCTION (ours differs from the authors'), with the
scale it was made at.</p></details>
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
    at_paper = reports.resolve() == (root / PAPER_DIR).resolve()
    papers = {} if at_paper else paper_results(root, experiments())
    review = reports.resolve() == (root / "reports").resolve()
    if review:
        write_review_html(root, experiments())
    tmp.write_text(build_index(metas, reports, load_params().get("scale", "default"), failures, papers, review,
                               "paper" if at_paper else "default"), encoding="utf-8")
    tmp.replace(index)
    return index


def build_reports(reports_dir: str = "reports") -> Path:
    """Render every executed notebook and write ``index.html``; return its path."""
    root = repo_root()
    reports = root / reports_dir
    metas, failures = _state(reports, root)
    for exp_id, meta in metas.items():
        notebook = reports / "notebooks" / f"{exp_id}.ipynb"
        page = reports / "html" / f"{exp_id}.html"
        if notebook.exists() and meta is not None and exp_id not in failures:
            notebook_to_html(notebook, page, root=root, claims=meta["claims"])
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
