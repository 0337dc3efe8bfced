"""The installable web app (issue 23, item 6; gouji.server.pages.webapp): the manifest, its icons,
the service worker at the site's root, and every page linking them (D99)."""

from __future__ import annotations

import json
import re
import shutil
import struct
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from gouji.server.pages.webapp import MANIFEST_TYPE

from ..wsutil import app_client

pytestmark = pytest.mark.timeout(60)

WEB = Path(__file__).resolve().parents[3] / "src" / "gouji" / "web"
PAGES = sorted(p.name for p in WEB.glob("*.html"))


def _png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, read from its IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _worker(client: TestClient) -> tuple[str, list[str]]:
    r = client.get("/sw.js")
    assert r.status_code == 200, r.text
    version = re.search(r'const VERSION = "([0-9a-f]{16})";', r.text)
    files = re.search(r"const FILES = (\[.*?\]);", r.text)
    assert version and files, r.text[:400]
    listed: list[str] = json.loads(files.group(1))
    return version.group(1), listed


def test_the_manifest_names_the_app_and_its_icons(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        r = client.get("/manifest.webmanifest")
        assert r.status_code == 200
        assert r.headers["content-type"].split(";")[0] == MANIFEST_TYPE
        m = r.json()
        assert m["name"] == "够级" and m["short_name"] == "够级"
        assert m["start_url"] == "/" and m["scope"] == "/" and m["display"] == "standalone"
        css = (WEB / "css" / "style.css").read_text(encoding="utf-8")
        for key in ("theme_color", "background_color"):  # the site's own colours
            assert m[key].lower() in css.lower(), key
        sizes: dict[tuple[str, str], bytes] = {}
        for icon in m["icons"]:
            got = client.get(icon["src"])
            assert got.status_code == 200, icon["src"]
            assert got.headers["content-type"].startswith(icon["type"]), icon
            if icon["type"] == "image/png":
                w, h = _png_size(got.content)
                assert icon["sizes"] == f"{w}x{h}", icon
                sizes[(icon["sizes"], icon["purpose"])] = got.content
            else:
                assert icon["type"] == "image/svg+xml" and b"<svg" in got.content
        for want in ("192x192", "512x512"):
            assert (want, "any") in sizes and (want, "maskable") in sizes, want
        # a maskable icon is painted to its edges (the platform cuts its own shape)
        assert sizes[("512x512", "maskable")] != sizes[("512x512", "any")]


def test_every_page_links_the_manifest_icons_and_worker(tmp_path: Path) -> None:
    assert "table.html" in PAGES and "index.html" in PAGES
    with app_client(tmp_path) as client:
        for name in PAGES:
            html = (WEB / name).read_text(encoding="utf-8")
            head = html[: html.index("</head>")]
            assert '<link rel="manifest" href="/manifest.webmanifest">' in head, name
            assert '<script src="/static/js/sw-register.js" defer></script>' in head, name
            icons = re.findall(r'<link rel="(?:icon|apple-touch-icon)" href="([^"]+)"', head)
            assert len(icons) == 2, name
            for href in icons:
                assert client.get(href).status_code == 200, (name, href)
        assert "/sw.js" in client.get("/static/js/sw-register.js").text


def test_the_worker_is_served_from_the_root_and_keeps_only_the_clients_files(
    tmp_path: Path,
) -> None:
    with app_client(tmp_path) as client:
        r = client.get("/sw.js")
        assert r.headers["content-type"].startswith("text/javascript")
        assert "content-security-policy" in r.headers  # the pages' policy, as everywhere
        assert "service-worker-allowed" not in r.headers  # its path gives it the root's scope
        assert r.headers["cache-control"] == "no-cache"  # a release is seen at the next visit
        version, files = _worker(client)
        assert all(f.startswith("/static/") for f in files)  # never /api, /ws or a page's data
        assert "/static/sw.js" not in files
        for want in ("js/table.js", "js/i18n.js", "css/style.css", "table.html", "index.html"):
            assert f"/static/{want}" in files, want
        assert "/static/icons/icon-192.png" in files and "/static/manifest.webmanifest" in files
        on_disk = {
            f"/static/{p.relative_to(WEB).as_posix()}" for p in WEB.rglob("*") if p.is_file()
        }
        assert set(files) == on_disk - {"/static/sw.js"}
        for f in files:  # the install fails when one is missing: each is there
            assert client.get(f).status_code == 200, f
        assert _worker(client)[0] == version  # the same files, the same release


def test_the_worker_knows_the_shell_of_every_page(tmp_path: Path) -> None:
    """Each page of the client (web/*.html) is the shell of some address in the worker's
    SHELLS, and each address the worker answers from the cache is one the server serves
    with that very file."""
    with app_client(tmp_path) as client:
        text = client.get("/sw.js").text  # SHELLS filled in from gouji.server.pages.routes.PAGES
        shells = dict(
            (f, p) for p, f in re.findall(r'\[/\^(.*?)\$/, "/static/([a-z-]+\.html)"\]', text)
        )
        assert set(shells) == set(PAGES), set(PAGES) ^ set(shells)
        for name, pattern in shells.items():
            path = re.sub(r"\[\^/\]\+", "ABCD2345", pattern.replace("\\/", "/")) or "/"
            assert re.fullmatch(pattern.replace("\\/", "/"), path), (pattern, path)
            r = client.get(path)
            assert r.status_code == 200 and r.text == (WEB / name).read_text(), (path, name)


def test_a_new_release_is_a_new_worker(tmp_path: Path) -> None:
    """Any change to the client's files changes the worker's VERSION, hence its bytes:
    browsers install it and it replaces the old release's cache."""
    web = tmp_path / "web"
    shutil.copytree(WEB, web)
    with app_client(tmp_path, web=web) as client:
        first, files = _worker(client)
        js = web / "js" / "table.js"
        js.write_text(js.read_text(encoding="utf-8") + "\n// a fix\n", encoding="utf-8")
        second, _ = _worker(client)
        assert second != first
        (web / "js" / "new-part.js").write_text("export const x = 1;\n", encoding="utf-8")
        third, more = _worker(client)
        assert third not in (first, second) and set(more) == {*files, "/static/js/new-part.js"}
        (web / "js" / "new-part.js").unlink()
        js.write_text(js.read_text(encoding="utf-8").removesuffix("\n// a fix\n"))
        assert _worker(client) == (first, files)  # the same files again: the same release
        for name in ("sw.js", "manifest.webmanifest"):
            (web / name).unlink()
        assert client.get("/sw.js").status_code == 404
        assert client.get("/manifest.webmanifest").status_code == 404
