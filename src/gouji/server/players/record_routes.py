"""A player's record and the leaderboards over HTTP (docs/protocol.md, "Players").

``GET /api/players/{name}``: the account's 战绩 (``records.Records.player``) with its name;
``GET /api/leaderboard?preset=…``: the rated players of a rule set, best first. The pages
``/players/{name}`` and ``/leaderboard`` read them.
"""

from __future__ import annotations

import unicodedata

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gouji.engine.rules import DEFAULT_PRESET, PRESET_NAMES
from gouji.server.players.accounts import NAME_MAX, Accounts
from gouji.server.players.ratings import LISTED_GAMES, PROVISIONAL_GAMES
from gouji.server.players.records import Records


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def routes(accounts: Accounts, records: Records) -> list[Route]:
    async def player(request: Request) -> Response:
        raw = str(request.path_params["name"])
        key = unicodedata.normalize("NFKC", raw).strip().casefold()
        row = accounts.db.by_key(key) if 0 < len(key) <= NAME_MAX else None
        if row is None:
            return _error(404, "no_player", f"no player {raw[:40]!a}")
        return JSONResponse({"name": row.name, "since": row.created, **records.player(row.id)})

    async def leaderboard(request: Request) -> Response:
        preset = request.query_params.get("preset") or DEFAULT_PRESET
        if preset not in PRESET_NAMES:
            return _error(
                400, "bad_preset", f"preset is one of {', '.join(PRESET_NAMES)}, not {preset!a}"
            )
        return JSONResponse(
            {
                "preset": preset,
                "min_games": LISTED_GAMES,
                "provisional_below": PROVISIONAL_GAMES,
                "players": records.leaderboard(preset),
            }
        )

    return [
        Route("/api/players/{name}", player),
        Route("/api/leaderboard", leaderboard),
    ]
