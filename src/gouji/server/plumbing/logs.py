"""Log set-up of a server process: plain lines for a person, JSON lines for a machine.

``--log-format json`` writes one JSON object a line (python-json-logger) with the time, level,
logger, message, the process's ``worker`` name and whatever a call adds (``room``, ``homes``);
uvicorn's own loggers go through the same formatter, so a site's logs can be collected and
searched by worker and room (deploy/README.md).
"""

from __future__ import annotations

import logging
from typing import Any

FORMATS = ("text", "json")


class WorkerFilter(logging.Filter):
    """Adds this process's worker name to every record."""

    def __init__(self, worker: str) -> None:
        super().__init__()
        self.worker = worker

    def filter(self, record: logging.LogRecord) -> bool:
        record.worker = self.worker
        return True


def log_config(fmt: str, level: str, worker: str) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` dictionary (uvicorn's ``log_config``)."""
    if fmt not in FORMATS:
        raise ValueError(f"--log-format is one of {', '.join(FORMATS)}")
    formatter: dict[str, Any]
    if fmt == "json":
        formatter = {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(worker)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        }
    else:
        formatter = {"format": "%(asctime)s %(levelname)s [%(worker)s] %(name)s: %(message)s"}
    handler = {
        "class": "logging.StreamHandler",
        "formatter": "main",
        "filters": ["worker"],
        "stream": "ext://sys.stderr",
    }
    loggers = {
        name: {"handlers": ["main"], "level": level.upper(), "propagate": False}
        for name in ("gouji", "uvicorn", "uvicorn.error", "uvicorn.access")
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"worker": {"()": WorkerFilter, "worker": worker}},
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "loggers": loggers,
    }
