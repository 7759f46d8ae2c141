"""Executed notebooks as self-contained HTML that reads offline, verdicts first.

nbconvert's ``lab`` template embeds output figures as base64; its script sources (require.js,
mermaid, MathJax) are emptied, so nothing is fetched: the formulas of the Markdown cells are
typeset here as inline SVG (:mod:`.math_svg`). The page opens with the experiment's verdicts
(the claims table), its figures (thumbnails linking to each figure in place) and a table of
contents of the notebook's headings; each code cell's source is folded (``<details>``) under
its outputs' heading.

Before rendering, outputs are cleaned for reading: the claims table a notebook prints is
replaced by one line pointing to the table at the top (:func:`claims_once`), the progress bars
the notebook wrote to stderr (their final states) are shown as plain output, not in the pink box
of an error stream (:func:`progress_apart`), and absolute paths of the build machine are made
relative (the executed notebook keeps its raw outputs).
"""

from __future__ import annotations

import base64
import html
import io
import os
import re
import sys
import sysconfig
from pathlib import Path

import nbformat
from jinja2 import DictLoader
from nbconvert import HTMLExporter

from ..experiment.claims import CLAIMS_CSS, claims_html as _claims_html, claims_text
from .layout import claims_again, split_claims_table
from .math_svg import markdown_with_formulas
from .review import plain_values
from .small_figures import data_uri, thumbnail

EMPTY_SCRIPT = "data:text/javascript,"
#: Any installed-packages folder (another venv, a conda env), shown as ``<site-packages>``.
SITE_PACKAGES = re.compile(r"/[^\s\"'<>]*?/(?:site|dist)-packages(?=/)")
#: A tqdm bar's final state: ``label: 100%|█████| 12/12 [00:03<00:00, 3.9it/s]``.
PROGRESS_LINE = re.compile(r"^[^\n]*\d+%\|[^|\n]*\|\s*[\d.]+[kMG]?/[\d.]+[kMG]?\s*\[[^\]\n]*\]\s*$")


def progress_apart(output):
    """A stderr stream output split into runs of lines, the progress-bar lines
    (:data:`PROGRESS_LINE`) as ``stdout`` streams, the rest (warnings, errors) kept on
    ``stderr``; a bar that cleared itself (``leave=False``: blanks and a carriage return) is left
    out, so no empty error box is left behind; any other output as it is."""
    if output.get("output_type") != "stream" or output.get("name") != "stderr":
        return [output]
    parts: list = []
    for line in output.get("text", "").splitlines(keepends=True):
        if line.endswith("\r") and not line.strip():
            continue
        name = "stdout" if PROGRESS_LINE.match(line.rstrip("\n").split("\r")[-1]) else "stderr"
        if parts and parts[-1][0] == name:
            parts[-1][1].append(line)
        else:
            parts.append((name, [line]))
    return [nbformat.v4.new_output("stream", name=name, text="".join(lines)) for name, lines in parts]


def machine_paths(root: Path) -> list[tuple[str, str]]:
    """``(absolute prefix, shown as)`` pairs of this machine, longest first: the installed
    packages, the Python prefix, the repository and the home folder."""
    pairs = {
        sysconfig.get_paths()["purelib"]: "<site-packages>",
        sys.prefix: "<python>",
        str(root): ".",
        os.path.expanduser("~"): "~",
    }
    return sorted(((k.rstrip(os.sep), v) for k, v in pairs.items() if len(k) > 1), key=lambda kv: -len(kv[0]))


def without_machine_paths(text: str, pairs: list[tuple[str, str]]) -> str:
    """``text`` with every absolute machine prefix of ``pairs`` replaced by its short name."""
    for prefix, name in pairs:
        text = text.replace(prefix, name)
    return SITE_PACKAGES.sub("<site-packages>", text)


def _clean(value, pairs):
    if isinstance(value, str):
        return without_machine_paths(value, pairs)
    if isinstance(value, list):
        return [_clean(v, pairs) for v in value]
    if isinstance(value, dict):
        return {k: (v if k.startswith("image/") else _clean(v, pairs)) for k, v in value.items()}
    return value


