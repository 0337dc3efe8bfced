"""The tables: rooms (a room, its hub and its connections), the websocket protocol, the
lobby's list of open rooms, quick match and 快捷语."""
