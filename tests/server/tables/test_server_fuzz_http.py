"""Fuzzing the server's HTTP endpoints with Hypothesis, in process through Starlette's
TestClient (loopback only): no answer is a 5xx, every error is the one body ``{"error": code,
"message": text}``, and the log holds no traceback and no ERROR record. What is fuzzed, and the
counts the default and the deep run reach: tests/server/tables/test_server_fuzz.py.
"""

import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from starlette.testclient import TestClient

from gouji.agents import names as agent_names
from gouji.engine.rules import KEYS, PRESETS
from gouji.server import create_app
from gouji.server.plumbing.http import MAX_BODY
from gouji.server.tables.hub import Hub
from gouji.server.tables.protocol import (
    parse_config,
)
from support import sized

from ..fuzzutil import (
    COUNTS,
    HTTP_EXAMPLES,
    HTTP_LIMITS,
    JSON,
    ODD_TEXT,
    SMALL_JSON,
    check_log,
    fuzz_settings,
    json_values,
    nested,
)
from ..wsutil import create_room, wait_for

pytestmark = pytest.mark.timeout(sized(60, 600))  # the deep run: four times the examples


# ------------------------------------------------------------------------------ HTTP fuzzing
@dataclass(frozen=True)
class Req:
    method: str
    url: str
    body: bytes | None = None
    headers: tuple[tuple[str, str], ...] = ()


PATH_ODD = (
    "²",
    "%00",
    "%",
    "%zz",
    "%2e%2e",
    "..",
    ".",
    "%2F",
    "%C0%AF",
    "%e2%82",
    "%ED%A0%80",
    "٣",
    "0",
    "00",
    "-1",
    "+1",
    " 1",
    "1.0",
    "999999999",
    "9999999999",
    "9" * 5000,
    "x" * 5000,
    "é" * 3000,
    "\ud800",
    "\x00",
    "ZZZZZZZZ",
    "~",
    "\\",
    "a b",
    "名字",
)


def _segment(extra: tuple[str, ...]) -> st.SearchStrategy[str]:
    """One path segment, percent-encoded (``%`` sometimes left as is: ``%00`` reaches the
    server as a NUL)."""
    raw = st.one_of(st.sampled_from(extra), st.sampled_from(PATH_ODD), st.text(max_size=30))
    safe = st.sampled_from(("", "%", "%:@!$&'()*+,;=~"))
    return st.builds(lambda s, keep: quote(s, safe=keep, errors="surrogatepass"), raw, safe)


def _get_requests(codes: tuple[str, ...]) -> st.SearchStrategy[Req]:
    code = _segment((*codes, *(c.lower() for c in codes)))
    index = _segment(("0", "0", "1", "00", "000000001", "999999999"))
    path = st.one_of(
        st.builds(lambda c: f"/api/rooms/{c}", code),
        st.builds(lambda c: f"/api/rooms/{c}/games", code),
        st.builds(lambda c, i: f"/api/rooms/{c}/games/{i}/record", code, index),
        st.builds(lambda c, i: f"/api/rooms/{c}/games/{i}/replay", code, index),
        st.builds(lambda c: f"/r/{c}", code),
        st.builds(lambda c, i: f"/replay/{c}/{i}", code, index),
        st.builds(
            lambda parts: "/static/" + "/".join(parts),
            st.lists(_segment(("js", "app.js", "index.html", "css", "a.b.c")), max_size=5),
        ),
        st.sampled_from(("/", "/healthz", "/ws", "/api", "/api/rooms", "/static", "/nope")),
    )
    query = st.one_of(st.just(""), st.builds(lambda s: "?" + s, _segment(("x=%00", "a=1&a=2"))))
    method = st.sampled_from(("GET",) * 8 + ("HEAD", "POST", "PUT", "DELETE", "OPTIONS"))
    return st.builds(lambda m, p, q, h: Req(m, p + q, None, h), method, path, query, GET_HEADERS)


