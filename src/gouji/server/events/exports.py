"""An event's exports for the association's secretary: an .xlsx workbook and CSV files that open
with a double click in Chinese Excel or WPS (docs/competitions.md, "Exports").

The rows and words are ``gouji.competition.export``'s; this module only writes them. CSVs start
with a UTF-8 byte-order mark, without which Chinese Excel reads UTF-8 as the local code page
(mojibake). Text that a spreadsheet would take for a formula (a team named ``=…``) stays text:
quoted in a CSV, a string cell in the workbook. The workbook is written in a worker thread from
rows taken on the event loop, so a large event neither blocks the server nor is read while it
changes.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Callable, Sequence

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gouji.competition import export
from gouji.competition.event import Event
from gouji.competition.export import Cell, ExportError, Sheet
from gouji.server.events.guard import guard
from gouji.server.events.live import LiveEvent
from gouji.server.events.service import Events
from gouji.server.plumbing.http import bad_request

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
BOM = "\ufeff"
_FORMULA = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may run as a formula
MIN_WIDTH, MAX_WIDTH = 6, 60


def lang_of(request: Request) -> str:
    """``?lang=zh`` (the default) or ``en``; anything else is a 400."""
    try:
        return export.check_lang(request.query_params.get("lang"))
    except ExportError as e:
        raise bad_request(str(e)) from None


def _safe(value: Cell) -> Cell:
    """A CSV cell: text that Excel would run as a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(_FORMULA):
        return "'" + value
    return value


def csv_text(sheet: Sheet) -> str:
    """A sheet as CSV: BOM, header row, rows; CRLF line ends as spreadsheets write them."""
    buf = io.StringIO()
    buf.write(BOM)
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow([_safe(h) for h in sheet.headers])
    writer.writerows([_safe(v) for v in row] for row in sheet.rows)
    return buf.getvalue()


def csv_response(sheet: Sheet, filename: str) -> Response:
    return Response(
        csv_text(sheet).encode("utf-8"),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )


def display_width(value: Cell) -> int:
    """Columns a value takes in a spreadsheet: a Chinese character is two."""
    text = "" if value is None else str(value)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def widths(sheet: Sheet) -> list[int]:
    """Each column as wide as its widest cell (header included), within bounds."""
    out = [display_width(h) for h in sheet.headers]
    for row in sheet.rows:
        for i, v in enumerate(row):
            if i < len(out):
                out[i] = max(out[i], display_width(v))
    return [min(MAX_WIDTH, max(MIN_WIDTH, w + 2)) for w in out]


def xlsx_bytes(sheets: Sequence[Sheet]) -> bytes:
    """The workbook: a worksheet per sheet, header row bold and frozen, columns wide enough
    for Chinese text, a filter on each header; every text a string cell, never a formula."""
    # openpyxl is imported here, not with the module: it is half of the server's import time
    # (0.36 s of 0.8 s), paid by every start of `gouji serve`, and only a workbook needs it
    from openpyxl import Workbook
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter

    wb = Workbook()
    bold = Font(bold=True)
    wrap = Alignment(vertical="top")
    first = True
    for sheet in sheets:
        ws = wb.active if first and wb.active is not None else wb.create_sheet()
        first = False
        ws.title = sheet.title
        table: list[Sequence[Cell]] = [sheet.headers, *sheet.rows]
        for r, row in enumerate(table, start=1):
            for c, value in enumerate(row, start=1):
                cell = ws.cell(row=r, column=c)
                if isinstance(value, str):
                    cell.value = ILLEGAL_CHARACTERS_RE.sub("", value)
                    cell.data_type = "s"  # "=…" stays text (openpyxl would make a formula)
                else:
                    cell.value = value
                if r == 1:
                    cell.font = bold
                    cell.alignment = wrap
        for c, width in enumerate(widths(sheet), start=1):
            ws.column_dimensions[get_column_letter(c)].width = width
        ws.freeze_panes = "A2"
        if sheet.rows and sheet.key != "event":
            ws.auto_filter.ref = f"A1:{get_column_letter(len(sheet.headers))}{len(sheet.rows) + 1}"
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def sheets_of(events: Events, live: LiveEvent, lang: str, with_log: bool = False) -> list[Sheet]:
    """Every sheet of the event as it is now (read on the event loop: one moment's state)."""
    return export.workbook(
        live.ev,
        lang,
        with_log=with_log,
        created=live.created,
        exported=events.hub.clock.time(),
    )


def routes(events: Events) -> list[Route]:
    """The exports: ``export.xlsx`` and three CSVs, anyone may read them; the workbook's
    audit-log sheet only for the organiser's key (as ``GET …/log``)."""

    async def workbook(request: Request) -> Response:
        live = events.find(request)
        lang = lang_of(request)
        with_log = "authorization" in request.headers
        if with_log:
            events.organiser(request, live)  # a key that is not the organiser's: 403
        sheets = sheets_of(events, live, lang, with_log)
        data = await run_in_threadpool(xlsx_bytes, sheets)
        name = f"gouji-{live.code}{'' if lang == 'zh' else '-en'}.xlsx"
        return Response(
            data,
            media_type=XLSX,
            headers={"content-disposition": f'attachment; filename="{name}"'},
        )

    def one(fn: str, build: Callable[[Event, str], Sheet]) -> Route:
        async def answer(request: Request) -> Response:
            live = events.find(request)
            sheet = build(live.ev, lang_of(request))
            return csv_response(sheet, f"gouji-{live.code}-{fn}")

        return Route(f"/api/events/{{code}}/{fn}", guard(events, answer))

    return [
        Route("/api/events/{code}/export.xlsx", guard(events, workbook)),
        one("standings.csv", export.standings),
        one("results.csv", export.games),
        one("matches.csv", export.matches),
    ]


__all__ = ["BOM", "XLSX", "csv_text", "lang_of", "routes", "xlsx_bytes"]
