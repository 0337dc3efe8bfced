"""Helpers of the browser tests: the real server in-process and Debian's Chromium driven by
Playwright. Importing this skips the importing test module where Chromium or Playwright is
missing (CI installs Chromium)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Protocol

import pytest

CHROMIUM = shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip(
        "browser tests need Debian's Chromium on PATH (apt-get install chromium)",
        allow_module_level=True,
    )
pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")
pytest.importorskip("uvicorn", reason="browser tests need the server's dependencies")

import uvicorn  # noqa: E402
from playwright.sync_api import (  # noqa: E402
    Browser,
    BrowserContext,
    Page,
    ViewportSize,
    expect,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

from gouji.server import create_app  # noqa: E402
from gouji.server.plumbing.clock import SYSTEM, Clock  # noqa: E402
from gouji.server.plumbing.limits import Limits  # noqa: E402
from support import LIGHT_HASHER, free_port  # noqa: E402

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


# Everything a reader sees on a page: its text, every option of every select (closed ones
# too), placeholders, the title. In Chinese every Latin word of two letters or more is an
# untranslated English word, except the brand's transcription and the language switch's name
# (cards are J, Q, K, A alone).
VISIBLE_TEXT = """() => [
  document.title,
  document.body.innerText,
  ...[...document.querySelectorAll("option")].map((o) => o.textContent),
  ...[...document.querySelectorAll("[placeholder]")].map((e) => e.placeholder),
].join("\\n")"""
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
LATIN_ALLOWED = {"Gouji", "English"}


def visible_text(page: Page) -> str:
    """What a person reads on ``page`` (``VISIBLE_TEXT``), as one string."""
    text: str = page.evaluate(VISIBLE_TEXT)
    return text


class LiveServer:
    """The gouji server on a loopback port, in a background thread."""

    def __init__(self, db: Path, clock: Clock = SYSTEM, limits: Limits | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.clock = clock  # the server's table time (a FastClock plays minutes in seconds)
        app = create_app(
            f"sqlite:///{db}", clock=clock, limits=limits, password_hasher=LIGHT_HASHER
        )
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="gouji-server", daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the gouji server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def create_room(self, **body: Any) -> str:
        """POST /api/rooms; returns the room code."""
        req = urllib.request.Request(
            self.url + "/api/rooms",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            code: str = json.load(r)["code"]
        return code

    def get_json(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.load(r)


def api(
    server: LiveServer, method: str, path: str, body: Any = None, key: str | None = None
) -> Any:
    """A JSON call on the server's API (with an organiser's or referee's key): what the
    browser tests set up without clicking through a page."""
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(server.url + path, data=data, headers=headers, method=method)
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


class WorkerChromium:
    """One Playwright and one Chromium for all the browser modules of a pytest worker: starting
    them costs seconds, and a worker meets the browser modules many times over (xdist hands it
    tests of every module in turn).

    Between its calls Playwright's sync API marks its event loop as running in this thread, so
    that ``asyncio.run`` refuses to start there; the worker's other tests need that mark off.
    A browser module takes the mark (``use``) and puts it back (``rest``)."""

    def __init__(self) -> None:
        assert CHROMIUM is not None
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        self.contexts = ContextPool(self.browser)
        self.loop = asyncio.get_running_loop()  # Playwright's, marked running between calls
        self.rest()

    def use(self) -> Browser:
        """The browser, with Playwright's loop marked running again (as its calls expect)."""
        running = asyncio._get_running_loop()
        assert running in (None, self.loop), f"another event loop runs in this thread: {running}"
        asyncio._set_running_loop(self.loop)
        return self.browser

    def rest(self) -> None:
        """Take Playwright's mark off, so that the worker's other tests may run event loops."""
        assert asyncio._get_running_loop() is self.loop
        asyncio._set_running_loop(None)

    def close(self) -> None:
        self.use()
        self.browser.close()
        self.playwright.stop()


def _set_once(key: str, value: str) -> str:
    k, v = json.dumps(key), json.dumps(value)
    return f"if (!localStorage.getItem({k})) localStorage.setItem({k}, {v});"


def _origin(url: str) -> str | None:
    """scheme://host:port of an http(s) address, else None (about:blank, data:…)."""
    match = re.match(r"https?://[^/]+", url)
    return match.group(0) if match else None