def claims_html(claims: list[dict]) -> str:
    """The claims table (:func:`inferopt.experiment.claims.claims_html`) with each claim's numbers in plain words:
    ``yes`` / ``no``, ``none`` and ``—`` for what a notebook recorded as ``True`` / ``False``, ``None`` and NaN
    (:func:`.review.plain_values`)."""
    return _claims_html([dict(c, measured=plain_values(c["measured"])) if c.get("measured") else c for c in claims])


def _claims_table(claims: list[dict], rows: list[str]):
    """Every claim as the HTML table, said so when the notebook printed it less some claims."""
    ids = [c["id"] for c in claims]
    left_out = [i for i in ids if i not in rows]
    note = (f"<p class='claims-note'>Every claim of this run (this cell prints the table less "
            f"{html.escape(', '.join(left_out))}).</p>") if left_out else ""
    return nbformat.v4.new_output("display_data", data={
        "text/html": f"<style>{CLAIMS_CSS}</style>{note}{claims_html(claims)}", "text/plain": claims_text(claims)})


def claims_once(outputs: list, claims: list[dict], shown: bool = False) -> tuple[list, bool]:
    """``(outputs, shown)``: one cell's ``outputs`` with the claims table shown once per notebook
    (``shown``: already shown by an earlier cell). The first printed claims table
    (:data:`.layout.CLAIMS_HEADER`, as ``Experiment.finish`` prints it, or a copy less some claims) becomes
    the HTML table of every claim; a later printed copy (the rows a notebook prints for nbval to
    compare) or a later displayed one becomes one line saying so (:func:`claims_again`). Text
    printed before or after a table stays."""
    ids, out = [c["id"] for c in claims], []
    for output in outputs:
        split = (split_claims_table(output.get("text", ""), ids)
                 if output.get("output_type") == "stream" and output.get("name") == "stdout" else None)
        displayed = "<table class='claims'>" in str((output.get("data") or {}).get("text/html", ""))
        if split is None and not (displayed and shown):  # not a claims table, or the first one displayed
            out.append(output)
            shown = shown or displayed
            continue
        before, rows, after = split or ("", ids, "")
        table = (nbformat.v4.new_output("stream", name="stdout", text=claims_again(rows, ids)) if shown
                 else _claims_table(claims, rows))
        shown = True
        out += [*([nbformat.v4.new_output("stream", name="stdout", text=before)] if before.strip() else []), table,
                *([nbformat.v4.new_output("stream", name="stdout", text=after)] if after.strip() else [])]
    return out, shown


def prepare_for_reading(nb, *, root: Path, claims: list[dict] | None = None, shown: bool = False):
    """Clean ``nb``'s outputs in place for the HTML report (see the module docstring); ``shown``:
    the claims table is already on the page (its top, :func:`top_of_page`), so every printed copy
    becomes one line. Markdown formulas become inline SVG (:func:`.math_svg.markdown_with_formulas`)."""
    pairs = machine_paths(root)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = markdown_with_formulas(cell.source)
            continue
        if cell.cell_type != "code":
            continue
        outputs = [part for output in cell.outputs for part in progress_apart(output)]
        if claims:
            outputs, shown = claims_once(outputs, claims, shown)
        cell.outputs = [nbformat.from_dict(_clean(dict(out), pairs)) for out in outputs]
    return nb


