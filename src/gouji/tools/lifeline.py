"""Worker processes that die with the process that started them (issue 39).

The server computes replays and 复盘 in pools of spawned worker processes
(gouji.server.review.replays). A worker that only ever waits for work does not notice that its
server is gone: after a ``kill -9`` of the server it slept on for ever, adopted by init, with the
resource tracker of multiprocessing beside it (about 44 MB a pair). ``die_with_parent`` is the
pool's initializer that ends this, in two ways:

- on Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the worker the moment the
  thread that started it ends — at once, even while the worker holds the GIL in compiled code
  (where a Python thread would wait its turn). The pools are started from the server's event
  loop, whose thread lives as long as the server; a pool started from a shorter-lived thread
  loses its workers with that thread, and its owner starts new ones as after any dead worker;
- everywhere, a daemon thread that waits on the parent's sentinel (the end of a pipe that only
  the parent holds open, ``multiprocessing.parent_process()``; spawn and forkserver give one)
  and ends the process when it closes, or, where there is no sentinel, when ``os.getppid()``
  changes.

The resource tracker needs nothing of its own: it exits once no process holds its pipe open, and
only the server and its workers do.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading

PR_SET_PDEATHSIG = 1  # linux/prctl.h
POLL_S = 0.5  # how often the fallback looks at the parent, where it has no sentinel


def die_with_parent() -> None:
    """Make this process end when its parent does (a pool's ``initializer``)."""
    started_by = multiprocessing.parent_process()
    parent = started_by.pid if started_by is not None else os.getppid()
    if sys.platform.startswith("linux"):
        _kernel_kills_me()
    if os.getppid() != parent:  # the parent died before this one was watching
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="die-with-parent", daemon=True).start()


def _kernel_kills_me() -> None:
    """PR_SET_PDEATHSIG through the C library; nothing where it cannot be had."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):
        return  # the watching thread does it alone


def _watch(parent: int) -> None:
    """Wait for the parent to end, then end this process at once (no clean-up to wait for:
    the work of a dead server has nobody to go to)."""
    started_by = multiprocessing.parent_process()
    if started_by is not None and started_by.pid == parent and started_by.sentinel is not None:
        multiprocessing.connection.wait([started_by.sentinel])
    else:
        stop = threading.Event()
        while os.getppid() == parent:
            stop.wait(POLL_S)
    os._exit(1)