# True where the page's timers are Playwright's fake ones (its clock was installed).
_FAKE_CLOCK = "() => !String(setTimeout).includes('[native code]')"


class ContextPool:
    """Browser contexts kept warm from one test to the next, `KEPT` of each kind (viewport,
    motion). A page costs about twice the CPU in a fresh context: Chromium starts a renderer
    process for it, where in a kept context it joins the process of the context's keeper, a
    page left on a quiet document of the server's site. A context goes back as good as new or
    not at all: its other pages closed, the storage of the origin each of them was on at the
    end cleared (a test's pages stay on its server's); one whose clock a test installed (it
    cannot be uninstalled) or whose page does not answer is closed instead."""

    KEPT = 2

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.idle: dict[tuple[int, int, bool], list[BrowserContext]] = {}
        self.keepers: dict[BrowserContext, Page] = {}

    def take(self, viewport: ViewportSize, reduced_motion: bool) -> BrowserContext:
        idle = self.idle.setdefault((viewport["width"], viewport["height"], reduced_motion), [])
        if idle:
            return idle.pop()
        return self.browser.new_context(
            viewport=viewport,
            locale="en-US",
            reduced_motion="reduce" if reduced_motion else "no-preference",
            service_workers="block",  # see Pages.new
        )

    def give_back(self, ctx: BrowserContext, viewport: ViewportSize, reduced_motion: bool) -> None:
        try:
            self._keep(ctx, viewport, reduced_motion)
        except PlaywrightError:  # a page that does not answer (a test failed): not kept
            self.keepers.pop(ctx, None)
            with contextlib.suppress(PlaywrightError):
                ctx.close()

    def _keep(self, ctx: BrowserContext, viewport: ViewportSize, reduced_motion: bool) -> None:
        idle = self.idle.setdefault((viewport["width"], viewport["height"], reduced_motion), [])
        keeper = self.keepers.pop(ctx, None)
        pages = [p for p in ctx.pages if p is not keeper]
        origins = {o for o in (_origin(p.url) for p in pages) if o}
        if len(idle) >= self.KEPT or not (keeper or origins) or any(_fake(p) for p in pages):
            ctx.close()
            return
        if keeper is None:  # the test's page becomes the keeper, on a quiet page of its site
            keeper = next(p for p in pages if _origin(p.url))
            pages.remove(keeper)
            keeper.goto(f"{_origin(keeper.url)}/static/css/style.css")
        for page in pages:
            page.close()
        cdp = ctx.new_cdp_session(keeper)
        for origin in origins:
            cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        cdp.detach()
        self.keepers[ctx] = keeper
        idle.append(ctx)


def _fake(page: Page) -> bool:
    """Whether the page runs on a fake clock (a closed or crashed page counts as one)."""
    try:
        fake: bool = page.evaluate(_FAKE_CLOCK)
    except PlaywrightError:
        return True
    return fake


class Pages:
    """The pages of one test, each in a browser context of its own (one per player), given
    back to `pool` (or closed) at its end; JS errors fail the test."""

    def __init__(self, browser: Browser, pool: ContextPool | None = None) -> None:
        self.browser = browser
        self.pool = pool
        self.contexts: list[tuple[BrowserContext, ViewportSize, bool]] = []
        self.own: set[BrowserContext] = set()  # closed at the end, never pooled
        self.errors: list[str] = []
        self.closing = False  # what the pages say from now on is no test's (a keeper's load)

    def new(
        self,
        name: str | None,
        viewport: ViewportSize = DESKTOP,
        lang: str = "en",
        reduced_motion: bool = False,
        service_workers: bool = False,
    ) -> Page:
        """A page for player ``name``. Its site's service worker runs only with
        ``service_workers`` (in a context of its own): a first visit's worker fetches every
        file of the client (docs/decisions.md D99), load that would slow every other test's
        pages; test_table_social tests the worker."""
        if self.pool is not None and not service_workers:
            ctx = self.pool.take(viewport, reduced_motion)
        else:
            ctx = self.browser.new_context(
                viewport=viewport,
                locale="en-US",
                reduced_motion="reduce" if reduced_motion else "no-preference",
                service_workers="allow" if service_workers else "block",
            )
            self.own.add(ctx)
        self.contexts.append((ctx, viewport, reduced_motion))
        page = ctx.new_page()
        # `lang` unless the page switched; the name as the lobby would have stored it
        script = _set_once("gouji.lang", lang)
        if name is not None:
            script += _set_once("gouji.name", name)
        page.add_init_script(script)
        page.on("pageerror", lambda e: self.error(f"{name}: {e}"))
        page.on("console", lambda m: self.error(f"{name}: {m.text}") if m.type == "error" else None)
        page.set_default_timeout(10_000)
        return page

    def error(self, text: str) -> None:
        if not self.closing:
            self.errors.append(text)

    def close(self) -> None:
        for ctx, _, _ in self.contexts:  # a call to every page: what it said is delivered
            for page in ctx.pages:
                with contextlib.suppress(PlaywrightError):
                    page.title()
        self.closing = True
        for ctx, viewport, reduced_motion in self.contexts:
            if self.pool is not None and ctx not in self.own:
                self.pool.give_back(ctx, viewport, reduced_motion)
            else:
                ctx.close()