GET_HEADERS = st.one_of(
    st.just(()),
    st.sampled_from(
        tuple(
            (("range", r),)
            for r in (
                "bytes=0-1",
                "bytes=5-2",
                "bytes=-0",
                "bytes=" + "9" * 5000 + "-",
                "bytes=99999999999999999999-",
                "bytes=0-0," + ",".join(["0-0"] * 500),
                "bytes=1-1,3-3",
                "items=0-1",
                "bytes=a-b",
                "bytes=",
            )
        )
    ),
    st.sampled_from(
        (
            (("if-range", "x"), ("range", "bytes=0-1")),
            (("if-none-match", "*"),),
            (("if-modified-since", "garbage"),),
            (("accept-encoding", "gzip;q=" + "9" * 5000),),
            (("cookie", "a=" + "%00" * 100),),
            (("host", "a" * 300 + ":99999"),),
        )
    ),
)
PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "preset": st.sampled_from((*PRESETS, "outline_full", " LAIWU ", "NOPE", "")),
    "overrides": st.dictionaries(
        st.one_of(st.sampled_from(KEYS), ODD_TEXT),
        st.one_of(
            json_values(4),
            st.sampled_from(
                ("true", "no", "3,4", "[]", "{}", "3:10,4:10", "std", "le10", "dian,luo")
            ),
            st.sampled_from(("9" * 4000, "9" * 5000, "1_000", "-1", "1e400", "nan", "[3,")),
        ),
        max_size=3,
    ),
    "bots": st.integers(-1, 7),
    "bot": st.sampled_from((*agent_names(), "nobody", "")),
    "timer_s": st.one_of(st.none(), st.floats(), st.integers(-1, 4000)),
    "count_visibility": st.sampled_from(("le10", "always", "hidden", "LE10", "x")),
    "card_counter": st.booleans(),
    "games": st.integers(-1, 1001),
    "bot_delay_ms": st.integers(-1, 60_001),
    "next_delay_ms": st.integers(-1, 600_001),
    "seed": st.integers(-1, 2**53 + 1),
}

BODY_ODD: tuple[bytes, ...] = (
    b"",
    b" " * MAX_BODY + b"{}",
    b" " * (MAX_BODY - 2) + b"{}",
    b"{" * 40_000,
    nested(50).encode(),
    b'{"overrides":' + nested(50).encode() + b"}",
    b'{"overrides":{"a":' * 3000 + b"1" + b"}" * 3001,
    b'{"seed":' + b"9" * 4300 + b"}",
    b'{"seed":' + b"9" * 4301 + b"}",
    b'{"games":-' + b"9" * 5000 + b"}",
    b'{"preset":"\\ud800"}',
    b'{"overrides":{"\\udfff":1}}',
    b'{"preset":"a\\u0000"}',
    b'{"preset":"a\x00"}',
    b'{"bot":"\xed\xa0\x80"}',
    b"\xff\xfe",
    b"null",
    b"[]",
    b'"x"',
    b"1",
    b"NaN",
    b'{"timer_s":NaN}',
    b'{"timer_s":Infinity}',
    b'{"timer_s":1e999}',
    b'{"timer_s":-0.0}',
    b'{"bots":6,"timer_s":null}',
    b'{"bots":true}',
    b'{"seed":1.5}',
    b'{"seed":"7"}',
    b'{"preset":"OUTLINE_FULL","preset":"NOPE"}',
    b'\xef\xbb\xbf{"bots":5}',
    '{"bots":5}'.encode("utf-16"),
    b'{"overrides":{"deck.remove":{"3":"x"}}}',
    b'{"overrides":{"deck.remove":"3:' + b"9" * 5000 + b'"}}',
    b'{"overrides":{"rev.gousiji":' + b"9" * 4000 + b"}}",
    b'{"overrides":{"sw.timeout_s":"1e400"}}',
    b'{"overrides":{"hui.options":[["3"]]}}',
    b'{"overrides":{"trib.order":{"a":1}}}',
    b'{"overrides":{"play.gouji_min":{"T":"5"}}}',
)
HEADERS = st.one_of(
    st.just(()),
    st.sampled_from(
        (
            (("content-type", "application/json"),),
            (("content-type", "text/plain; charset=latin-1"),),
            (("content-type", "multipart/form-data; boundary=x"),),
            (("content-length", "9" * 5000),),
            (("content-length", "99999999999999999999"),),
            (("content-length", "0"),),
            (("content-length", "-1"),),
            (("content-length", "abc"),),
            (("content-length", " 12"),),
            (("transfer-encoding", "chunked"),),
            (("content-encoding", "gzip"),),
        )
    ),
)


@st.composite
def _post_requests(draw: st.DrawFn) -> Req:
    kind = draw(st.sampled_from(("config",) * 4 + ("json", "raw", "odd", "odd")))
    body: bytes
    if kind == "config":
        value: Any = draw(st.fixed_dictionaries({}, optional=PLAUSIBLE))
        if draw(st.integers(0, 4)) == 0:
            value[draw(ODD_TEXT)] = draw(SMALL_JSON)
        text = json.dumps(value, ensure_ascii=draw(st.booleans()))
        body = text.encode("utf-8", "surrogatepass")
    elif kind == "json":
        text = json.dumps(draw(JSON), ensure_ascii=draw(st.booleans()))
        body = text.encode("utf-8", "surrogatepass")
    elif kind == "raw":
        body = draw(st.binary(max_size=200))
    else:
        body = draw(st.sampled_from(BODY_ODD))
    return Req("POST", "/api/rooms", body, draw(HEADERS))


