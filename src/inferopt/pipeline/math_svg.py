"""The formulas of a notebook's Markdown as inline SVG, so that a report reads offline without
MathJax (12 MB beside every report before).

Each ``$…$`` / ``$$…$$`` of a Markdown cell is typeset by matplotlib's mathtext (Computer Modern,
glyphs as paths: no font to load) and embedded as a ``data:`` image whose ``alt`` is the TeX.
Mathtext reads a subset of TeX: :func:`mathtext_tex` first rewrites the shorthands it lacks
(``\\mathcal N``, ``\\frac12``, ``\\tfrac``, ``\\|``, ``\\ge``); a formula it still cannot read
is shown as its TeX source in ``<code>``.
"""

from __future__ import annotations

import base64
import html
import io
import re
from functools import lru_cache

import matplotlib
from matplotlib.font_manager import FontProperties
from matplotlib.mathtext import math_to_image

#: ``$$display$$`` or ``$inline$`` (no space inside the delimiters, an escaped ``\$`` is no delimiter)
MATH = re.compile(r"(?<![\\$])\$\$(.+?)\$\$|(?<![\\$])\$(?!\s)([^$\n]+?)(?<![\s\\])\$", re.S)
#: the size formulas are typeset at, in points (the reports' text is about 14 px)
MATH_SIZE = 11


def mathtext_tex(tex: str) -> str:
    """``tex`` with the shorthands mathtext does not read written out: a one-letter argument
    braced (``\\mathcal N`` -> ``\\mathcal{N}``, ``\\frac12`` -> ``\\frac{1}{2}``), ``\\tfrac`` as
    ``\\frac``, ``\\|`` as ``\\Vert``, ``\\ge``/``\\le`` as ``\\geq``/``\\leq``."""
    tex = re.sub(r"\\(mathcal|mathbb|mathrm|mathbf|sqrt)\s*([A-Za-z0-9])", r"\\\1{\2}", tex)
    tex = re.sub(r"\\t?frac\s*([0-9A-Za-z])\s*([0-9A-Za-z])", r"\\frac{\1}{\2}", tex)
    tex = tex.replace("\\tfrac", "\\frac").replace("\\|", "\\Vert ")
    return re.sub(r"\\(ge|le)(?![a-z])", r"\\\1q", tex)


@lru_cache(maxsize=4096)
def formula_svg(tex: str) -> bytes | None:
    """The SVG of the formula ``tex`` (without its dollars), or None when mathtext cannot read it."""
    buf = io.BytesIO()
    try:
        with matplotlib.rc_context({"mathtext.fontset": "cm", "svg.fonttype": "path", "svg.hashsalt": "inferopt"}):
            math_to_image(f"${mathtext_tex(tex)}$", buf, prop=FontProperties(size=MATH_SIZE), format="svg")
    except (ValueError, RuntimeError):
        return None
    return buf.getvalue()


def formula_html(tex: str, display: bool = False) -> str:
    """One formula as an inline image (``display``: centred on its own line), else its TeX in ``<code>``."""
    svg = formula_svg(tex.strip())
    alt = html.escape(tex.strip(), quote=True).replace("$", "&#36;")
    if svg is None:
        return f"<code>&#36;{alt}&#36;</code>"
    uri = "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")
    return f'<img class="{"math display" if display else "math"}" alt="{alt}" src="{uri}">'


def markdown_with_formulas(source: str) -> str:
    """A Markdown cell's ``source`` with each formula replaced by :func:`formula_html`."""
    return MATH.sub(lambda m: formula_html(m.group(1), True) if m.group(1) is not None else formula_html(m.group(2)), source)


def text_with_formulas(text: str) -> str:
    """Plain ``text`` as HTML: escaped, each formula as :func:`formula_html` (a quote of a paper)."""
    out, i = [], 0
    for m in MATH.finditer(text):
        out += [html.escape(text[i:m.start()]),
                formula_html(m.group(1), True) if m.group(1) is not None else formula_html(m.group(2))]
        i = m.end()
    return "".join(out) + html.escape(text[i:])