# The human seat of a test plays like the room's bots: it asks for the hint (the heuristic bot's
# choice, deterministic) and plays it, so a seeded room goes as an in-process simulation of
# heuristic bots says. It waits at the first decision of each phase named in `stopAt` until
# `resume()` (or until the test answers itself). With `sample`, every line of the page's text
# is kept after each message.
DRIVER_JS = r"""
(opts) => {
  const g = window.gouji, S = g.state;
  const d = {stopAt: new Set(opts.stopAt || []), stopped: null, asked: -1, acted: -1, turns: 0};
  d.lines = new Set();
  g.driver = d;
  const phaseOf = (v) => v.is_over ? ((v.match && v.match.prompt) || "over") : v.phase;
  const acts = () => (S.view && S.seat !== null ? S.view.legal_actions || [] : []);
  const autoPass = () => {
    const a = acts();
    return a.length === 1 && a[0] === "pass" && localStorage.getItem("gouji.autopass") !== "0";
  };
  d.sample = () => {
    for (const line of document.body.innerText.split("\n")) {
      const x = line.trim();
      if (x) d.lines.add(x);
    }
  };
  d.step = () => {
    if (S.busy || !S.view || !acts().length || autoPass() || d.asked === S.version) return;
    const phase = phaseOf(S.view);
    const held = d.stopped && d.stopped.version === S.version;
    if (d.stopAt.has(phase) && !(held && d.stopped.released)) {
      if (!held) d.stopped = {phase, version: S.version, released: false};
      return;
    }
    d.asked = S.version;
    if (opts.own) {  // a rated table gives no hints (D198): the seat plays its first legal action
      d.acted = S.version;
      d.turns += 1;
      g.act(acts()[0]);
      return;
    }
    g.send({type: "hint"});
  };
  d.resume = () => {  // each stop holds once
    if (d.stopped) {
      d.stopped.released = true;
      d.stopAt.delete(d.stopped.phase);
    }
    d.step();
  };
  d.errors = [];  // the server's errors: a driven game makes none
  g.listeners.push((msg) => {
    if (opts.sample) d.sample();
    if (msg.type === "error") d.errors.push(msg.code + ": " + msg.message);
    if (msg.type === "hint" && d.asked === S.version && d.acted !== S.version) {
      d.acted = S.version;  // one answer per decision (a late reply to an older ask is not one)
      d.turns += 1;
      g.act(msg.action);
    } else if (msg.type === "state") d.step();
  });
  d.step();
}
"""


def snap(page: Page, path: Path, top: bool = False) -> None:
    """Screenshots (toasts of earlier steps cleared; with ``top``, of the page's top) at both
    sizes; at either size the page is no wider than the screen."""
    page.evaluate("document.getElementById('toasts')?.replaceChildren()")
    if top:
        page.evaluate("scrollTo(0, 0)")
    shoot(page, path)
    size = page.viewport_size
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{path.stem}: {width} px wide"
    if size is not None:
        page.set_viewport_size(size)


def wait_js(page: Page, expression: str, arg: Any = None, timeout: float = 10_000) -> Any:
    """Wait (at most ``timeout`` ms) until ``expression`` — JavaScript, or a function of
    ``arg`` — is truthy in the page, and return its value. It polls with ``page.evaluate``
    (over the DevTools protocol) where ``page.wait_for_function`` would evaluate its text inside
    the page, which the pages' Content-Security-Policy (no eval) refuses."""
    end = time.monotonic() + timeout / 1000
    while True:
        value = page.evaluate(expression, arg)
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"not true within {timeout / 1000:g} s: {expression[:200]}")
        time.sleep(0.025)