#: the ``lab`` template with each code cell's source folded, no script loaded, and the top of
#: the page (:func:`top_of_page`) after ``<main>``
TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block extra_css -%}<style>{{ resources.report_css }}</style>{%- endblock extra_css -%}
{%- block body_header -%}{{ super() }}{{ resources.top_of_page }}{%- endblock body_header -%}
{% block input_group -%}<details class="code"><summary>code</summary>{{ super() }}</details>{%- endblock input_group %}
"""
#: styles of the top of the page and of the folded code
REPORT_CSS = CLAIMS_CSS + """
nav.top{margin:1rem 0 2rem;padding:0 1rem} nav.top h2{margin:.8rem 0 .4rem}
nav.top .figures{display:flex;flex-wrap:wrap;gap:.6rem} nav.top .figures img{max-width:320px;border:1px solid #ddd}
nav.top ol{columns:2;font-size:.9rem} details.code>summary{cursor:pointer;color:#666;font-size:.8rem;margin:.2rem 0 .2rem 1rem}
img.math{vertical-align:middle} img.math.display{display:block;margin:.5rem auto}
"""
#: where the contents go in the top of the page, filled in from the rendered page (:func:`with_contents`)
CONTENTS = "<!-- contents -->"
#: a Markdown heading of levels 1-3 as nbconvert renders it: level, id (as the attribute holds it:
#: percent-encoded, formulas left out), the heading's HTML (formulas as SVG), then its anchor link
RENDERED_HEADING = re.compile(r'<h([1-3]) id="([^"]+)">(.*?)<a class="anchor-link" href="#[^"]*">[^<]*</a></h\1>', re.S)


def with_contents(body: str) -> str:
    """``body`` (a rendered report) with its contents at :data:`CONTENTS`: one link per Markdown
    heading to the id nbconvert gave it (a heading with a formula, a bracket or a non-ASCII letter
    has an id that its own text, re-encoded, does not reproduce), the formulas typeset as in place."""
    items = "".join(f"<li style='margin-left:{int(level) - 1}rem'><a href=\"#{anchor}\">{inner}</a></li>"
                    for level, anchor, inner in RENDERED_HEADING.findall(body))
    return body.replace(CONTENTS, f"<h2>Contents</h2><ol>{items}</ol>" if items else "", 1)


#: the most figures the top of a report shows as thumbnails
TOP_FIGURES = 6


def notebook_pngs(nb) -> list[bytes]:
    """The PNG figures of ``nb``'s outputs, in order."""
    return [base64.b64decode(o["data"]["image/png"]) for c in nb.cells if c.cell_type == "code"
            for o in c.get("outputs", []) if "image/png" in (o.get("data") or {})]


def top_of_page(nb, claims: list[dict] | None) -> str:
    """The verdicts (claims table), the figures (thumbnails of the first :data:`TOP_FIGURES`, each
    linking to it in place) and the place of the contents (:func:`with_contents`), as HTML."""
    parts = []
    if claims:
        parts.append(f"<h2>Verdicts</h2>{claims_html(claims)}")
    pngs = notebook_pngs(nb)[:TOP_FIGURES]
    if pngs:
        thumbs = "".join(f"<a href='#figure-{i}'><img alt='figure {i + 1}' src='{data_uri(thumbnail(io.BytesIO(p)))}'></a>"
                         for i, p in enumerate(pngs))
        parts.append(f"<h2>Figures</h2><div class='figures'>{thumbs}</div>")
    return f"<nav class='top'>{''.join(parts)}{CONTENTS}</nav>"


def _figure_anchors(body: str) -> str:
    """``id="figure-<i>"`` on the i-th embedded PNG output, the targets of the top's thumbnails."""
    count = iter(range(10 ** 6))
    return re.sub(r'<img (?=[^>]*src="data:image/png)', lambda m: f'<img id="figure-{next(count)}" ', body)


def notebook_to_html(notebook: Path, html_path: Path, *, root: Path | None = None, claims: list[dict] | None = None) -> Path:
    """Render ``notebook`` to ``html_path``: self-contained (images embedded, formulas as SVG, no
    script), its verdicts (``claims``), figures and contents first, code folded."""
    exporter = HTMLExporter(template_name="lab", embed_images=True, extra_loaders=[DictLoader({"report.html.j2": TEMPLATE})],
                            template_file="report.html.j2")
    exporter.require_js_url = exporter.mathjax_url = EMPTY_SCRIPT
    exporter.mermaid_js_url = exporter.mermaid_layout_elk_js_url = ""  # no diagrams: nothing to load
    nb = nbformat.read(notebook, as_version=4)
    top = top_of_page(nb, claims)
    nb = prepare_for_reading(nb, root=root or notebook.parent, claims=claims, shown=bool(claims))
    body, _ = exporter.from_notebook_node(nb, resources={"top_of_page": top, "report_css": REPORT_CSS})
    if not re.search(r"<nav class=[\"']top[\"']>", body):
        raise ValueError("nbconvert's lab template no longer has the block body_header: cannot put the verdicts first")
    html_path.parent.mkdir(parents=True, exist_ok=True)
    html_path.write_text(_figure_anchors(with_contents(body)), encoding="utf-8")
    return html_path
