"""The multiplayer server (docs/protocol.md): ``create_app(db_url)`` builds the ASGI app."""

from gouji.server.app import create_app

__all__ = ["create_app"]