def drive(
    page: Page, stop_at: tuple[str, ...] = (), sample: bool = False, own: bool = False
) -> None:
    """Let the page's seat play its hints (see DRIVER_JS); ``own``: its first legal action
    instead, where no hint is given (a rated table, D198)."""
    page.evaluate(DRIVER_JS, {"stopAt": list(stop_at), "sample": sample, "own": own})


def wait_stopped(page: Page, phase: str, timeout_s: float = 60) -> None:
    """Wait until the driver holds at `phase` (the page's seat must decide it)."""
    wait_js(
        page,
        f"window.gouji.driver.stopped && window.gouji.driver.stopped.phase === {phase!r}"
        " && !window.gouji.driver.stopped.released"
        " && window.gouji.driver.stopped.version === window.gouji.state.version",
        timeout=timeout_s * 1000,
    )


def resume(page: Page) -> None:
    page.evaluate("window.gouji.driver.resume()")


def wait_game_over(page: Page, timeout_s: float = 60) -> None:
    """Wait for the end of the game; the driven seat met no error on the way."""
    wait_js(
        page, "window.gouji.state.view && window.gouji.state.view.is_over", timeout=timeout_s * 1000
    )
    assert_driven_well(page)


def assert_driven_well(page: Page) -> None:
    """The driven seat met no error from the server so far."""
    errors = page.evaluate("window.gouji.driver ? window.gouji.driver.errors : []")
    assert not errors, errors


class Server(Protocol):
    """Where the pages go: this module's LiveServer, or a site behind its proxy."""

    url: str

    def get_json(self, path: str) -> Any: ...


def open_table(page: Page, server: Server, code: str) -> None:
    page.goto(f"{server.url}/r/{code}")
    expect(page.locator("#conn.ok")).to_be_visible()


def wait_seated(page: Page, server: Server, code: str, name: str) -> int:
    """Wait until the room shows `name` in a seat (the page sits down by itself)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for s in server.get_json(f"/api/rooms/{code}")["seats"]:
            if s["name"] == name:
                seat: int = s["seat"]
                return seat
        page.wait_for_timeout(50)
    raise AssertionError(f"{name} did not sit down")


def start_seated(
    pages: Pages,
    server: Server,
    code: str,
    name: str,
    viewport: ViewportSize = DESKTOP,
    lang: str = "en",
    reduced_motion: bool = False,
) -> Page:
    """A page for `name` that sits down in `code` and starts the match (bots fill the rest)."""
    page = pages.new(name, viewport, lang, reduced_motion)
    open_table(page, server, code)
    wait_seated(page, server, code, name)
    page.locator("#start").click()
    expect(page.locator("#hand .card").first).to_be_visible()
    return page


def state(page: Page, path: str) -> Any:
    """window.gouji.state.<path> of the page."""
    return page.evaluate(f"window.gouji.state.{path}")


def answer_with_hint(page: Page, scope: str) -> str:
    """Ask for the hint and click the button inside `scope` that answers it (a player's
    click; the room goes on as the simulation says). Returns the action."""
    page.evaluate("window.gouji.state.hint = null; window.gouji.send({type: 'hint'})")
    wait_js(page, "window.gouji.state.hint !== null")
    action: str = state(page, "hint")
    page.locator(f'{scope} button[data-action="{action}"]').first.click()
    resume(page)  # the driver's hold at this decision is over
    return action


#: Screenshots are for people to look at: taken only where they are kept ($GOUJI_SCREENSHOTS).
#: They check nothing, and each costs a tenth of a second or more.
KEEP_SCREENSHOTS = bool(os.environ.get("GOUJI_SCREENSHOTS"))


def picture(page: Page, path: Path, full_page: bool = False) -> None:
    """A screenshot where they are kept, with the page at rest: finite animations shown
    finished (the announcements faded out), so that no test waits for them to end."""
    if KEEP_SCREENSHOTS:
        page.screenshot(path=str(path), full_page=full_page, animations="disabled")


def shoot(page: Page, path: Path, both: bool = True) -> None:
    """A `picture` at the page's size and, with `both`, one at the other size (phone or
    desktop) as `<name>-phone.png` / `<name>-desktop.png`; the page's size is restored."""
    size = page.viewport_size
    if not KEEP_SCREENSHOTS:
        return
    picture(page, path)
    if not both or size is None:
        return
    other, tag = (PHONE, "phone") if size["width"] > PHONE["width"] else (DESKTOP, "desktop")
    page.set_viewport_size(other)
    picture(page, path.with_name(f"{path.stem}-{tag}.png"))
    page.set_viewport_size(size)


