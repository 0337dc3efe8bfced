"""The players' pages (issue 23, items 1–3) in Chromium against the real server: /account (sign
up, log out and in, a wrong password said in Chinese and in English, a new password, deleting
the account), the account links of the lobby's header, a player's 战绩 page after a rated game
against five bots played through the table page (the counts, the replay link, the rating chart
drawn as SVG), and the leaderboard over ratings written straight into the database (accounts
made through the API), provisional players marked — every visible text checked for words of
the other language and engine codes.

Set GOUJI_SCREENSHOTS=<dir> to keep the screenshots (zh and en, 1280x800 and 390x844).
"""

from __future__ import annotations

import random
import re
import time
import urllib.error
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, insert

from gouji.server.players.records import plays_table, ratings_table

from .webutil import (  # skips this module where Chromium or Playwright is missing
    DESKTOP,
    LATIN_ALLOWED,
    LATIN_WORD,
    PHONE,
    LiveServer,
    Page,
    Pages,
    api,
    drive,
    en_problems,
    expect,
    open_table,
    snap,
    visible_text,
    wait_game_over,
    wait_js,
    wait_seated,
)

PASSWORD = "correct horse"
NEW_PASSWORD = "battery staple"
#: What no page may show: preset codes, API words joined by '_', JavaScript leftovers.
ENGINE_CODE = re.compile(
    r"\b(?:OUTLINE_FULL|OUTLINE_CLASSIC|LAIWU|AUDIT|LIANG4|MATCH7|COMP2)\b|\b\w+_\w+\b"
    r"|\b(?:undefined|null|NaN|wrong_password|name_taken)\b|\[object"
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, Path]]:
    """A live server and its database file (the leaderboard's ratings are written there)."""
    db = tmp_path_factory.mktemp("players") / "gouji.db"
    server = LiveServer(db)
    server.start()
    yield server, db
    server.stop()


def forget_refusals(page: Page, pages: Pages, count: int) -> None:
    """Chromium logs each refused request (4xx) as a console error: drop the `count` the test
    asked for (and only those), so that any other error still fails the test. The logs come
    as events of the page: wait (at most 2 s) until `count` have come."""
    deadline = time.monotonic() + 2
    while sum(bool(re.search(r"status of 4\d\d", e)) for e in pages.errors) < count:
        if time.monotonic() > deadline:
            break
        page.wait_for_timeout(20)
    refused = [e for e in pages.errors if re.search(r"status of 4\d\d", e)]
    assert len(refused) == count, pages.errors
    for e in refused:
        pages.errors.remove(e)


def assert_words(page: Page, lang: str, names: tuple[str, ...] = ()) -> None:
    """Chinese: no Latin word but the brand and the switch; English: Chinese only as the
    game's terms (and 匿名玩家, said with its meaning); neither shows an engine code."""
    text = visible_text(page)
    for name in names:
        text = text.replace(name, "")
    codes = sorted({m.group(0) for m in ENGINE_CODE.finditer(text)})
    assert not codes, f"{page.url} ({lang}) shows {codes}"
    if lang == "zh":
        latin = sorted(set(LATIN_WORD.findall(text)) - LATIN_ALLOWED)
        assert not latin, f"{page.url} (zh) shows {latin}"
    else:
        lines = [x.replace("匿名玩家", "") for x in text.split("\n") if x.strip()]
        assert not en_problems(lines), f"{page.url} (en): {en_problems(lines)}"


