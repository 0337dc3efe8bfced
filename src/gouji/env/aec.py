"""The PettingZoo AEC environment: one 够级 game (or a match) per episode, six agents.

Agent ``player_i`` is seat ``i`` (0-based, as in the engine; players count 1–6 at the table).
The agent to act is ``player_{to_act}``; every decision the engine asks — pre-play questions,
tribute returns, burn offers, a match's prompts — is a step of that agent. Rewards come once,
at the end, to every agent: its team's result minus the other team's (``reward``).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from gouji.engine.actions import Action, IllegalAction
from gouji.engine.match import Match
from gouji.engine.referee.game import Game
from gouji.engine.rules import Rules, make_rules
from gouji.env import encoding
from gouji.env.observation import OBS_HIGH, OBS_LOW, OBS_SIZE, ObservationEncoder

SEATS = 6
AGENTS = tuple(f"player_{i}" for i in range(SEATS))
REWARDS = ("score", "points", "win")

Observation = dict[str, npt.NDArray[Any]]


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """够级 as an AEC environment. See docs/env.md.

    ``preset`` and ``overrides`` name the rule set (``gouji.make_rules``), or ``rules`` gives it.
    ``games``: 1 (default) plays one game from the shuffle; ``N`` ≥ 2 plays a match of N games
    (tribute, 还贡, the 二落/大落 swap and the other prompts between games are decisions too);
    ``None`` plays the preset's own match length (MATCH7: 3 games and its tie-breaks).
    ``reward``: ``"score"`` (recorded team scores, ``result()["team_scores"]``; a match's totals),
    ``"points"`` (``team_points``, place points and bonuses before the recording rule, summed
    over a match) or ``"win"`` (+1 / −1 / 0 by the sign of the ``"score"`` difference).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's convention
        "render_modes": ["human", "ansi"],
        "name": "gouji_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "OUTLINE_FULL",
        overrides: dict[str, object] | None = None,
        render_mode: str | None = None,
        *,
        rules: Rules | None = None,
        games: int | None = 1,
        reward: str = "score",
    ) -> None:
        super().__init__()
        self.rules = rules if rules is not None else make_rules(preset, overrides)
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is None, 'human' or 'ansi', not {render_mode!r}")
        if games is not None and games < 1:
            raise ValueError("games is 1 (one game), N ≥ 2 (a match) or None (the preset's)")
        if games is None and self.rules.score_system != "match7":
            raise ValueError("games=None needs a preset with a match length (MATCH7)")
        self.games = games
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        length = 0 if games == 1 else (games if games is not None else 3)
        self.encoder = ObservationEncoder(self.rules, length)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(
                        OBS_LOW, OBS_HIGH, shape=(OBS_SIZE,), dtype=np.float32
                    ),
                    "action_mask": gymnasium.spaces.Box(
                        0, 1, shape=(encoding.N_ACTIONS,), dtype=np.int8
                    ),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(encoding.N_ACTIONS) for a in self.possible_agents
        }
        self.game: Game | None = None
        self.match: Match | None = None
        self.game_seed: int | None = None
        self.np_random, _ = seeding.np_random(None)
        self._seeded = False
        self._step = 0
        self._obs_cache: dict[str, tuple[int, Observation]] = {}
        self._legal_indices: list[int] = []

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode. ``reset(seed=s)`` plays the game ``Game.new(rules, s)`` (a match:
        ``Match(rules, s, games=…)``) and seeds the draw of later episodes' seeds.
        ``options={"game": g}`` (one-game episodes only) plays on the unfinished ``Game`` ``g``
        instead, e.g. a position from ``Game.from_hands``; other options are ignored."""
        given = (options or {}).get("game")
        if given is not None:
            if not isinstance(given, Game) or given.is_over or self.games != 1:
                raise ValueError("options['game'] is an unfinished Game, for games=1 only")
            if given.rules != self.rules:
                raise ValueError("options['game'] is played under other rules than the env's")
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
            self._seeded = True
            game_seed = int(seed)
        else:
            game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.game_seed = game_seed
        if given is not None:
            self.match = None
            self.game = given
            self.game_seed = given.seed
        elif self.games == 1:
            self.match = None
            self.game = Game.new(self.rules, game_seed)
        else:
            self.match = Match(self.rules, game_seed, games=self.games)
            self.game = self.match.game
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._step = 0
        self._obs_cache = {}
        self._after_action(None)

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} must act: None is only for a finished agent")
        legal = self.legal_actions()
        index = int(action)
        act = encoding.decode(index, legal)
        try:
            if self.match is not None:
                self.match.apply(act)
            else:
                assert self.game is not None
                self.game.apply(act)
        except IllegalAction as e:
            raise IllegalAction(f"{agent}: action {index} ({act.text!r}): {e}", e.reason) from e
        self._step += 1
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}
        self._after_action(agent)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _after_action(self, actor: str | None) -> None:
        """Start the match's next game when due; select the next agent or end the episode."""
        m = self.match
        if m is not None:
            while m.to_act is None and not m.is_over:
                m.next_game()
            self.game = m.game
            to_act = m.to_act
        else:
            assert self.game is not None
            to_act = self.game.to_act
        if to_act is not None:
            self.agent_selection = AGENTS[to_act]
            legal = self.legal_actions()
            self._legal_indices = encoding.legal_indices(legal)
            self.infos[self.agent_selection] = {
                "legal_actions": [a.text for a in legal],
                "legal_indices": list(self._legal_indices),
            }
            return
        diff = self._team_difference()
        result = self.result()
        for agent in self.agents:
            team = int(agent.rsplit("_", 1)[1]) & 1
            self.rewards[agent] = float(diff if team == 0 else -diff)
            self.terminations[agent] = True
            self.infos[agent] = {"legal_actions": [], "legal_indices": [], "result": result}
        self.agent_selection = actor if actor is not None else self.agents[0]

    def _team_difference(self) -> float:
        """Team A's result minus team B's, as ``reward`` says."""
        m = self.match
        if self.reward_kind == "points":
            results = m.results if m is not None else [self.result()]
            a = sum(r["team_points"][0] for r in results)
            b = sum(r["team_points"][1] for r in results)
        elif m is not None:
            a, b = m.totals
        else:
            a, b = self.result()["team_scores"]
        d = float(a - b)
        if self.reward_kind == "win":
            return float(np.sign(d))
        return d

    def result(self) -> dict[str, Any]:
        """The finished game's ``result()``; for a match, ``{"totals", "results", "winner"}``."""
        if self.match is not None:
            m = self.match
            return {"totals": m.totals, "results": m.results, "winner": m.winner}
        assert self.game is not None
        return self.game.result()

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> list[Action]:
        """The engine's legal actions of the agent to act (empty at the end)."""
        if self.match is not None:
            return self.match.legal_actions()
        assert self.game is not None
        return self.game.legal_actions()

    def decode(self, index: int) -> Action:
        """The action an index means now (an ``order`` index: the order listed now)."""
        return encoding.decode(index, self.legal_actions())

    @staticmethod
    def encode(action: Action | str) -> int:
        """The index of an action or action text (``gouji.env.encoding.encode``)."""
        return encoding.encode(action)

    # ------------------------------------------------------------------ observations
    def observe(self, agent: str) -> Observation:
        cached = self._obs_cache.get(agent)
        if cached is not None and cached[0] == self._step:
            return cached[1]
        seat = int(agent.rsplit("_", 1)[1])
        view = self.match.view(seat) if self.match is not None else self._game().view(seat)
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask = encoding.mask_of(self._legal_indices)
        else:
            mask = np.zeros(encoding.N_ACTIONS, dtype=np.int8)
        obs: Observation = {"observation": self.encoder.encode(view), "action_mask": mask}
        self._obs_cache[agent] = (self._step, obs)
        return obs

    def _game(self) -> Game:
        assert self.game is not None
        return self.game

    # ------------------------------------------------------------------ rendering
    def render(self) -> str | None:
        """``ansi``: the table as text (what a spectator sees); ``human``: printed."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: env(render_mode='ansi')")
            return None
        text = self._table_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _table_text(self) -> str:
        g = self._game()
        v = g.view(None)
        sizes = v["state"]["sizes"]
        lines = [f"{self.rules.preset} game seed {self.game_seed}: {v['phase']}"]
        if self.match is not None:
            lines[0] += f", game {len(self.match.games)}, totals {self.match.totals}"
        for s in range(SEATS):
            place = v["places"][s]
            mark = ">" if self.agents and AGENTS[s] == self.agent_selection else " "
            where = f"place {place}" if place else f"{sizes[s]} cards, {v['statuses'][s]}"
            lines.append(f"{mark} player_{s} ({'AB'[s & 1]}): {where}")
        if v["standing"]:
            lines.append(f"  to beat: {v['standing']} by player_{v['owner']}")
        return "\n".join(lines)

    def close(self) -> None:
        pass