def sampled_lines(page: Page) -> list[str]:
    """Every line of the page's text the driver saw (with `sample`), and the page's now."""
    page.evaluate("window.gouji.driver.sample()")
    lines: list[str] = page.evaluate("[...window.gouji.driver.lines]")
    return lines


# What may show on the Chinese page besides Chinese: card faces (3…10 J Q K A 2), numbers,
# the room code, rule citations ("规则 R5.1", "R13.5 (a)"), the language switch "English" and
# the H key of the keyboard help ("H 提示").
_ZH_ALLOWED_WORDS = {"J", "Q", "K", "A", "English", "H"}
_RULE_CITE = re.compile(r"R\d+(\.\d+)?( ?\([a-z]\))?(/R\d+(\.\d+)?)?")
_ZH_FORBIDDEN = re.compile(r">|(座位|电脑)\s*0(?!\d)|#0(?!\d)")  # engine arrows, 0-based seats


def zh_problems(lines: list[str], code: str) -> list[str]:
    """Lines of the Chinese page that show something else than Chinese words (see above)."""
    bad = []
    for line in lines:
        text = _RULE_CITE.sub("", line.replace(code, ""))
        words = set(re.findall(r"[A-Za-z_]+", text))
        if words - _ZH_ALLOWED_WORDS or _ZH_FORBIDDEN.search(text):
            bad.append(line)
    return bad


# Chinese shown on the English page: the game's own terms beside the English words (as a
# 够级 player says them), the brand 够级 and the language switch 中文. Card faces are codes
# (SJ, LJ) there. Player names are allowed too.
EN_TERMS = {
    "够级", "够死级", "头科", "二科", "三科", "四科", "二落", "大落", "对头", "托管", "开点",
    "闷", "接风", "无头", "四人乱缠", "串三户", "串", "让", "让牌", "落贡", "点贡", "烧贡",
    "还贡", "明点", "预点", "革命", "会", "挑牌", "扣", "烧联邦", "烧成", "解烧", "亮", "开壶",
    "憋", "中文",
    # the table's glossary (glossary.js) names these too
    "联邦", "上家", "下家", "首发", "过牌", "扣牌", "烧", "进贡",
}  # fmt: skip
_ENGINE_WORDS = re.compile(
    r"\b(luo|dian|shao|burn_offer|huan|huan_check|wutou|gouji|gousiji|round_won|jiefeng|"
    r"mingdian|yudian|noburn|noswap|noskip|null|undefined|NaN|P[0-5])\b|>|\[object"
)
_CJK = re.compile(r"[\u3400-\u9fff\uff01-\uff5e\u3000-\u303f]+")


def en_problems(lines: list[str], names: tuple[str, ...] = ()) -> list[str]:
    """Lines of the English page with engine words or Chinese outside EN_TERMS and names."""
    bad = []
    for line in lines:
        text = line
        for n in names:
            text = text.replace(n, "")
        runs = set(_CJK.findall(text))
        if runs - EN_TERMS or _ENGINE_WORDS.search(text) or re.search(r"Seat 0(?!\d)", text):
            bad.append(line)
    return bad


__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "DESKTOP",
    "KEEP_SCREENSHOTS",
    "LATIN_ALLOWED",
    "LATIN_WORD",
    "PHONE",
    "VISIBLE_TEXT",
    "Browser",
    "ContextPool",
    "LiveServer",
    "Page",
    "Pages",
    "WorkerChromium",
    "answer_with_hint",
    "assert_driven_well",
    "drive",
    "en_problems",
    "expect",
    "open_table",
    "picture",
    "resume",
    "sampled_lines",
    "shoot",
    "start_seated",
    "state",
    "sync_playwright",
    "visible_text",
    "wait_game_over",
    "wait_seated",
    "wait_stopped",
    "zh_problems",
]
