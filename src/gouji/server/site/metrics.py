"""Prometheus metrics of one server process (``GET /metrics``), through prometheus_client.

Each app has its own registry (tests build several apps in one process). What is counted:
the tables served here by status, open websockets, decisions applied (a counter, and its
rate over the last ten seconds), the time from a player's ``act`` to its ack (a histogram),
homes taken over from a lapsed lease, and failed lease renewals (docs/scaling.md).
"""

from __future__ import annotations

import time
from collections import Counter, deque
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, InfoMetricFamily
from prometheus_client.registry import Collector

from gouji.server.site.leases import Site
from gouji.server.tables.hub import Hub

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
RATE_WINDOW_S = 10.0
#: act → ack: a store write and a push; the buckets go from a fast SQLite to a slow network
ACT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """The registry of one app: read from the hub and the site when scraped."""

    def __init__(self, hub: Hub, site: Site) -> None:
        self.hub = hub
        self.site = site
        self.registry = CollectorRegistry()
        self.act_seconds = Histogram(
            "gouji_act_seconds",
            "Seconds from a player's act message to its ack (store write included)",
            buckets=ACT_BUCKETS,
            registry=self.registry,
        )
        self._samples: deque[tuple[float, int]] = deque()
        self.registry.register(_HubCollector(self))
        hub.on_act = self.act_seconds.observe

    def decisions(self) -> int:
        return self.hub.retired_decisions + sum(r.decisions for r in self.hub.rooms.values())

    def decision_rate(self) -> float:
        """Decisions a second over the last ``RATE_WINDOW_S`` (sampled at every scrape)."""
        now, total = time.monotonic(), self.decisions()
        self._samples.append((now, total))
        while len(self._samples) > 2 and now - self._samples[1][0] >= RATE_WINDOW_S:
            self._samples.popleft()
        then, before = self._samples[0]
        return (total - before) / (now - then) if now > then else 0.0

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


class _HubCollector(Collector):
    def __init__(self, metrics: Metrics) -> None:
        self.m = metrics

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily | InfoMetricFamily]:
        hub, site = self.m.hub, self.m.site
        yield InfoMetricFamily("gouji_worker", "This server process", value={"worker": hub.worker})
        tables = GaugeMetricFamily(
            "gouji_tables", "Tables (rooms) served by this process", labels=["status"]
        )
        by_status = Counter(r.status for r in hub.rooms.values())
        for status in ("waiting", "playing", "between", "over", "expired"):
            tables.add_metric([status], by_status.get(status, 0))
        yield tables
        yield GaugeMetricFamily(
            "gouji_connections", "Open websocket connections", value=sum(hub.connections.values())
        )
        yield GaugeMetricFamily(
            "gouji_homes",
            "Homes (rooms and events) whose lease this process holds",
            value=len(site.served()),
        )
        yield CounterMetricFamily(
            "gouji_decisions", "Decisions applied by this process", value=self.m.decisions()
        )
        yield GaugeMetricFamily(
            "gouji_decisions_per_second",
            f"Decisions a second over the last {RATE_WINDOW_S:g} s",
            value=self.m.decision_rate(),
        )
        yield CounterMetricFamily(
            "gouji_takeovers", "Homes taken over from a lapsed lease", value=site.takeovers
        )
        yield CounterMetricFamily(
            "gouji_lease_failures", "Lease renewals the database refused", value=site.failures
        )
