"""Captioned result tables (inferopt.experiment.tables): an HTML table in the notebook and its
report, the whole frame unwrapped as plain text."""

from html.parser import HTMLParser

import nbformat
import numpy as np
import pandas as pd
import pytest
from IPython.core.formatters import DisplayFormatter

from inferopt.experiment.tables import paper_table
from inferopt.pipeline.render import notebook_to_html


class Cells(HTMLParser):
    """Rows of the first <table>: its caption, and per <tr> the text of its <th>/<td> cells."""

    def __init__(self):
        super().__init__()
        self.caption, self.rows, self.section, self.cell, self.tag = "", [], None, None, None

    def handle_starttag(self, tag, attrs):
        if tag in ("thead", "tbody"):
            self.section = tag
        elif tag == "tr":
            self.rows.append((self.section, []))
        elif tag in ("th", "td", "caption"):
            self.tag, self.cell = tag, ""

    def handle_endtag(self, tag):
        if tag == "caption":
            self.caption, self.cell = self.cell, None
        elif tag in ("th", "td") and self.cell is not None:
            self.rows[-1][1].append((tag, self.cell.strip()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def _cells(markup: str) -> Cells:
    parser = Cells()
    parser.feed(markup[markup.index("<table"):markup.index("</table>") + len("</table>")])
    return parser


# the shape of the boosting tables: method rows, "mean ± std" strings and ratios, and a pivot with
# two levels of columns (value, construction) and a float index, wider than any terminal
TABLE2 = pd.DataFrame({"Train LL": ["-0.6690 ± 5.39e-04", "-0.6760 ± 7.44e-04"], "Test AUROC": ["0.787 ± 4.60e-03", "0.788 ± 7.40e-03"],
                       "run time / predefined": [6.61, 1.0]}, index=pd.Index(["AdaAFW", "Predefined"], name="method"))
rng = np.random.default_rng(0)
PIVOT = pd.DataFrame(rng.normal(size=(4, 6)) * 1000, index=pd.Index([0.0, 0.001, 0.01, 0.2], name="gamma"),
                     columns=pd.MultiIndex.from_product([["elbo", "gain"], ["authors", "authors, 26733 rows", "ours"]],
                                                        names=[None, "construction"]))


def test_a_table_is_an_html_table_with_caption_header_and_one_row_per_entry():
    cells = _cells(paper_table(TABLE2, "Table 2: CHEMREACT & <friends>")._repr_html_())
    assert cells.caption == "Table 2: CHEMREACT & <friends>"
    head = [row for section, row in cells.rows if section == "thead"]
    body = [row for section, row in cells.rows if section == "tbody"]
    assert [text for _, text in head[0]] == ["", *TABLE2.columns]
    shown = [[text for _, text in row] for row in body]
    assert [row[:3] for row in shown] == [[i, *r[:2]] for i, r in zip(TABLE2.index, TABLE2.values.tolist())]
    assert [float(row[3]) for row in shown] == TABLE2["run time / predefined"].tolist()
    assert all(row[0][0] == "th" and {tag for tag, _ in row[1:]} == {"td"} for row in body)


def test_two_levels_of_columns_give_two_header_rows_and_digits_round_the_floats():
    cells = _cells(paper_table(PIVOT, "First step", digits=4)._repr_html_())
    head = [[text for _, text in row] for section, row in cells.rows if section == "thead"]
    assert head[0] == ["", "elbo", "gain"]                      # each spanning its three constructions
    assert head[1] == ["construction", *PIVOT.columns.get_level_values(1)] and head[2][0] == "gamma"
    body = [[text for _, text in row] for section, row in cells.rows if section == "tbody"]
    assert len(body) == len(PIVOT) and [row[0] for row in body] == ["0", "0.001", "0.01", "0.2"]   # the index too
    assert [float(x) for x in body[2][1:]] == pytest.approx(PIVOT.iloc[2].to_numpy(), rel=1e-3)
    assert all(len(x.replace("-", "").replace(".", "").lstrip("0")) <= 4 for x in body[2][1:])   # 4 significant digits


def test_the_plain_text_is_the_caption_over_the_whole_frame_unwrapped():
    text = repr(paper_table(PIVOT, "First step"))
    lines = text.splitlines()
    assert lines[0] == "First step"
    assert len(lines) == 1 + PIVOT.columns.nlevels + 1 + len(PIVOT)   # caption, header rows, index name, rows
    assert "\\" not in text and len(max(lines, key=len)) > 100            # one block, however wide


def test_in_the_report_it_is_a_table_not_preformatted_text(tmp_path):
    data, _ = DisplayFormatter().format(paper_table(TABLE2, "Table 2: CHEMREACT"))
    assert set(data) >= {"text/html", "text/plain"}
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("display(paper_table(format_table(summary), 'Table 2: CHEMREACT'))")
    cell.outputs = [nbformat.v4.new_output("display_data", data={k: data[k] for k in ("text/html", "text/plain")})]
    nb.cells = [cell]
    path = tmp_path / "t.ipynb"
    nbformat.write(nb, path)
    page = notebook_to_html(path, tmp_path / "t.html", root=tmp_path).read_text()
    cells = _cells(page[page.index('<table class="dataframe paper-table">'):])
    assert cells.caption == "Table 2: CHEMREACT" and len(cells.rows) == 2 + len(TABLE2)
    assert "-0.6690 ± 5.39e-04</td>" in page and "Table 2: CHEMREACT\n" not in page


@pytest.mark.parametrize(("args", "kwargs", "error", "named"), [
    ((TABLE2.to_dict(), "t"), {}, TypeError, "frame"),
    ((TABLE2, "  "), {}, ValueError, "caption"),
    ((TABLE2, "t"), {"digits": 0}, ValueError, "digits"),
    ((TABLE2, "t"), {"digits": True}, TypeError, "digits"),
])
def test_bad_input_is_refused_by_name(args, kwargs, error, named):
    with pytest.raises(error, match=named):
        paper_table(*args, **kwargs)
