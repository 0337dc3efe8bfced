"""Competitions served: the event service, its routes, score sheets and corrections, tables,
the wall page, referee access and exports."""
