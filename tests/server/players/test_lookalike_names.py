"""Look-alike and invisible names are refused (issue 39, "look-alike and invisible names";
D181): a name is NFKC, holds no invisible (default-ignorable) character and no long run of
combining marks, does not mix scripts beyond UTS #39's highly restrictive mixes, and does not
look like an existing account's name (its skeleton, from Unicode's confusables data, is
unique). Chinese, Latin and digits keep working; accounts made before keep their names. On
SQLite and PostgreSQL (``db_url``)."""

from __future__ import annotations

import pytest
from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text, create_engine, insert
from starlette.testclient import TestClient

from gouji.server.players.accounts import AccountError, account_name
from gouji.server.players.names import skeleton
from gouji.server.plumbing.db import engine_url
from support import LIGHT_HASHER

from ..accountutil import PASSWORD
from ..wsutil import fast_app

INVISIBLE = {
    "Hangul filler U+1160": "ab\u1160c",
    "Hangul filler U+3164": "ab\u3164c",
    "Khmer U+17B4": "ab\u17b4c",
    "combining grapheme joiner": "a\u034fbc",
    "Mongolian selector U+180B": "ab\u180bc",
    "Mongolian selector U+180F": "ab\u180fc",
    "zero-width joiner": "a\u200dbc",
    "19 combining marks": "ab" + "\u0301" * 19,
    "three marks on one letter": "ab\u0301\u0302\u0303",
}
MIXED = ["\u0430lice", "b\u03bfb", "\u0430\u0441e", "\u043eliver"]  # Cyrillic а/с/о, Greek ο


def _sign_up(client: TestClient, name: str) -> tuple[int, str]:
    r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    client.cookies.clear()
    return r.status_code, r.json().get("error", "")


@pytest.mark.parametrize("name", list(INVISIBLE.values()), ids=list(INVISIBLE))
def test_invisible_characters_and_piled_marks_are_refused(name: str) -> None:
    with pytest.raises(AccountError) as refused:
        account_name(name)
    assert refused.value.status == 400 and refused.value.code == "bad_name"


@pytest.mark.parametrize("name", MIXED)
def test_a_confusable_mix_of_scripts_is_refused(name: str) -> None:
    with pytest.raises(AccountError) as refused:
        account_name(name)
    assert refused.value.code == "bad_name" and "scripts" in refused.value.message


@pytest.mark.parametrize(
    "name",
    ["张三", "老王", "小明_2", "Li小明", "ann.smith", "Bob2", "Zoë", "Nguyễn", "김민수", "たなか"],
)
def test_the_players_own_names_are_names(name: str) -> None:
    assert account_name(name)[0] == name


def test_skeletons_tell_look_alikes() -> None:
    assert skeleton("alice") == skeleton("\u0430lice") == skeleton("AIice")
    assert skeleton("\u0430\u0441\u0435") == skeleton("ace")  # all Cyrillic: one script
    assert skeleton("Il") == skeleton("ll") and skeleton("rnary") == skeleton("mary")
    assert skeleton("张三") != skeleton("张王") and skeleton("老王") != skeleton("老玉")


def test_a_look_alike_of_an_account_s_name_is_refused(db_url: str) -> None:
    with TestClient(fast_app(db_url)) as client:
        for name in ("alice", "ace", "mary", "ll", "张三"):
            assert _sign_up(client, name) == (201, "")
        assert _sign_up(client, "ALICE") == (409, "name_taken")
        assert _sign_up(client, "ａｌｉｃｅ") == (409, "name_taken")  # NFKC
        assert _sign_up(client, "\u0430\u0441\u0435") == (409, "name_lookalike")  # Cyrillic
        assert _sign_up(client, "rnary") == (409, "name_lookalike")
        assert _sign_up(client, "Il") == (409, "name_lookalike")
        assert _sign_up(client, "\u0430lice") == (400, "bad_name")  # mixed scripts
        assert _sign_up(client, "a\u200dlice") == (400, "bad_name")  # invisible
        assert _sign_up(client, "\u0430dmin") == (400, "bad_name")  # reserved, looked at
        assert _sign_up(client, "张三丰") == (201, "") and _sign_up(client, "老王") == (201, "")
        assert _sign_up(client, "Bob_2") == (201, "")


def test_accounts_made_before_keep_their_names(db_url: str) -> None:
    """A database from before the skeletons: two look-alike names that exist stay, their
    players log in, and a new look-alike of either is refused."""
    old = MetaData()
    accounts = Table(
        "accounts",
        old,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("name", String(40), nullable=False),
        Column("name_key", String(40), nullable=False, unique=True),
        Column("password", Text, nullable=False),
        Column("created", Float, nullable=False),
    )
    engine = create_engine(engine_url(db_url))
    hashed = LIGHT_HASHER.hash(PASSWORD)
    with engine.begin() as conn:
        old.create_all(conn)
        for name in ("alice", "\u0430lice"):
            conn.execute(
                insert(accounts).values(
                    name=name, name_key=name.casefold(), password=hashed, created=0.0
                )
            )
    engine.dispose()
    with TestClient(fast_app(db_url)) as client:
        for name in ("alice", "\u0430lice"):
            r = client.post("/api/session", json={"name": name, "password": PASSWORD})
            assert r.status_code == 200 and r.json()["name"] == name
            assert client.get("/api/players/" + name).json()["name"] == name
        client.cookies.clear()
        assert _sign_up(client, "AIice") == (409, "name_lookalike")
        assert _sign_up(client, "bob") == (201, "")
    with TestClient(fast_app(db_url)) as client:  # a second start migrates nothing again
        assert _sign_up(client, "aIice") == (409, "name_lookalike")