#: requests sent in every run besides the drawn ones: what a run of fewer drawn requests can
#: miss (with these, the default run's 300 drawn requests reach every line and branch of
#: src/gouji that the 600 drawn in one run before it was sized did)
SURE_REQUESTS = (
    Req("GET", "/api/rooms"),  # the lobby's list
    Req("GET", "/static/js/app.js"),  # a file served
    Req("POST", "/api/rooms", b'{"preset":"NOPE"}'),  # R0.8: no such preset
    Req("POST", "/api/rooms", b'{"overrides":{"nope":1}}'),  # R0.8: no such key
    Req("POST", "/api/rooms", b'{"overrides":{"deck.remove":"{3: 2, 4:2}"}}'),  # a map as text
    Req("POST", "/api/rooms", b'{"overrides":{"deck.remove":"3:x"}}'),  # one not read
    Req("POST", "/api/rooms", b'{"next_delay_ms":600001}'),  # out of range
    Req("POST", "/api/rooms", b" " * MAX_BODY + b"{}"),  # too large, in every way it can be
    Req("POST", "/api/rooms", b"[" * (MAX_BODY + 1)),
    Req("POST", "/api/rooms", b"{}", (("content-length", "9" * 5000),)),
    Req("POST", "/api/rooms", b"{}", (("content-length", "99999999999999999999"),)),
    Req("POST", "/api/rooms", b" " * MAX_BODY + b"{}", (("transfer-encoding", "chunked"),)),
    Req("POST", "/api/rooms", b"{" * 40_000, (("content-type", "application/json"),)),
)


async def _finished_room(hub: Hub) -> str:
    """An all-bot room of one fast game, made on the machine itself (not bounded)."""
    config, seed = parse_config(
        {"bots": 6, "bot": "random", "bot_delay_ms": 0, "games": 1, "timer_s": None, "seed": 3}
    )
    return hub.create(config, seed, local=True).code


def test_fuzzed_http_requests_get_no_5xx_and_log_no_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    web = tmp_path / "web"
    (web / "js").mkdir(parents=True)
    for name in ("index.html", "table.html", "replay.html"):
        (web / name).write_text(f"<title>{name}</title>")
    (web / "js" / "app.js").write_text("let x = 1;")
    app = create_app(f"sqlite:///{tmp_path / 'http.db'}", web_dir=web, limits=HTTP_LIMITS)
    hub: Hub = app.state.hub
    client = TestClient(app, raise_server_exceptions=False)  # from afar
    before = COUNTS.copy()
    with client:
        assert client.portal is not None
        done = client.portal.call(_finished_room, hub)
        waiting = create_room(client)
        wait_for(lambda: hub.rooms[done].status == "over", 30)
        assert client.get(f"/api/rooms/{done}/games/0/replay").status_code == 200

        @fuzz_settings(HTTP_EXAMPLES)
        @given(req=st.one_of(_get_requests((done, waiting)), _post_requests()))
        def fuzz(req: Req) -> None:
            COUNTS["http"] += 1
            r = client.request(req.method, req.url, content=req.body, headers=dict(req.headers))
            about = f"{req.method} {ascii(req.url)[:300]} {ascii(req.body)[:200]}"
            about += f" {ascii(req.headers)[:200]}"
            assert r.status_code < 500, f"{about}: {r.status_code} {r.text[:300]}"
            COUNTS[f"status {r.status_code}"] += 1
            ranged = any(k == "range" for k, _ in req.headers)  # Starlette answers in text
            if r.status_code >= 400 and req.method != "HEAD" and not ranged:
                answer = r.json()
                assert isinstance(answer, dict) and isinstance(answer.get("message"), str), about
                assert re.fullmatch(r"[a-z]+(?:_[a-z]+)*", str(answer.get("error"))), about
            check_log(caplog, about)

        for req in SURE_REQUESTS:
            fuzz = example(req=req)(fuzz)
        fuzz()
    check_log(caplog, "the app stopped")
    sent = COUNTS - before
    assert sent["http"] >= HTTP_EXAMPLES * 9 // 10, sent
    # answers of every kind: pages and files, new rooms, records, bad bodies, no such thing,
    # wrong methods, bodies too large. The mix shifts with any change of the code: Hypothesis
    # also draws the literals of every loaded module of the project (9 to 21 bodies too large
    # seen for the same seed), so each kind needs a few answers, not a share
    assert all(sent[f"status {s}"] >= 5 for s in (200, 201, 400, 404, 405, 413)), sent
