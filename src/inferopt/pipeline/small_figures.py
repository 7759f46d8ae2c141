"""Small copies of figures: the front page's thumbnails, and the paper scale's figures kept small
enough to commit, so that a fresh clone shows the figures each paper-scale verdict rests on
without running the paper scale.

A paper-scale run (:func:`.paper.run_paper`) ends with :func:`keep_small_figures`: each figure
of the run's metrics JSON (``figures``), scaled down and reduced to a palette
(:func:`thumbnail`, at most :data:`MAX_BYTES`), into ``reports/paper/figures-small/<id>/``
(committed, like ``reports/paper/metrics/``). :func:`figure_block` shows them, or says that no
paper-scale figure is committed yet beside the default scale's figure, on the front page and
the review page.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path

from PIL import Image

#: the small copies of the paper scale's figures, under the paper scale's output folder
SMALL_DIR = "figures-small"
#: width in pixels of a thumbnail (shown at most ~400 px wide; twice that would be retina-sharp)
THUMB_WIDTH = 480
#: colours of a thumbnail's palette: line plots on white need few (64 looks as 256 does, a quarter smaller)
THUMB_COLORS = 64
#: the most bytes a committed small figure may take; a larger one is redrawn narrower
MAX_BYTES = 60_000
#: what a page says for an experiment without committed paper-scale figures
NOT_COMMITTED = "paper-scale figure not yet committed"


def thumbnail(png, width: int = THUMB_WIDTH) -> bytes:
    """``png`` (a path or a binary file) scaled down to ``width`` pixels wide (never up), as a PNG of :data:`THUMB_COLORS`
    palette colours: 10-30 kB where the figure is several hundred."""
    with Image.open(png) as img:
        img = img.convert("RGB")
        if img.width > width:
            img = img.resize((width, max(1, round(img.height * width / img.width))), Image.LANCZOS)
        buf = io.BytesIO()
        img.quantize(colors=THUMB_COLORS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(buf, "PNG", optimize=True)
        return buf.getvalue()


def small_copy(png: Path, max_bytes: int = MAX_BYTES) -> bytes:
    """:func:`thumbnail` of ``png`` at :data:`THUMB_WIDTH`, narrower by a quarter each time until it
    takes at most ``max_bytes``."""
    width = THUMB_WIDTH
    data = thumbnail(png, width)
    while len(data) > max_bytes and width > 120:
        width = width * 3 // 4
        data = thumbnail(png, width)
    return data


def data_uri(data: bytes) -> str:
    """A PNG as a ``data:`` URI, for pages that read offline."""
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def keep_small_figures(output_dir: Path, experiment_id: str, figures: list[str]) -> list[Path]:
    """Write the small copy (:func:`small_copy`) of each of ``figures`` (paths relative to
    ``output_dir``, as a metrics JSON lists them) to ``output_dir/figures-small/<id>/``, replacing
    what an earlier run left there; a listed figure that does not exist is a ``FileNotFoundError``.
    Returns the paths written."""
    folder = Path(output_dir) / SMALL_DIR / experiment_id
    sources = [Path(output_dir) / f for f in figures]
    missing = [str(p) for p in sources if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"the run of {experiment_id} lists figures it did not write: {missing}")
    if folder.exists():
        for old in folder.glob("*.png"):
            old.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for src in sources:
        dest = folder / f"{src.stem}.png"
        dest.write_bytes(small_copy(src))
        written.append(dest)
    return written


def small_figures(paper_dir: Path, experiment_id: str) -> list[Path]:
    """The committed small paper-scale figures of ``experiment_id``, sorted by name."""
    return sorted((Path(paper_dir) / SMALL_DIR / experiment_id).glob("*.png"))


def figure_block(paper_dir: Path, experiment_id: str, default_figures: list[Path] = (), *, first_only: bool = False,
                 fallback_scale: str = "default") -> str:
    """HTML of an experiment's figures: the paper-scale small copies when committed, else
    :data:`NOT_COMMITTED` and the figure of a run at ``fallback_scale`` (the first of
    ``default_figures`` that exists, as a thumbnail), each captioned with its scale.
    ``first_only``: one figure (a card)."""
    paper = small_figures(paper_dir, experiment_id)[: 1 if first_only else None]
    if paper:
        shown = [(p.read_bytes(), f"paper scale: {p.stem}") for p in paper]
        note = ""
    else:
        default = [p for p in default_figures if Path(p).is_file()][:1]
        shown = [(thumbnail(p), f"{fallback_scale} scale: {Path(p).stem}") for p in default]
        note = f"<p class='missing note'>{NOT_COMMITTED}</p>"
    figures = "".join(f"<figure><img alt='{html.escape(experiment_id)} {html.escape(cap)}' src='{data_uri(data)}'>"
                      f"<figcaption>{html.escape(cap)}</figcaption></figure>" for data, cap in shown)
    return f"{note}<div class='figures'>{figures}</div>"
