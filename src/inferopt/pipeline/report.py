"""The report stage: every executed notebook as HTML, and ``reports/index.html`` with
one card per experiment and the claims scorecard of every claim of every notebook.

Everything reads offline from disk: figures and thumbnails are embedded as base64,
MathJax is a local copy.
"""

from __future__ import annotations

import base64
import html
import json
from pathlib import Path

from ..experiment.paths import repo_root
from .config import experiments, load_params
from .render import copy_mathjax, notebook_to_html

VERDICT_CLASS = {"holds": "holds", "fails": "fails", "not measured": "nm"}

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:1200px;color:#222;padding:0 1rem}
h1{margin-bottom:.2rem} .sub{color:#555;margin-top:0}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(270px,1fr));gap:1rem;margin:1.5rem 0}
.card{border:1px solid #ddd;border-radius:8px;padding:.8rem;background:#fafafa}
.card img{width:100%;border:1px solid #eee;background:#fff}
.card h3{margin:.2rem 0 .4rem;font-size:1.05rem} .card p{margin:.2rem 0;font-size:.9rem;color:#444}
.missing{color:#a00}
table{border-collapse:collapse;width:100%;font-size:.9rem} th,td{border-bottom:1px solid #e3e3e3;padding:.4rem .5rem;text-align:left;vertical-align:top}
th{background:#f0f0f0} td.measured{font-family:ui-monospace,monospace;font-size:.8rem;color:#333}
.verdict{font-weight:600;padding:.1rem .45rem;border-radius:4px;white-space:nowrap}
.holds{background:#d7f0dd;color:#125a24} .fails{background:#f8d7d7;color:#7a1111} .nm{background:#eee;color:#555}
.summary span{margin-right:1rem}
"""


def _data_uri(png: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode("ascii")


def _format_value(value) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        shown = ", ".join(_format_value(v) for v in value[:8])
        return f"[{shown}{', …' if len(value) > 8 else ''}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_format_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def _card(exp_id: str, meta: dict | None, reports: Path) -> str:
    if meta is None:
        return (
            f'<div class="card"><h3>{html.escape(exp_id)}</h3>'
            '<p class="missing">not run yet: no metrics file (run <code>dvc repro</code>)</p></div>'
        )
    thumb = ""
    if meta.get("figures"):
        png = reports / meta["figures"][0]
        if png.exists():
            thumb = f'<a href="html/{exp_id}.html"><img alt="{html.escape(exp_id)} figure" src="{_data_uri(png)}"></a>'
    counts = {v: sum(c["verdict"] == v for c in meta["claims"]) for v in VERDICT_CLASS}
    stand_ins = "".join(f"<p><b>stand-in:</b> {html.escape(s)}</p>" for s in meta.get("stand_ins", []))
    return (
        f'<div class="card"><h3><a href="html/{exp_id}.html">{html.escape(exp_id)}: {html.escape(meta["title"])}</a></h3>'
        f"<p>{html.escape(meta.get('paper', ''))} — {html.escape(meta.get('figure', ''))}</p>{stand_ins}{thumb}"
        f"<p>claims: {counts['holds']} hold, {counts['fails']} fail, {counts['not measured']} not measured</p></div>"
    )


def _groups(metas: dict) -> dict:
    """Experiments grouped by paper (the id's letter: A, B, C, D), in report order."""
    groups: dict = {}
    for exp_id, meta in metas.items():
        groups.setdefault(exp_id[0], {})[exp_id] = meta
    return groups


def _totals(metas: dict) -> tuple[int, dict]:
    claims = [c for m in metas.values() if m for c in m["claims"]]
    return len(claims), {v: sum(c["verdict"] == v for c in claims) for v in VERDICT_CLASS}


def _summary(metas: dict) -> str:
    n, totals = _totals(metas)
    return (
        f'<p class="summary"><span>{n} claims</span><span class="verdict holds">{totals["holds"]} hold</span>'
        f'<span class="verdict fails">{totals["fails"]} fail</span>'
        f'<span class="verdict nm">{totals["not measured"]} not measured</span></p>'
    )


def _scorecard(metas: dict) -> str:
    rows = []
    for exp_id, meta in metas.items():
        if meta is None:
            continue
        stand_in = " <span class='verdict nm'>stand-in data</span>" if meta.get("stand_ins") else ""
        for c in meta["claims"]:
            measured = "; ".join(f"{k} = {_format_value(v)}" for k, v in c["measured"].items())
            cls = VERDICT_CLASS.get(c["verdict"], "nm")
            rows.append(
                f"<tr><td>{html.escape(c['id'])}</td><td><a href='html/{exp_id}.html'>{html.escape(c['target'])}</a>{stand_in}</td>"
                f"<td>{html.escape(c['text'])}</td><td><span class='verdict {cls}'>{html.escape(c['verdict'])}</span></td>"
                f"<td class='measured'>{html.escape(measured)}</td></tr>"
            )
    return (
        "<table><thead><tr><th>id</th><th>target</th><th>claim</th><th>verdict</th><th>measured</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _paper_title(metas: dict) -> str:
    papers = [m["paper"] for m in metas.values() if m and m.get("paper")]
    return papers[0] if papers else "not run yet"


def build_index(metas: dict, reports: Path, scale: str = "default") -> str:
    """The front page: overall tallies, then per paper its cards and its claims scorecard."""
    sections = "".join(
        f'<section><h2>{letter}. {html.escape(_paper_title(group))}</h2>{_summary(group)}'
        f'<div class="cards">{"".join(_card(exp_id, meta, reports) for exp_id, meta in group.items())}</div>'
        f"<h3>Claims</h3>{_scorecard(group)}</section>"
        for letter, group in _groups(metas).items()
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>inferopt reports</title><style>{STYLE}</style></head>
<body><h1>inferopt: reproduction reports</h1>
<p class="sub">Executed notebooks of <code>dvc repro</code> at the <b>{html.escape(scale)}</b> scale
(<code>params.yaml</code>{'' if scale == 'default' else ' overlaid by <code>params_paper.yaml</code>'});
each card links to its full report, and each experiment's numbers are in <code>reports/results/&lt;id&gt;/</code>
and <code>reports/metrics/&lt;id&gt;.json</code>. Verdicts are computed in the notebooks from the measurements.</p>
<h2>All claims</h2>{_summary(metas)}
{sections}
</body></html>
"""


def build_reports(reports_dir: str = "reports") -> Path:
    """Render every executed notebook and write ``index.html``; return its path."""
    reports = repo_root() / reports_dir
    copy_mathjax(reports / "mathjax")
    metas: dict = {}
    for exp_id in experiments():
        metrics = reports / "metrics" / f"{exp_id}.json"
        notebook = reports / "notebooks" / f"{exp_id}.ipynb"
        metas[exp_id] = json.loads(metrics.read_text()) if metrics.exists() else None
        if notebook.exists():
            notebook_to_html(notebook, reports / "html" / f"{exp_id}.html", mathjax_rel="../mathjax")
    index = reports / "index.html"
    tmp = index.with_suffix(".tmp")
    scale = load_params().get("scale", "default")
    tmp.write_text(build_index(metas, reports, scale), encoding="utf-8")
    tmp.replace(index)
    return index
