"""A finished game's replay: what spectators saw, with every hand, before the game's first
action and after each — the server's replay page.

A pure function of the game's record (``Game.record()``), so that the server can compute it in
another process (gouji.server.review.replays): the record goes there, the JSON text comes back, and
the server's event loop never builds the views nor serializes them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from gouji.engine.referee.game import SEATS, Game


def replay_steps(record: Mapping[str, Any], index: int) -> dict[str, Any]:
    """``{"index", "steps"}``: each step the action (None first), the seat that made it and
    the spectators' view with every seat's hand."""
    g = Game.from_record({**record, "actions": []})

    def shot() -> dict[str, Any]:
        v = g.view(None)
        v["hands"] = [g.hand(s) for s in range(SEATS)]
        return v

    steps: list[dict[str, Any]] = [{"action": None, "seat": None, "view": shot()}]
    for text in record["actions"]:
        seat = g.to_act
        g.apply(text)
        steps.append({"action": text, "seat": seat, "view": shot()})
    return {"index": index, "steps": steps}


def replay_json(record: Mapping[str, Any], index: int) -> bytes:
    """``replay_steps`` as the server sends it (UTF-8 JSON, compact, as Starlette's
    ``JSONResponse`` writes it)."""
    steps = replay_steps(record, index)
    return json.dumps(steps, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
