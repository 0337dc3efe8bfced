"""Tests of the multiplayer server (src/gouji/server, docs/protocol.md)."""
