"""复盘: finished games' analyses, off the event loop, queued and stored (docs/security.md).

An analysis (gouji.review.analysis) judges every decision of a finished game that had a choice by
determinized play-outs: seconds to minutes of CPU a game. None of it runs on the event loop:
the loop sends the game's record to a pool of ``analysis_workers`` processes (spawned on the
first analysis asked for) to be planned, then each decision to be judged there, counting those
judged (the progress bar of the replay page), and assembles the verdicts (a sort and a summary).
The finished analysis is stored (``AnalysisStore.save_analysis``, review/store.py: room, game,
steps and seed), so every later viewer, after a restart too, gets it at once.

Queued (D131): one analysis is judged at a time, by every worker, and the others wait their turn
in the order they were asked for. At most ``analyses_queued`` are running or waiting, server-wide
(beyond, ``Busy`` 503), and ``analyses_per_ip`` for one address (beyond, ``Busy`` 429); stored
ones cost nothing. A request for a game being analysed joins it: nothing is computed twice. A
worker that dies fails the analysis it was judging with a message saying so, and the next
analysis starts new workers; the others wait on as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict, deque
from collections.abc import Mapping
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from gouji.review.analysis import DEFAULT_SEED, AnalysisError, Plan, assemble, judge, plan
from gouji.server.plumbing.limits import Limits
from gouji.server.review.replays import Busy, spawned_pool
from gouji.server.review.store import AnalysisStore

log = logging.getLogger("gouji.server")

Key = tuple[str, int]  # (room code, game index)
Answer = dict[str, Any] | bytes  # a state, or the stored analysis's answer as JSON text
FAILURES_KEPT = 64  # the last failed analyses whose error is told to the next viewer

BROKEN = (
    "a worker process of the analyses stopped (killed, or out of memory) before this game's "
    "analysis was finished: ask for it again to start it anew"
)


@dataclass
class Job:
    """An analysis asked for: waiting its turn, or its decisions being judged."""

    key: Key
    ip: str  # the address that asked for it (joiners are not counted)
    record: Mapping[str, Any]
    running: bool = False
    done: int = 0  # decisions judged …
    total: int | None = None  # … of those to judge (None: the record is still being read)
    task: asyncio.Task[None] | None = None


class Analyses:
    """The process's analyses: the queue, the worker pool, and the store they are kept in."""

    def __init__(self, store: AnalysisStore, limits: Limits) -> None:
        self.store = store
        self.limits = limits
        self.steps = limits.analysis_steps  # the server's work a decision …
        self.seed = DEFAULT_SEED  # … and seed: the same game always gets the same analysis
        self.jobs: dict[Key, Job] = {}  # running or waiting
        self.queue: deque[Job] = deque()  # those waiting, first first
        self.failed: OrderedDict[Key, str] = OrderedDict()  # why the last ones failed
        #: what judges the decisions: a pool of worker processes made on first use (a test
        #: may put another executor here); shut down by ``close``
        self.executor: Executor | None = None
        self.closing = False
        self.computed = 0  # analyses finished and stored since the start
        self.joined = 0  # requests that joined an analysis already under way

    def _pool(self) -> Executor:
        if self.executor is None:
            self.executor = spawned_pool(self.limits.analysis_workers)
        return self.executor

    # ------------------------------------------------------------------ answers
    def look(self, key: Key) -> Answer:
        """Where the analysis of ``key`` stands: being judged, waiting, stored, failed or
        none (docs/protocol.md)."""
        job = self.jobs.get(key)
        if job is not None:
            return self._state(job)
        text = self.store.analysis(key[0], key[1], self.steps, self.seed)
        if text is not None:
            return b'{"state":"done","analysis":' + text.encode() + b"}"
        why = self.failed.get(key)
        if why is not None:
            return {"state": "failed", "error": why}
        return {"state": "none"}

    def start(self, key: Key, ip: str, record: Mapping[str, Any]) -> Answer:
        """Analyse ``key`` (its finished game's ``record``) for ``ip``: the stored analysis,
        or the one under way joined, or a new one queued. Raises ``Busy`` past the limits."""
        job = self.jobs.get(key)
        if job is not None:
            self.joined += 1
            return self._state(job)
        stored = self.look(key)
        if isinstance(stored, bytes):
            return stored
        lim = self.limits
        if sum(1 for j in self.jobs.values() if j.ip == ip) >= lim.analyses_per_ip:
            raise Busy(
                429,
                f"at most {lim.analyses_per_ip} analyses running or waiting for one address: "
                "ask again once yours is finished (analyses already made are shown at once)",
                retry_after=30,
            )
        if len(self.jobs) >= lim.analyses_queued:
            raise Busy(
                503,
                f"the server has {len(self.jobs)} analyses running or waiting already: "
                "try again in a minute",
                retry_after=30,
            )
        self.failed.pop(key, None)
        job = Job(key, ip, record)
        self.jobs[key] = job
        self.queue.append(job)
        self._next()
        return self._state(job)

    def _state(self, job: Job) -> dict[str, Any]:
        if job.running:
            return {"state": "running", "done": job.done, "total": job.total}
        return {"state": "queued", "position": 1 + self.queue.index(job)}

    # ------------------------------------------------------------------ the work
    def _next(self) -> None:
        """Start the first waiting analysis when none is running."""
        if self.closing or not self.queue or any(j.running for j in self.jobs.values()):
            return
        job = self.queue.popleft()
        job.running = True
        name = f"analysis-{job.key[0]}-{job.key[1]}"
        job.task = asyncio.get_running_loop().create_task(self._run(job), name=name)

    async def _run(self, job: Job) -> None:
        try:
            text = await self._analyse(job)
            self.store.save_analysis(job.key[0], job.key[1], self.steps, self.seed, text)
            self.computed += 1
        except asyncio.CancelledError:
            raise
        except BrokenProcessPool as e:  # a worker died (killed): a new pool next time
            log.error("the analysis workers stopped (%s): new ones for the next analysis", e)
            executor, self.executor = self.executor, None
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
            self._fail(job, BROKEN)
        except AnalysisError as e:  # a record that cannot be analysed: it says why
            self._fail(job, str(e))
        except Exception as e:
            log.exception("room %s: the analysis of game %d failed", *job.key)
            self._fail(job, f"the analysis of this game failed ({type(e).__name__}: {e})")
        finally:
            self.jobs.pop(job.key, None)
            self._next()

    async def _analyse(self, job: Job) -> str:
        """The analysis of ``job`` as JSON text: the record planned in a worker, each
        decision judged in one, the verdicts assembled here (cheap: a sort and a summary)."""
        loop = asyncio.get_running_loop()
        pool = self._pool()
        p: Plan = await loop.run_in_executor(pool, plan, job.record)
        job.total = len(p.tasks)
        futures: list[Future[dict[str, Any]]] = [
            pool.submit(judge, task, self.steps, self.seed) for task in p.tasks
        ]

        async def judged(future: Future[dict[str, Any]]) -> dict[str, Any]:
            verdict = await asyncio.wrap_future(future)
            job.done += 1
            return verdict

        try:
            verdicts = await asyncio.gather(*(judged(f) for f in futures))
        except BaseException:  # failed or stopped: the decisions still waiting are not judged
            for f in futures:
                f.cancel()
            raise
        analysis = assemble(p, verdicts, self.steps, self.seed)
        return json.dumps(analysis, ensure_ascii=False, allow_nan=False, separators=(",", ":"))

    def _fail(self, job: Job, why: str) -> None:
        self.failed[job.key] = why
        while len(self.failed) > FAILURES_KEPT:
            self.failed.popitem(last=False)

    async def close(self) -> None:
        """Stop the analyses under way and the workers (the server stops); nothing of an
        unfinished analysis is kept."""
        self.closing = True
        tasks = [j.task for j in self.jobs.values() if j.task is not None]
        self.queue.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):  # cancelled, as asked
                await task
        self.jobs.clear()
        executor, self.executor = self.executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
