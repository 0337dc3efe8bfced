"""够级 as a PettingZoo AEC environment (``pip install 'gouji[env]'``; docs/env.md).

```python
from gouji.env import env

e = env(preset="OUTLINE_FULL")
e.reset(seed=7)                       # the game Game.new(rules, 7)
for agent in e.agent_iter():          # "player_0" … "player_5" = seats 0 … 5
    obs, reward, terminated, truncated, info = e.last()
    if terminated or truncated:
        action = None
    else:
        action = e.action_space(agent).sample(obs["action_mask"])
    e.step(action)
```

Modules: ``aec`` (the environment), ``encoding`` (the fixed action index), ``observation``
(the observation vector). The engine (``gouji``) never imports this package.
"""

from __future__ import annotations

from typing import Any

try:
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as e:  # the env's libraries are an extra: say which
    missing = (e.name or "its libraries").split(".")[0]
    raise ModuleNotFoundError(
        f"gouji.env needs {missing}: pip install 'gouji[env]'", name=missing
    ) from e

from gouji.env import encoding
from gouji.env.aec import AGENTS, raw_env
from gouji.env.encoding import N_ACTIONS
from gouji.env.observation import OBS_SIZE, SLICES

ILLEGAL = ("raise", "terminate")


def env(
    preset: str = "OUTLINE_FULL",
    overrides: dict[str, object] | None = None,
    render_mode: str | None = None,
    *,
    illegal: str = "raise",
    illegal_reward: float = -1.0,
    **kwargs: Any,
) -> Any:
    """``raw_env`` with PettingZoo's standard wrappers (the type is PettingZoo's, untyped).

    Always: ``AssertOutOfBoundsWrapper`` (an index outside ``Discrete(N_ACTIONS)`` fails an
    assertion) and ``OrderEnforcingWrapper`` (calls before ``reset`` raise). An in-range index
    the mask forbids: ``illegal="raise"`` (default) raises ``gouji.IllegalAction`` citing the
    rule, nothing changed (under ``sw.illegal = forfeit_turn`` rules the engine forfeits the
    turn instead, R19.1); ``illegal="terminate"`` adds ``TerminateIllegalWrapper``: the episode
    ends, the offender gets ``illegal_reward`` and everybody else 0. Other keyword arguments go
    to ``raw_env`` (``rules``, ``games``, ``reward``).
    """
    if illegal not in ILLEGAL:
        raise ValueError(f"illegal is one of {', '.join(ILLEGAL)}, not {illegal!r}")
    e: Any = raw_env(preset, overrides, render_mode, **kwargs)
    if illegal == "terminate":
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


__all__ = ["AGENTS", "N_ACTIONS", "OBS_SIZE", "SLICES", "encoding", "env", "raw_env"]
