"""The installable web app (issue 23, item 6): ``/manifest.webmanifest`` and the service
worker ``/sw.js``.

The worker is served from the site's root so that its scope is the whole site ("/") without a
``Service-Worker-Allowed`` header. Its text is web/sw.js with two things filled in here: the
release it caches for (``VERSION``: a hash of every file of the web client, names and
contents) and the files to keep (``FILES``: every file the ``/static`` route serves). A new
release changes the hash, hence the worker's bytes: browsers install the new worker, which
fills a new cache and deletes the old one (docs/decisions.md D99). The worker never caches
``/api``, ``/ws`` or any other answer of the server, only the client's own files.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from gouji.server.pages.routes import shells_js
from gouji.server.plumbing.http import not_found

WORKER = "sw.js"  # in the web directory: the template of /sw.js
MANIFEST = "manifest.webmanifest"
MANIFEST_TYPE = "application/manifest+json"
_VERSION = '"__GOUJI_VERSION__"'
_FILES = "[/* __GOUJI_FILES__ */]"
_SHELLS = "[/* __GOUJI_SHELLS__ */]"  # the pages' addresses: pages.routes.PAGES


class Release:
    """The web client's files as the worker caches them: their list and a hash of them,
    computed again only when a file's name, size or time changed."""

    def __init__(self, web: Path, servable: Callable[[str], bool]) -> None:
        self.web = web
        self.servable = servable
        self._seen: tuple[tuple[str, int, int], ...] | None = None
        self._files: list[str] = []
        self._version = ""

    def _scan(self) -> tuple[tuple[str, int, int], ...]:
        out = []
        if self.web.is_dir():
            for path in sorted(self.web.rglob("*")):
                rel = path.relative_to(self.web).as_posix()
                if path.is_file() and not rel.startswith(".") and self.servable(rel):
                    st = path.stat()
                    out.append((rel, st.st_size, st.st_mtime_ns))
        return tuple(out)

    def current(self) -> tuple[str, list[str]]:
        """The version (16 hex digits) and the ``/static/…`` files to cache."""
        seen = self._scan()
        if seen != self._seen:
            digest = hashlib.sha256()
            for rel, _, _ in seen:
                digest.update(rel.encode() + b"\0" + (self.web / rel).read_bytes() + b"\0")
            self._version = digest.hexdigest()[:16]
            self._files = [f"/static/{rel}" for rel, _, _ in seen if rel != WORKER]
            self._seen = seen
        return self._version, self._files


def routes(web: Path, servable: Callable[[str], bool]) -> list[Route]:
    """The manifest and the worker, for the web client in ``web``; ``servable(rel)`` tells
    which of its files the ``/static`` route serves (those alone are cached)."""
    release = Release(web, servable)

    async def manifest(request: Request) -> Response:
        path = web / MANIFEST
        if not path.is_file():
            raise not_found(f"no {MANIFEST} in the web client")
        return FileResponse(path, media_type=MANIFEST_TYPE)

    async def worker(request: Request) -> Response:
        path = web / WORKER
        if not path.is_file():
            raise not_found(f"no {WORKER} in the web client")
        version, files = release.current()
        text = path.read_text(encoding="utf-8")
        text = text.replace(_VERSION, json.dumps(version)).replace(_FILES, json.dumps(files))
        text = text.replace(_SHELLS, shells_js())
        return Response(
            text,
            media_type="text/javascript; charset=utf-8",
            headers={"cache-control": "no-cache"},  # a browser asks again: a release shows
        )

    return [Route(f"/{MANIFEST}", manifest), Route(f"/{WORKER}", worker)]


__all__ = ["MANIFEST_TYPE", "Release", "routes"]
