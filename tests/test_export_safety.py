"""Every CSV a seller downloads (results, fix-up file, error report) opens as inert text in a
spreadsheet whichever separator it splits on: no field under `,` `;` tab or `|` starts a formula.
"""

import csv
import io
import re

from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from core.batches.acceptance import accept_batch
from core.batches.verdicts import GOOD_SCORE_FROM
from core.catalogs.check import CatalogItem, check_catalog
from core.catalogs.report import error_report_csv
from core.downloads import download_bytes
from core.settings import Settings
from core.spreadsheet import csv_bytes
from tests.builders import draft
from tests.test_batch_operations import QUEUE, set_status, submit

LIVE_FORMULA = re.compile(r'[\s"]*[=+\-@＝＋－＠]')
DELIMITERS = (",", ";", "\t", "|")
PAYLOADS = [
    "x;=1+1", "x,=1+1", "x\t=1+1", "x|=1+1", "x\n=1+1", "x\r\n@SUM(A1)", "x; =1+1", 'x;"=1+1',
    'x";"=1+1', 'a"";""-2+3', "＝1+1", "a;＋1", "a；－1", "=HYPERLINK(\"http://x\")",
    "\t=1", "\r=1", " =1", "+cmd|' /C calc'!A0", "a\u3000;\u3000@x",
]


def fields(data: bytes) -> list[str]:
    """Every field a spreadsheet could see: the cells of the file parsed with each separator,
    and (whatever its quote tracking) every piece between separators and line breaks."""
    text = data.decode("utf-8-sig")
    parsed = [cell for delimiter in DELIMITERS
              for line in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
              for cell in line]
    pieces = [piece for delimiter in DELIMITERS for piece in re.split(f"[{delimiter}\r\n]", text)]
    return parsed + pieces


def live_formulas(data: bytes) -> list[str]:
    """Fields that start with a formula character once leading blanks and quotes are read past."""
    return [field for field in fields(data) if LIVE_FORMULA.match(field)]


def test_results_csv_defuses_formulas_after_any_separator(engine: Engine):
    listings = [CatalogItem(row, row + 1, payload, draft(title=payload, attributes={"note": payload}))
                for row, payload in enumerate(PAYLOADS, start=1)]
    batch_id = accept_batch(engine, QUEUE, owner="local", key="formulas", items=listings,
                            max_items=1000).batch_id
    data = download_bytes(engine, "local", batch_id, "csv")
    assert live_formulas(data) == []
    assert b'"x;\'=1+1"' in data


def test_every_text_cell_is_quoted_and_numbers_stay_numbers():
    data = csv_bytes(["name", "score"], [["plain", 7], ["x;y", 0.5]])
    assert data.decode("utf-8-sig").splitlines() == ['"name","score"', '"plain",7', '"x;y",0.5']


def test_defused_cells_read_back_as_the_text_with_a_quote_mark_before_each_formula():
    data = csv_bytes(["a"], [["x;=1+1"], ["line\n-2"], ["\tx"], ["a = b, c-d"]])
    cells = [row[0] for row in csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""))]
    assert cells == ["a", "x;'=1+1", "line\n'-2", "'\tx", "a = b, c-d"]


def test_fixup_file_defuses_formulas_after_any_separator(engine: Engine, settings: Settings):
    body = "item_id,title,description,category,price\n" + "".join(
        f'S-{number},"{payload.replace(chr(34), chr(34) * 2)}",Desc,"{payload.replace(chr(34), "")}",1\n'
        for number, payload in enumerate(PAYLOADS) if "\r" not in payload)
    batch_id = submit(engine, settings, "shop.csv", body)
    for position in range(1, body.count("\n")):
        set_status(engine, batch_id, position, "SUCCEEDED", score=GOOD_SCORE_FROM - 1)
    data = download_bytes(engine, "local", batch_id, "fixup")
    assert len(data.decode("utf-8-sig").split("\n")) > 5
    assert live_formulas(data) == []
    assert live_formulas(download_bytes(engine, "local", batch_id, "csv")) == []


def test_error_report_defuses_formulas_after_any_separator():
    data = b"item_id,title,description,category,price\n" + b"".join(
        b'"x;=1+1",,D,"a|@x",-1\n' for _ in range(3))
    report = error_report_csv(check_catalog(data, "x.csv", 10, 10_000).errors)
    assert "x;'=1+1" in report.decode("utf-8-sig")
    assert live_formulas(report) == []


@hypothesis_settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=',;\t|\r\n "\'=+-@＝＋－＠x1\u3000', max_size=12), min_size=1,
                max_size=4))
def test_no_text_can_start_a_formula_under_any_separator(cells: list[str]):
    assert live_formulas(csv_bytes(["a", "b", "c", "d"], [cells, list(reversed(cells))])) == []
