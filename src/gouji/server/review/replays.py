"""Finished games' replays, computed off the event loop, cached and rationed (docs/security.md).

A replay is every step of a game with every hand (gouji.review.replay): about 25 ms of Python and a
megabyte of JSON for a game of 150 actions. Built on the event loop it stopped every table of
the process meanwhile; in a thread it would still hold the GIL against the loop. So it is
built in a small pool of worker processes (``replay_workers``, started on the first replay
asked for): the loop sends the game's record there and gets the JSON text back, ready to send
(D90; the figures are in docs/performance.md).

Bounded: at most ``replays_at_once`` replays computing or waiting for a worker, server-wide
(beyond, ``Busy`` 503: try again in a second), and ``replays_per_ip_per_min`` computed for one
address (beyond, ``Busy`` 429). Answers come from a server-wide LRU cache of ``replay_cache``
texts when they can, and those cost nothing: the limits count computations. Two requests for
one replay while it is computed share the computation.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from gouji.review.replay import replay_json
from gouji.server.plumbing.clock import SYSTEM, Clock
from gouji.server.plumbing.http import ApiError
from gouji.server.plumbing.limits import Limits, WindowCounter
from gouji.tools.lifeline import die_with_parent

log = logging.getLogger("gouji.server")

Key = tuple[str, int]  # (room code, game index)


def spawned_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes, spawned rather than forked: the server has threads,
    and a fork would copy their locks as they are held (the replays' and the analyses').
    Each worker dies with the server, a ``kill -9`` too (gouji.tools.lifeline; issue 39), and
    the resource tracker of multiprocessing then goes by itself."""
    spawn = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(workers, mp_context=spawn, initializer=die_with_parent)


class Busy(ApiError):
    """A replay (or an analysis, gouji.server.review.analyses) not computed now: ``status`` 429
    ``rate_limited`` (this address asked for too many) or 503 ``busy`` (the server computes
    as many as it may), with a message for the client and when to ask again
    (``retry_after`` seconds: the ``Retry-After`` header)."""

    def __init__(self, status: int, message: str, retry_after: int) -> None:
        code = "rate_limited" if status == 429 else "busy"
        super().__init__(status, code, message, {"retry-after": str(retry_after)})


class Replays:
    """The process's replays: the cache, the computations under way and the worker pool."""

    def __init__(self, limits: Limits, clock: Clock = SYSTEM) -> None:
        self.limits = limits
        self.cache: OrderedDict[Key, bytes] = OrderedDict()
        self.per_ip = WindowCounter(limits.replays_per_ip_per_min, 60, clock)
        self.running: dict[Key, asyncio.Future[bytes]] = {}
        #: what computes them: a pool of worker processes made on first use (a test may put
        #: another executor here); shut down by ``close``
        self.executor: Executor | None = None
        self.computed = 0  # replays computed (not from the cache) since the start
        self.shared = 0  # requests that waited for a computation already under way

    def _pool(self) -> Executor:
        if self.executor is None:
            self.executor = spawned_pool(self.limits.replay_workers)
        return self.executor

    async def get(
        self, key: Key, ip: str, record: Callable[[], Mapping[str, Any] | None]
    ) -> bytes | None:
        """The replay of ``key`` as JSON text: from the cache, or ``record()`` (the finished
        game's record; None: there is no such game, and None is answered) computed in a
        worker. Raises ``Busy`` when the limits say not now."""
        text = self.cache.get(key)
        if text is not None:
            self.cache.move_to_end(key)
            return text
        shared = self.running.get(key)
        if shared is not None:  # asked for again while computed: wait for the same answer
            self.shared += 1
            return await asyncio.shield(shared)
        if len(self.running) >= self.limits.replays_at_once:
            raise Busy(
                503,
                f"the server is computing {len(self.running)} replays already: "
                "try again in a second",
                retry_after=1,
            )
        rec = record()
        if rec is None:
            return None
        if not self.per_ip.allow(ip):
            raise Busy(
                429,
                f"at most {self.limits.replays_per_ip_per_min} replays a minute are computed "
                "for one address; replays already computed are answered at once",
                retry_after=60,
            )
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes] = loop.create_future()
        self.running[key] = future
        try:
            text = await loop.run_in_executor(self._pool(), replay_json, rec, key[1])
        except BaseException as e:
            if not future.done():
                future.set_exception(e)
                future.exception()  # retrieved: nobody else may be waiting for it
            if isinstance(e, BrokenProcessPool):  # a worker died (killed): a new pool next
                log.error("the replay workers stopped (%s): starting new ones", e)
                self.executor = None
                raise Busy(503, "the replay workers restarted: try again in a second", 1) from None
            raise
        finally:
            self.running.pop(key, None)
        self.computed += 1
        future.set_result(text)
        self.cache[key] = text
        while len(self.cache) > self.limits.replay_cache:
            self.cache.popitem(last=False)
        return text

    def close(self) -> None:
        """Stop the workers (the server stops); replays asked for later start new ones."""
        executor, self.executor = self.executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
