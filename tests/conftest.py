"""Suite-wide settings: the ``slow`` marker, slow tests first (then ``LONG_FIRST``) so that,
spread over the workers of ``pytest -n``, the long ones run beside the rest of the suite
instead of after it,
and the Hypothesis profile of the suite's depth (``GOUJI_TEST_PROFILE``, tests/support.py):
``ci`` (the default) with Hypothesis' 100 examples, ``deep`` with ten times as many. Tests that
set their own ``max_examples`` size it with ``support.sized`` from the same switch. Neither
profile has a deadline: speed is judged by benchmarks, never by timed tests (docs/design.md
§4), and a machine shared by several test runs is no clock."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from support import PROFILE

settings.register_profile("ci", max_examples=100, deadline=None)
settings.register_profile("deep", max_examples=1000, deadline=None)
settings.load_profile(PROFILE)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long soak test (deselect with -m 'not slow')")


#: The longest tests of a loaded run (30–70 s each: server processes killed and restarted, a
#: site of workers, Ray, a whole paper knockout in the browser), started right after the soak:
#: begun last, any of them alone would hold the run's end while the other workers sit idle.
LONG_FIRST = (
    "tests/server/tables/test_server_kill.py::test_kill_and_restart",
    "tests/server/site/test_site_kill.py::",
    "tests/server/site/test_site_browser.py::",
    "tests/tools/test_ray.py::test_arena_on_ray_equals_jobs",
    "tests/tools/test_ray.py::test_tournament_on_ray_equals_jobs",
    "tests/server/events/test_events_restart.py::test_a_round_in_play_continues_after_a_restart",
    "tests/browser/test_events_pages.py::test_paper_knockout_in_chinese",
    "tests/server/tables/test_server_fuzz.py::"
    "test_fuzzed_messages_are_answered_disturb_nobody_and_the_store_equals_memory",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The soak and the long tests each at the head of a worker's share: ``--dist worksteal``
    gives every worker a contiguous slice of this order first (and steals from their ends)."""
    first = [i for i in items if i.get_closest_marker("slow") is not None]
    first += [i for i in items if i not in first and i.nodeid.startswith(LONG_FIRST)]
    rest = [i for i in items if i not in first]
    workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    share = -(-len(items) // workers)  # each worker's slice, rounded up
    slices: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for k, item in enumerate(first):
        slices[k % workers].append(item)
    out: list[pytest.Item] = []
    for w in range(workers):
        take = max(0, share - len(slices[w]))
        out += slices[w] + rest[:take]
        del rest[:take]
    items[:] = out + rest
