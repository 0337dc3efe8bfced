"""The tables: a room (``room``), every room of the process (``hub``) and a connection
(``connection``); the rooms' tables (``store``), their HTTP API (``routes``) and websocket
(``websocket``, speaking ``protocol``); the lobby's list of open rooms (``lobby``), quick
match (``quickmatch``) and 快捷语 (``phrases``)."""
