"""The review page as HTML, ``reports/review.html`` beside the front page, from the same records
as ``reports/paper/REVIEW.md`` (:mod:`.review`): first a summary table (each claim, its verdict
at the paper and the default scale with the reason of every ``inconclusive`` and ``not measured`` beside it, and its
diagnosis's kind), then per paper and experiment the paper-scale figures (the small committed
copies, :mod:`.small_figures`; the default scale's figure when none is committed yet) and each
claim: the paper's words and where, our test, the verdicts, the diagnoses with their evidence
and verdict map as tables, the numbers as a table, and what would change the verdict. Every
sentence a notebook wrote goes through :func:`.review.prose` (no Python literal reaches the
page); it reads offline (figures embedded, no script).
"""

from __future__ import annotations

import html
from pathlib import Path

from ..experiment.claims import CLAIMS_CSS, VERDICT_CLASS, folded_text_html, format_value, support_text
from ..experiment.quotes import quote_of
from .layout import PAPER_DIR
from .math_svg import text_with_formulas
from .metrics_file import read_metrics
from .paper_state import SHOWN_REASONS, paper_results, run_note, short_reasons
from .review import load_claims, paper_heading, prose, threshold_text, what_would_change, why_undecided
from .small_figures import figure_block

#: the page, relative to the project's root (beside ``reports/index.html``)
REVIEW_HTML = Path("reports") / "review.html"

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:1100px;color:#222;padding:0 1rem;line-height:1.45}
table{border-collapse:collapse;font-size:.88rem;margin:.4rem 0} th,td{border-bottom:1px solid #e3e3e3;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f0f0f0} table.summary td.why{font-size:.8rem;color:#555;max-width:28rem}
blockquote{margin:.5rem 0;padding:.3rem .8rem;border-left:4px solid #bbb;background:#f7f7f7}
blockquote .where{display:block;color:#555;font-size:.85rem;margin-top:.3rem}
section.claim{border-top:1px solid #ddd;margin-top:1.2rem;padding-top:.4rem}
.figures{display:flex;flex-wrap:wrap;gap:.8rem} .figures figure{margin:0;max-width:480px} .figures img{max-width:100%;border:1px solid #eee}
img.math{vertical-align:middle;border:0} img.math.display{display:block;margin:.4rem auto}
.figures figcaption,.note{font-size:.8rem;color:#555} .missing{color:#a00}
h2{margin-top:2.5rem;border-bottom:2px solid #ccc} h3{margin-top:2rem}
""" + CLAIMS_CSS


def _e(text) -> str:
    return html.escape(str(text))


def _badge(claim: dict | None) -> str:
    if claim is None:
        return "<span class='verdict nm'>not run</span>"
    return f"<span class='verdict {VERDICT_CLASS.get(claim['verdict'], 'nm')}'>{_e(claim['verdict'])}</span>"


def value_html(value) -> str:
    """A recorded value as HTML: a list of records as a small table, a mapping as ``name = value``
    lines, a list as a comma list, a number to 4 significant digits, ``None`` as ``none``, NaN (or the string
    ``"nan"``) as ``—`` and ``True`` / ``False`` as ``yes`` / ``no``; never a Python literal."""
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        keys = list(dict.fromkeys(k for v in value for k in v))
        head = "".join(f"<th>{_e(k)}</th>" for k in keys)
        rows = "".join("<tr>" + "".join(f"<td>{value_html(v.get(k, ''))}</td>" for k in keys) + "</tr>" for v in value)
        return f"<table><tr>{head}</tr>{rows}</table>"
    if isinstance(value, dict):
        return "<br>".join(f"{_e(k)} = {value_html(v)}" for k, v in value.items())
    if isinstance(value, list):
        shown = ", ".join(value_html(v) for v in value[:12])
        return shown + (f", … ({len(value)} values)" if len(value) > 12 else "")
    if isinstance(value, bool) or value in ("True", "False"):   # a boolean, or one a notebook recorded as text
        return "yes" if value in (True, "True") else "no"
    if isinstance(value, str) and value.strip().lower() == "nan":   # NaN as a JSON writer left it
        return "—"
    if value is None:       # a notebook's "nothing found" (no crossover within the run, say)
        return "none"
    if isinstance(value, float) and value != value:   # NaN: a trial with no such number (it never reached the level)
        return "—"
    return _e(prose(value) if isinstance(value, str) else format_value(value))


def numbers_table(measured: dict) -> str:
    """A claim's numbers (or a diagnosis's evidence) as a two-column table."""
    rows = "".join(f"<tr><td>{_e(prose(k))}</td><td>{value_html(v)}</td></tr>" for k, v in measured.items())
    return f"<table><tr><th>name</th><th>value</th></tr>{rows}</table>"


#: how many characters of a reason the summary shows before folding the rest (the claim's section has it whole)
SUMMARY_REASON_CHARS = 200


def _why_cell(by_scale: dict) -> str:
    return "".join(f"<div><b>{s}</b>: {folded_text_html(why_undecided(c), SUMMARY_REASON_CHARS)}</div>"
                   for s, c in by_scale.items() if c and why_undecided(c))


def summary_table(experiments: dict, papers: dict) -> str:
    """Every claim in one row: its verdict at each scale, the reason of every ``inconclusive`` and ``not measured``,
    the kind of its diagnosis at each scale; one heading row per paper."""
    rows = []
    for paper, ids in papers.items():
        rows.append(f"<tr><th colspan='5'>{_e(paper)}</th></tr>")
        for exp_id in ids:
            entry = experiments[exp_id]
            for claim_id in dict.fromkeys([*entry["paper"], *entry["default"]]):
                by_scale = {s: entry[s].get(claim_id) for s in ("paper", "default")}
                kinds = ", ".join(dict.fromkeys(c["diagnosis"]["kind"] for c in by_scale.values() if c and c.get("diagnosis")))
                rows.append(f"<tr><td><a href='#{_e(claim_id)}'>{_e(claim_id)}</a></td><td>{_badge(by_scale['paper'])}</td>"
                            f"<td>{_badge(by_scale['default'])}</td><td>{_e(kinds) or '—'}</td>"
                            f"<td class='why'>{_why_cell(by_scale)}</td></tr>")
    head = "<tr><th>claim</th><th>paper scale</th><th>default scale</th><th>diagnosis</th><th>why undecided</th></tr>"
    return f"<table class='summary'>{head}{''.join(rows)}</table>"


def _diagnosis(diagnosis: dict, scale: str) -> str:
    evidence = dict(diagnosis.get("evidence") or {})
    sweep = evidence.pop("sweep", None)
    parts = [f"<p><b>Diagnosis ({_e(diagnosis.get('kind', '?'))}, {_e(diagnosis.get('scale', scale))} scale).</b> "
             f"{_e(prose(diagnosis.get('text', '')))}</p>"]
    if evidence:
        parts.append(f"<details><summary>evidence</summary>{numbers_table(evidence)}</details>")
    if sweep:
        cells = [dict(c["setting"], verdict=c["verdict"]) for c in sweep]
        parts.append(f"<p>Verdict map (the open choices swept, one setting per row):</p>{value_html(cells)}")
    return "".join(parts)


def support_cell(claim: dict, reason: str | None) -> str:
    """A claim's support in its row of the claim table: :func:`~inferopt.experiment.claims.support_text`, or, where the
    reason beside the verdict (``reason``, :func:`~.review.why_undecided`) already holds it (a gated claim's reason is its
    gate's note), a pointer to that reason: the row says it once."""
    text = support_text(claim.get("support"))
    return "gated out (the reason is beside the verdict)" if reason and text and text in reason else text


def claim_html(claim_id: str, by_scale: dict, stale: str | None) -> str:
    """One claim: the paper's words, our test, the verdicts, the diagnoses, the numbers, what would change it."""
    any_claim = next(c for c in by_scale.values() if c is not None)
    quote = any_claim.get("quote") or quote_of(claim_id)
    words = (f"<blockquote>{text_with_formulas(quote['text'])}<span class='where'>— {_e(quote['where'])}</span></blockquote>" if quote
             else "<p class='note'>(no quote of the paper recorded for this claim)</p>")
    parts = [f"<section class='claim' id='{_e(claim_id)}'><h4>{_e(claim_id)}</h4><p><b>The paper.</b></p>{words}",
             f"<p><b>Our test.</b> {text_with_formulas(any_claim['text'])}</p>"]
    parts += [f"<p class='note'>At the {s} scale: {_e(c['text'])}</p>" for s, c in by_scale.items()
              if c is not None and c["text"] != any_claim["text"]]
    rows = []
    for scale, claim in by_scale.items():
        if claim is None:
            rows.append(f"<tr><td>{scale}</td><td>{_badge(None)}</td><td></td><td></td></tr>")
            continue
        mark = f" <span class='verdict stale' title='{_e(stale)}'>STALE</span>" if scale == "paper" and stale else ""
        reason = why_undecided(claim)
        why = f"<div class='support'>why: {_e(reason)}</div>" if reason else ""
        rows.append(f"<tr><td>{scale}</td><td>{_badge(claim)}{mark}{why}</td><td>{_e(support_cell(claim, reason))}</td>"
                    f"<td>{_e(threshold_text(claim.get('threshold')))}</td></tr>")
    parts.append(f"<table><tr><th>scale</th><th>verdict</th><th>support</th><th>threshold</th></tr>{''.join(rows)}</table>")
    parts += [_diagnosis(c["diagnosis"], s) for s, c in by_scale.items() if c is not None and c.get("diagnosis")]
    measured_scale = "paper" if by_scale.get("paper") else next(s for s, c in by_scale.items() if c is not None)
    measured = by_scale[measured_scale].get("measured") or {}
    if measured:
        parts.append(f"<details><summary>the numbers ({measured_scale} scale)</summary>{numbers_table(measured)}</details>")
    change = ([f"paper: its run is STALE ({stale}): a fresh paper-scale run of the current code and parameters may turn it."]
              if stale and by_scale.get("paper") else []) + what_would_change(by_scale)
    if change:
        parts.append("<p><b>What would change the verdict.</b></p><ul>" + "".join(f"<li>{_e(s)}</li>" for s in change) + "</ul>")
    return "".join(parts) + "</section>"


def review_html(root: Path, registry: dict | None = None, reports: Path | None = None) -> str:
    """The review page for the metrics under ``root``; ``registry`` (the experiments of ``params.yaml``)
    adds whether each paper-scale run is current; ``reports``: where the default scale's figures are
    (default ``root/reports``)."""
    experiments = load_claims(root)
    reports = reports or root / "reports"
    state = paper_results(root, registry) if registry else {}
    papers: dict = {}
    for exp_id, entry in experiments.items():
        papers.setdefault(paper_heading(exp_id, entry["meta"]), []).append(exp_id)
    body = []
    for paper, ids in papers.items():
        body.append(f"<h2>{_e(paper)}</h2>")
        for exp_id in ids:
            entry, meta = experiments[exp_id], experiments[exp_id]["meta"]
            body.append(f"<h3 id='{_e(exp_id)}'>{_e(exp_id)}: {_e(meta.get('title', ''))} ({_e(meta.get('figure', ''))})</h3>")
            stale = None
            if exp_id in state:
                reasons = state[exp_id]["stale"]
                stale = short_reasons(reasons) if reasons else None
                body.append(f"<p class='note'>{_e(run_note(state[exp_id]))}</p>")
                if len(reasons) > SHOWN_REASONS:
                    body.append("<details><summary>why the paper-scale run is stale</summary><ul>"
                                + "".join(f"<li>{_e(r)}</li>" for r in reasons) + "</ul></details>")
            body += [f"<p><b>Stand-in:</b> {_e(s)}.</p>" for s in meta.get("stand_ins", [])]
            body.append(figure_block(root / PAPER_DIR, exp_id, [reports / f for f in _default_figures(reports, exp_id)]))
            for claim_id in dict.fromkeys([*entry["paper"], *entry["default"]]):
                body.append(claim_html(claim_id, {s: entry[s].get(claim_id) for s in ("paper", "default")}, stale))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>inferopt: review of every claim</title><style>{STYLE}</style></head>
<body><h1>Review: each claim beside the paper's words</h1>
<p>From the committed metrics of the papers' scale (<code>reports/paper/metrics/</code>) and, where present, the default
scale's (<code>reports/metrics/</code>); the same records as <code>reports/paper/REVIEW.md</code>.
<a href="index.html">Front page</a>. A verdict is <b>holds</b> or <b>fails</b> when at least 90 % of the bootstrap
resamples of its trials agree and no reasonable reading of a cut-off of ours turns it, else <b>inconclusive</b>
(its reason beside it).</p>
<h2>Summary</h2>{summary_table(experiments, papers)}
{''.join(body)}
</body></html>
"""


def _default_figures(reports: Path, exp_id: str) -> list[str]:
    """The figures of ``exp_id``'s default-scale run (paths relative to ``reports``)."""
    path = reports / "metrics" / f"{exp_id}.json"
    return list(read_metrics(path).get("figures") or []) if path.exists() else []


def write_review_html(root: Path, registry: dict | None = None) -> Path:
    """Write :data:`REVIEW_HTML` under ``root``; returns its path."""
    path = root / REVIEW_HTML
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(review_html(root, registry), encoding="utf-8")
    return path

