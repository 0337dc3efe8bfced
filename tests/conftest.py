"""Suite-wide settings: the ``slow`` marker, and slow tests first so that, spread over the
workers of ``pytest -n``, the long soak runs beside the rest of the suite instead of after it."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long soak test (deselect with -m 'not slow')")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: slow first
