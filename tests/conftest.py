"""Suite-wide settings: the ``slow`` marker, slow tests first so that, spread over the
workers of ``pytest -n``, the long soak runs beside the rest of the suite instead of after it,
and the Hypothesis profile of the suite's depth (``GOUJI_TEST_PROFILE``, tests/support.py):
``ci`` (the default) with Hypothesis' 100 examples, ``deep`` with ten times as many. Tests that
set their own ``max_examples`` size it with ``support.sized`` from the same switch. Neither
profile has a deadline: speed is judged by benchmarks, never by timed tests (DESIGN §4), and a
machine shared by several test runs is no clock."""

from __future__ import annotations

import pytest
from hypothesis import settings

from support import PROFILE

settings.register_profile("ci", max_examples=100, deadline=None)
settings.register_profile("deep", max_examples=1000, deadline=None)
settings.load_profile(PROFILE)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long soak test (deselect with -m 'not slow')")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: slow first