def open_account(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/account")
    wait_js(page, "window.gouji && window.gouji.loaded")


def sign_up(page: Page, server: LiveServer, name: str, password: str = PASSWORD) -> None:
    """Sign up through the account page's form."""
    open_account(page, server)
    page.locator("#signup-name").fill(name)
    page.locator("#signup-password").fill(password)
    page.locator("#signup").click()
    expect(page.locator("#me-box #me-name")).to_have_text(name)


def log_in(page: Page, name: str, password: str) -> None:
    page.locator("#login-name").fill(name)
    page.locator("#login-password").fill(password)
    page.locator("#login").click()


def player_json(server: LiveServer, name: str) -> dict[str, Any]:
    out: dict[str, Any] = server.get_json("/api/players/" + urllib.parse.quote(name))
    return out


def test_sign_up_the_lobby_header_log_out_and_in(
    site: tuple[LiveServer, Path], pages: Pages, shots: Path
) -> None:
    server, _ = site
    page = pages.new(None, DESKTOP, "zh")
    page.goto(server.url + "/")
    expect(page.locator("#account-link")).to_have_text("登录 / 注册")
    expect(page.locator("#leaderboard-link")).to_have_attribute("href", "/leaderboard")
    snap(page, shots / "lobby-header-guest-zh.png", top=True)

    page.locator("#account-link").click()
    wait_js(page, "window.gouji && window.gouji.loaded")
    expect(page.locator("#guest-note")).to_contain_text("游客")
    expect(page.locator("#me-box")).to_be_hidden()
    assert_words(page, "zh")
    snap(page, shots / "account-guest-zh.png", top=True)

    # the page's own checks say what is wrong before asking the server
    page.locator("#signup-name").fill("张 三")
    page.locator("#signup-password").fill(PASSWORD)
    page.locator("#signup").click()
    expect(page.locator("#signup-error")).to_have_text(
        "名字只能用汉字、字母、数字和 _-·.，不能用「␣」。"
    )
    page.locator("#signup-name").fill("张三丰")
    page.locator("#signup-password").fill("short")
    page.locator("#signup").click()
    expect(page.locator("#signup-error")).to_have_text("密码要 8 到 128 个字符。")

    page.locator("#signup-password").fill(PASSWORD)
    page.locator("#signup").click()
    expect(page.locator("#me-box #me-name")).to_have_text("张三丰")
    expect(page.locator("#account-done")).to_have_text("注册成功，欢迎 张三丰！")
    expect(page.locator("#me-record")).to_have_attribute(
        "href", "/players/" + urllib.parse.quote("张三丰")
    )
    expect(page.locator("#account-name")).to_have_text("张三丰")
    assert_words(page, "zh", ("张三丰",))
    snap(page, shots / "account-me-zh.png", top=True)

    # the lobby's header: the name, linking to the player's page; the name field is the account's
    page.goto(server.url + "/")
    expect(page.locator("#account-name")).to_have_text("张三丰")
    expect(page.locator("#account-name")).to_have_attribute(
        "href", "/players/" + urllib.parse.quote("张三丰")
    )
    expect(page.locator("#name")).to_have_value("张三丰")
    expect(page.locator("#account-link")).to_have_count(0)
    snap(page, shots / "lobby-header-zh.png", top=True)
    page.locator("#lang").click()
    expect(page.locator("#leaderboard-link")).to_have_text("Leaderboard")
    snap(page, shots / "lobby-header-en.png", top=True)
    page.locator("#lang").click()
    expect(page.locator("#leaderboard-link")).to_have_text("排行榜")

    # log out; the name is taken now; a wrong password; log in again
    open_account(page, server)
    page.locator("#logout").click()
    expect(page.locator("#guest-box")).to_be_visible()
    expect(page.locator("#account-done")).to_have_text("已退出登录。")
    expect(page.locator("#account-name")).to_have_count(0)
    assert "gouji_account=1" not in page.evaluate("document.cookie")

    page.locator("#signup-name").fill("张三丰")
    page.locator("#signup-password").fill(PASSWORD)
    page.locator("#signup").click()
    expect(page.locator("#signup-error")).to_have_text("这个名字已经有人用了，换一个吧。")

    log_in(page, "张三丰", "not the password")
    expect(page.locator("#login-error")).to_have_text("名字或密码不对。")
    assert_words(page, "zh")
    snap(page, shots / "account-wrong-zh.png", top=True)
    forget_refusals(page, pages, 2)  # 409 name_taken, 401 wrong_password

    log_in(page, " 张三丰 ", PASSWORD)
    expect(page.locator("#me-box #me-name")).to_have_text("张三丰")
    expect(page.locator("#login-error")).to_have_text("")
    page.goto(server.url + "/")
    expect(page.locator("#account-name")).to_have_text("张三丰")


def test_wrong_password_in_english_a_new_password_and_deleting(
    site: tuple[LiveServer, Path], pages: Pages, shots: Path
) -> None:
    server, _ = site
    page = pages.new(None, PHONE, "en")
    sign_up(page, server, "LiWei")
    expect(page.locator("#account-done")).to_have_text("Welcome, LiWei! Your account is ready.")
    assert_words(page, "en", ("LiWei",))
    snap(page, shots / "account-me-en.png", top=True)

    # a new password: the current one must be right, the new one long enough
    page.locator("#old-password").fill("not the password")
    page.locator("#new-password").fill(NEW_PASSWORD)
    page.locator("#change").click()
    expect(page.locator("#password-error")).to_have_text("Wrong password.")
    page.locator("#old-password").fill(PASSWORD)
    page.locator("#new-password").fill("short")
    page.locator("#change").click()
    expect(page.locator("#password-error")).to_have_text("A password has 8 to 128 characters.")
    page.locator("#new-password").fill(NEW_PASSWORD)
    page.locator("#change").click()
    expect(page.locator("#password-error")).to_have_text(
        "Password changed. You are logged out on your other devices."
    )

    # the old password no more, the new one yes (the words follow the language switch)
    page.locator("#logout").click()
    expect(page.locator("#account-done")).to_have_text("Logged out.")
    log_in(page, "liwei", PASSWORD)
    expect(page.locator("#login-error")).to_have_text("Wrong name or password.")
    assert_words(page, "en")
    snap(page, shots / "account-wrong-en.png", top=True)
    page.locator("#lang").click()
    expect(page.locator("#login-error")).to_have_text("名字或密码不对。")
    page.locator("#lang").click()
    expect(page.locator("#login-error")).to_have_text("Wrong name or password.")
    log_in(page, "liwei", NEW_PASSWORD)
    expect(page.locator("#me-box #me-name")).to_have_text("LiWei")
    forget_refusals(page, pages, 2)  # 403 on the password change, 401 on the log-in

    # deleting: said to keep the games under 匿名玩家, confirmed with the password
    expect(page.locator("#delete-panel")).to_contain_text("匿名玩家")
    page.locator("#delete-password").fill(PASSWORD)
    page.locator("#delete").click()
    expect(page.locator("#delete-error")).to_have_text("Wrong password.")
    page.locator("#delete-password").fill(NEW_PASSWORD)
    page.locator("#delete").click()
    expect(page.locator("#guest-box")).to_be_visible()
    expect(page.locator("#account-done")).to_contain_text("Account deleted.")
    assert "gouji_account=1" not in page.evaluate("document.cookie")
    forget_refusals(page, pages, 1)
    with pytest.raises(urllib.error.HTTPError) as gone:
        player_json(server, "LiWei")
    assert gone.value.code == 404

    # the page of a player who is not there says so
    page.goto(server.url + "/players/LiWei")
    expect(page.locator("#no-player")).to_contain_text("No such player")
    assert_words(page, "en", ("LiWei",))
    page.locator("#lang").click()
    expect(page.locator("#no-player h2")).to_have_text("没有这个玩家")
    forget_refusals(page, pages, 1)


def test_a_players_page_after_a_rated_game(
    site: tuple[LiveServer, Path], pages: Pages, shots: Path
) -> None:
    server, _ = site
    page = pages.new(None, DESKTOP, "zh")
    sign_up(page, server, "王五")
    code = server.create_room(
        rated=True, bots=5, bot="expert", games=1, bot_delay_ms=0, timer_s=600
    )
    open_table(page, server, code)
    seat = wait_seated(page, server, code, "王五")
    page.locator("#start").click()
    expect(page.locator("#hand .card").first).to_be_visible()
    # a tap on an account's name at the table offers its record; a bot's name offers nothing
    page.locator(f'#felt .seat[data-seat="{seat}"] .seat-name').click()
    offered = page.locator("#say-menu a.say-record")
    expect(offered).to_have_attribute("href", "/players/" + urllib.parse.quote("王五"))
    expect(offered).to_have_text("王五的战绩")
    page.keyboard.press("Escape")
    page.locator(f'#felt .seat[data-seat="{(seat + 1) % 6}"] .seat-name').click()
    expect(page.locator("#say-menu")).to_be_hidden()
    drive(page, own=True)  # a rated table gives no hints (D198): the player decides each turn
    wait_game_over(page, 90)

    deadline = time.monotonic() + 10
    while (record := player_json(server, "王五"))["games"] < 1:
        assert time.monotonic() < deadline, "the game was not recorded"
        time.sleep(0.05)
    (mine,) = record["recent"]
    assert (mine["room"], mine["game"], mine["seat"], mine["rated"]) == (code, 0, seat + 1, True)
    rating = record["presets"][0]["rating"]
    assert rating["games"] == 1 and rating["provisional"] and len(rating["history"]) == 1

    page.goto(server.url + "/players/" + urllib.parse.quote("王五"))
    wait_js(page, "window.gouji && window.gouji.done")
    expect(page.locator("#player-name")).to_have_text("王五")
    panel = page.locator('.preset-panel[data-preset="OUTLINE_FULL"]')
    expect(panel.locator("h2")).to_contain_text("大纲·全套")
    counts = panel.locator(".place-count").all_text_contents()
    assert counts == ["1" if p == mine["place"] else "0" for p in range(1, 7)]
    word = {1: "1 胜 · 0 平 · 0 负", 0: "0 胜 · 1 平 · 0 负", -1: "0 胜 · 0 平 · 1 负"}[
        mine["outcome"]
    ]
    expect(panel.locator(".facts")).to_contain_text(word)
    expect(panel.locator(".rating-value")).to_have_text(f"积分 {rating['ordinal']:.1f}")
    expect(panel.locator(".tag.provisional")).to_have_text("定级中")
    expect(panel.locator(".rating-range")).to_contain_text(
        f"{rating['mu']:.1f} ± {3 * rating['sigma']:.1f}"
    )
    # the chart: from the new player's 0 to the rating after the game
    d = panel.locator("svg.rating-chart path").get_attribute("d") or ""
    assert re.fullmatch(r"M[\d.]+ [\d.]+ L[\d.]+ [\d.]+", d), d
    link = page.locator("#recent .replay-link")
    expect(link).to_have_attribute("href", f"/replay/{code}/0")
    expect(page.locator("#recent tbody tr")).to_have_count(1)
    expect(page.locator("#recent .tag.rated")).to_have_text("排位")
    assert_words(page, "zh", ("王五",))
    snap(page, shots / "player-one-game-zh.png", top=True)

    page.locator("#lang").click()
    expect(panel.locator(".rating-value")).to_have_text(f"Rating {rating['ordinal']:.1f}")
    expect(panel.locator(".tag.provisional")).to_have_text("provisional")
    assert_words(page, "en", ("王五",))
    snap(page, shots / "player-one-game-en.png", top=True)

    link.click()  # the replay of that game
    page.wait_for_url(f"**/replay/{code}/0")
    expect(page.locator("#replay-title")).not_to_be_empty()


#: The leaderboard's players: name, games and (mu, sigma) under OUTLINE_FULL; 小周 has too few
#: games to be listed, 阿May plays LAIWU too.
BOARD = [
    ("老刘", 30, 27.4, 1.1),
    ("小马", 6, 28.0, 3.0),
    ("阿May", 22, 25.0, 1.4),
    ("赵六", 12, 24.5, 2.2),
    ("钱七", 55, 23.0, 0.9),
    ("小周", 4, 30.0, 3.5),
]


def fill_ratings(server: LiveServer, db: Path) -> dict[str, int]:
    """Accounts through the API; their ratings, and 老刘's rated games (for a chart with a
    history), written into the database as the records would have written them."""
    ids = {
        name: int(api(server, "POST", "/api/accounts", {"name": name, "password": PASSWORD})["id"])
        for name, *_ in BOARD
    }
    engine = create_engine(f"sqlite:///{db}")
    now = time.time()
    rnd = random.Random(23)
    with engine.begin() as conn:
        for name, games, mu, sigma in BOARD:
            conn.execute(
                insert(ratings_table).values(
                    account=ids[name],
                    preset="OUTLINE_FULL",
                    mu=mu,
                    sigma=sigma,
                    games=games,
                    updated=now,
                )
            )
        conn.execute(
            insert(ratings_table).values(
                account=ids["阿May"], preset="LAIWU", mu=26.0, sigma=2.5, games=8, updated=now
            )
        )
        mu, sigma = 25.0, 25 / 3
        for i in range(30):  # 老刘: 30 rated games, the rating climbing towards (27.4, 1.1)
            place = rnd.choice([1, 1, 2, 2, 3, 4, 5, 6])
            outcome = 1 if place <= 2 else rnd.choice([-1, 0, 1])
            mu += (27.4 - mu) * 0.2 + rnd.uniform(-0.6, 0.6)
            sigma += (1.1 - sigma) * 0.15
            if i == 29:
                mu, sigma = 27.4, 1.1  # the last game's rating is the one kept
            facts = {
                "place": place,
                "outcome": outcome,
                "points": outcome * 2 + 2,
                "opened": rnd.random() < 0.7,
                "burns": rnd.choice([0, 0, 1]),
                "burned": rnd.choice([0, 0, 0, 1]),
                "men": rnd.random() < 0.05,
                "chuan": rnd.choice([0] * 12 + [1, -1]),
            }
            conn.execute(
                insert(plays_table).values(
                    account=ids["老刘"],
                    guest=None,
                    name="老刘",
                    room="SEEDED",
                    game=i,
                    seat=i % 6,
                    preset="OUTLINE_FULL",
                    rated=True,
                    mu=mu,
                    sigma=sigma,
                    finished=now - (30 - i) * 3600,
                    **facts,
                )
            )
    engine.dispose()
    return ids


def test_the_leaderboard_and_a_players_history(
    site: tuple[LiveServer, Path], pages: Pages, shots: Path
) -> None:
    server, db = site
    fill_ratings(server, db)
    listed = sorted((b for b in BOARD if b[1] >= 5), key=lambda b: -(b[2] - 3 * b[3]))
    answer = server.get_json("/api/leaderboard?preset=OUTLINE_FULL")
    assert [p["name"] for p in answer["players"]] == [b[0] for b in listed]
    names = tuple(b[0] for b in BOARD)

    page = pages.new(None, DESKTOP, "zh")
    page.goto(server.url + "/leaderboard")
    wait_js(page, "window.gouji && window.gouji.board")
    expect(page.locator("#preset")).to_have_value("OUTLINE_FULL")
    rows = page.locator("#board tbody tr")
    expect(rows).to_have_count(len(listed))
    assert page.locator("#board td.name a").all_text_contents() == [b[0] for b in listed]
    for k, (name, games, mu, sigma) in enumerate(listed):
        row = rows.nth(k)
        expect(row.locator("td.rank")).to_have_text(str(k + 1))
        expect(row.locator("td.rating")).to_have_text(f"{mu - 3 * sigma:.1f}")
        expect(row.locator("td.name a")).to_have_attribute(
            "href", "/players/" + urllib.parse.quote(name)
        )
        expect(row.locator(".tag.provisional")).to_have_count(1 if games < 20 else 0)
    expect(page.locator("#board-rule")).to_contain_text("至少 5 局排位才上榜")
    expect(page.locator("#board-rule")).to_contain_text("不到 20 局的标「定级中」")
    assert_words(page, "zh", names)
    snap(page, shots / "leaderboard-zh.png", top=True)

    # another rule set; one nobody plays; the choice in the address
    page.locator("#preset").select_option("LAIWU")
    expect(page.locator("#board td.name a")).to_have_text(["阿May"])
    page.locator("#preset").select_option("COMP2")
    expect(page.locator("#board-empty")).to_have_text(
        "这个规则还没有人上榜。在排位房间里打满 5 局，就会出现在这里。"
    )
    assert page.url.endswith("?preset=COMP2")
    page.goto(server.url + "/leaderboard?preset=LAIWU")
    expect(page.locator("#preset")).to_have_value("LAIWU")
    expect(page.locator("#board td.name a")).to_have_text(["阿May"])

    en = pages.new(None, PHONE, "en")
    en.goto(server.url + "/leaderboard")
    wait_js(en, "window.gouji && window.gouji.board")
    expect(en.locator("#board .tag.provisional").first).to_have_text("provisional")
    expect(en.locator("#board-rule")).to_contain_text("at least 5 rated games")
    assert_words(en, "en", names)
    snap(en, shots / "leaderboard-en.png", top=True)

    # a player with a history: 30 rated games from the start, drawn as 31 points
    en.locator("#board td.name a", has_text="老刘").click()
    wait_js(en, "window.gouji && window.gouji.done")
    panel = en.locator('.preset-panel[data-preset="OUTLINE_FULL"]')
    d = panel.locator("svg.rating-chart path").get_attribute("d") or ""
    assert d.count("L") == 30, d
    expect(panel.locator(".rating-value")).to_have_text(f"Rating {27.4 - 3 * 1.1:.1f}")
    expect(panel.locator(".tag.provisional")).to_have_count(0)
    expect(panel.locator(".place-count")).to_have_count(6)
    total = sum(int(n) for n in panel.locator(".place-count").all_text_contents())
    assert total == 30
    expect(en.locator("#recent tbody tr")).to_have_count(20)  # the latest 20
    assert_words(en, "en", names)
    snap(en, shots / "player-history-en.png", top=True)
    en.locator("#lang").click()
    expect(panel.locator(".rating-value")).to_have_text(f"积分 {27.4 - 3 * 1.1:.1f}")
    assert_words(en, "zh", names)
    snap(en, shots / "player-history-zh.png", top=True)
