"""The ``gouji`` command: ``bench``, ``selfplay``, ``replay``, ``analyse``, ``rules``, ``arena``,
``serve``, ``tournament``."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

import gouji.build
from gouji.competition import Event
from gouji.engine.referee.game import Game, UnsupportedRules
from gouji.engine.referee.record import RecordError, replay
from gouji.engine.rules import (
    DEFAULT_PRESET,
    PRESET_NAMES,
    ConfigError,
    Rules,
    make_rules,
    parse_override,
)
from gouji.tools.bench import bench, bench_matches
from gouji.tools.cluster import ClusterError

PLACE_NAMES = {1: "头科", 2: "二科", 3: "三科", 4: "四科", 5: "二落", 6: "大落"}


def _rules(args: argparse.Namespace) -> Rules:
    overrides = dict(parse_override(text) for text in args.set or [])
    return make_rules(args.preset, overrides)


def _add_rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--preset", default=DEFAULT_PRESET, help=f"one of {', '.join(PRESET_NAMES)}")
    p.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="override a key of docs/spec/variants.md §V.4, e.g. --set round.rang=stay_active",
    )


def _build_fields() -> dict[str, str]:
    """Which build a figure measured: "compiled" (mypyc) or "pure", and why."""
    running = gouji.build.running()
    return {"build": running["build"], "build_why": running["why"]}


def cmd_bench(args: argparse.Namespace) -> int:
    """Uniform-random games (or matches) in one process: decisions/s, games/s, memory."""
    if args.matches:
        m = bench_matches(_rules(args), args.matches, args.match_games, args.seed)
        if args.json:
            print(json.dumps({**m.as_dict(), **_build_fields()}))
            return 0
        print(f"build             {gouji.build.running()['build']}")
        print(f"preset            {m.preset}")
        print(f"matches           {m.matches} ({m.games} games, {m.seconds:.2f} s)")
        print(f"matches/s         {m.matches_per_s:,.2f}")
        print(f"games/s           {m.games_per_s:,.1f}")
        print(f"decisions/s       {m.decisions_per_s:,.0f}")
        return 0
    r = bench(_rules(args), args.games, args.seed)
    if args.json:
        print(json.dumps({**r.as_dict(), **_build_fields()}))
        return 0
    print(f"build             {gouji.build.running()['build']}")
    print(f"preset            {r.preset}")
    print(f"games             {r.games} ({r.decisions} decisions, {r.seconds:.2f} s)")
    print(f"decisions/s       {r.decisions_per_s:,.0f}")
    print(f"games/s           {r.games_per_s:,.1f}  ({r.ms_per_game:.2f} ms a game)")
    print(f"decisions/game    {r.decisions_per_game:.0f}")
    print(f"game in progress  {r.game_bytes / 1024:.1f} KiB")
    print(f"clone()           {r.clone_bytes / 1024:.1f} KiB")
    return 0


_EVENT_WORDS = {
    "first_taker": "takes the first card (首取牌人)",
    "starter": "starts the game (首发牌人)",
    "round_won": "wins the round",
    "opened": "has opened the point (开点)",
    "kou": "扣 (turns the play down)",
    "jiefeng": "leads by 接风",
    "burn_success": "burned out successfully (烧成)",
    "burn_broken": "burn broken (解烧)",
    "void_redeal": "two revolutions: the game is void and redealt",
    "game_over": "game over",
    "geming": "declares 革命 (revolution)",
}


def describe_event(seat: int, text: str) -> str:
    """One public log event as a readable line."""
    who = f"P{seat}" if seat >= 0 else "--"
    word, _, rest = text.partition(" ")
    if text in _EVENT_WORDS:
        said = _EVENT_WORDS[text]
    elif word in ("place", "ended", "men", "broken_burn") and rest.isdigit():
        name = PLACE_NAMES[int(rest)]
        said = {
            "place": f"goes out: {name}",
            "ended": f"still holds cards when the game ends: {name}",
            "men": f"is 闷 (only 3s left): {name}",
        }.get(word, f"burn broken, placed last: {name}")
    elif word == "burning":
        said = f"burns P{rest}'s play (烧牌)"
    elif word == "opening_draw":
        said = f"draws {rest} to open (开牌)"
    elif word == "buy3":
        said = "buys a 3 (买3) from P" + rest.removeprefix("from ").replace(" free", ", free")
    else:
        said = text
    return f"{who}  {said}"


def describe(game: Game, start: int = 0) -> list[str]:
    """Readable lines for the public log from ``start`` on."""
    return [describe_event(seat, text) for seat, text in game.log[start:]]


def cmd_selfplay(args: argparse.Namespace) -> int:
    """Play one game with uniformly random legal actions and print it."""
    game = Game.new(_rules(args), args.seed)
    rng = random.Random(args.seed)
    while game.pending not in ("lead", "over"):  # pre-play decisions
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    for line in describe(game):
        print(line)
    print("-- hands at the first lead (a self-play demo shows every hand):")
    for seat in range(6):
        print(f"P{seat}  {game.hand(seat) or '(out)'}")
    shown = len(game.log)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    for line in describe(game, shown):
        print(line)
    _print_result(game)
    if args.record:
        Path(args.record).write_text(json.dumps(game.record(), ensure_ascii=False))
        print(f"record written to {args.record}")
    return 0


def _print_result(game: Game) -> None:
    res = game.result()
    for seat, place in enumerate(res["places"]):
        team = "AB"[seat & 1]
        print(f"P{seat} (team {team}): {place} {PLACE_NAMES[place]}")
    print(
        f"team scores recorded ({res['scoring']}): A {res['team_scores'][0]}, "
        f"B {res['team_scores'][1]}"
    )


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record file and print its public log."""
    try:
        data = json.loads(Path(args.file).read_text())
        game = replay(data)
    except (OSError, json.JSONDecodeError, RecordError) as e:
        print(f"gouji replay: {e}", file=sys.stderr)
        return 2
    for line in describe(game):
        print(line)
    if game.is_over:
        _print_result(game)
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    """复盘: judge every decision of a seat (or all six) of a finished game's record."""
    from gouji.review import analysis
    from gouji.tools.progress import progress_bar

    try:
        data = json.loads(Path(args.file).read_text())
        if args.jobs < 1:
            raise analysis.AnalysisError("--jobs must be at least 1")
        seats = None if args.seat is None else [args.seat]
        steps, seed = analysis.check_work(
            analysis.DEFAULT_STEPS if args.steps is None else args.steps,
            analysis.DEFAULT_SEED if args.seed is None else args.seed,
        )
        p = analysis.plan(data, seats)
        bar = progress_bar(len(p.tasks), args.progress or sys.stderr.isatty(), "decision")
        try:
            result = analysis.run(p, steps, seed, args.jobs, progress=bar)
        finally:
            bar(-1)
    except (OSError, json.JSONDecodeError, analysis.AnalysisError) as e:
        print(f"gouji analyse: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        for line in describe_analysis(result):
            print(line)
    return 0


def describe_analysis(result: dict[str, object]) -> list[str]:
    """The analysis as text: every flagged decision with the better play, then each seat's
    summary (the JSON has every decision and every candidate)."""
    decisions = result["decisions"]
    summary = result["summary"]
    assert isinstance(decisions, list) and isinstance(summary, list)
    lines = [
        f"复盘: {len(decisions)} decisions, {result['steps']} steps each, seed {result['seed']}; "
        f"a loss counts beyond {result['z']} standard errors"
    ]
    for d in decisions:
        if d["class"] == "good":
            continue
        best = next(c for c in d["candidates"] if c["action"] == d["best"])
        lo, hi = best["gain_ci"] or (float("-inf"), float("inf"))
        lines.append(
            f"#{d['index']:<4} P{d['seat']} {d['action']:<24} {d['class']:<10} "
            f"better {d['best']!r}: {best['gain']:+.2f} points [{lo:+.2f}, {hi:+.2f}]"
        )
    for s in summary:
        c = s["classes"]
        lines.append(
            f"P{s['seat']}: {s['decisions']} decisions, average loss {s['average_loss']:.2f}; "
            f"inaccuracies {c['inaccuracy']}, mistakes {c['mistake']}, blunders {c['blunder']}; "
            f"costliest {', '.join(f'#{i}' for i in s['costliest']) or '-'}"
        )
    return lines


def cmd_rules(args: argparse.Namespace) -> int:
    """Print a preset's whole configuration."""
    rules = _rules(args)
    if args.json:
        print(json.dumps(rules.to_dict(), ensure_ascii=False))
        return 0
    print(f"# {rules.preset}")
    for key, value in rules.to_dict().items():
        print(f"{key} = {json.dumps(value, ensure_ascii=False)}")
    return 0


def parse_seeds(text: str) -> list[int]:
    """``--seed 1,2,3`` (or one seed): the arena's seeds, each a whole number of 0 or more."""
    try:
        seeds = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"--seed takes whole numbers separated by commas, not {text!r}") from None
    if not seeds:
        raise ValueError("--seed needs one seed or more, e.g. --seed 1,2,3")
    return seeds


def parse_agent_option(text: str) -> tuple[str, str, int | float | str]:
    """``name.key=value`` (``search.budget_ms=200``) as (name, key, value): an int, a float
    or else the text."""
    target, eq, raw = text.partition("=")
    name, dot, key = target.partition(".")
    if not eq or not dot or not name or not key:
        raise ValueError(f"--opt {text!r}: expected AGENT.KEY=VALUE, e.g. search.budget_ms=200")
    value: int | float | str
    try:
        value = int(raw)
    except ValueError:
        try:
            value = float(raw)
        except ValueError:
            value = raw
    return name, key, value


def cmd_arena(args: argparse.Namespace) -> int:
    """Agents against each other on duplicate deals: win rate, score difference, ratings."""
    try:
        from gouji.tools import arena
    except ModuleNotFoundError as e:  # SciPy, openskill, matplotlib: the `arena` extra
        print(
            f"gouji arena: {e.name} is missing: pip install 'gouji[arena]' (make test installs it)",
            file=sys.stderr,
        )
        return 2

    names = [n.strip() for n in args.agents.split(",") if n.strip()]
    try:
        options: dict[str, dict[str, object]] = {}
        for text in args.opt or []:
            name, key, value = parse_agent_option(text)
            options.setdefault(name, {})[key] = value
        if len(names) < 2:
            raise ValueError("--agents needs two names or more, e.g. --agents greedy,random")
        if args.deals < 1 or args.jobs < 1:
            raise ValueError("--deals and --jobs must be at least 1")
        _check_ray(args)
        result = arena.run(
            args.preset,
            names,
            args.deals,
            seed=parse_seeds(args.seed),
            jobs=args.jobs,
            ray=args.ray,
            overrides=dict(parse_override(text) for text in args.set or []),
            options=options,
            progress=args.progress or (not args.json and sys.stderr.isatty()),
            schedule=args.schedule,
        )
    except (ValueError, ClusterError) as e:
        print(f"gouji arena: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.as_dict(), ensure_ascii=False))
    else:
        for line in arena.report(result):
            print(line)
    if args.plot:
        arena.plot(result, args.plot)
        if not args.json:
            print(f"plot written to {args.plot}")
    return 0


def bot_names(text: str) -> list[str]:
    """``--bots``: one agent name, or several separated by commas (given to the teams in
    turn); an unknown or missing name is a ValueError naming the known bots."""
    from gouji import agents

    known = agents.names()
    names = [n.strip() for n in text.split(",")]
    if not text.strip() or not all(names):
        raise ValueError(f"--bots takes names separated by commas; bots: {', '.join(known)}")
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown bot {', '.join(map(repr, unknown))}; bots: {', '.join(known)}")
    return names


def cmd_tournament(args: argparse.Namespace) -> int:
    """A whole all-bot event (docs/competitions.md): draws, matches, standings."""
    from gouji.competition import EventError, play_event
    from gouji.competition.report import summary, text_report
    from gouji.tools.progress import progress_bar

    try:
        if not 2 <= args.teams <= 64:
            raise ValueError("--teams must be 2…64")
        if args.jobs < 1:
            raise ValueError("--jobs must be at least 1")
        _check_ray(args)
        ev = Event(
            f"{args.format} of {args.teams} teams",
            args.preset,
            args.format,
            rounds=args.rounds,
            duplicate=args.duplicate,
            games=args.per_match,
            seed=args.seed,
            overrides=dict(parse_override(text) for text in args.set or []),
        )
        bots = bot_names(args.bots)
        for i in range(1, args.teams + 1):
            bot = bots[(i - 1) % len(bots)]  # in turn: team 1 the first, team 2 the second, …
            ev.add_team(f"Team {i}", [f"T{i}-{k}" for k in (1, 2, 3)], bot=bot)
        total = _games_estimate(ev)
        bar = progress_bar(total, (not args.json and sys.stderr.isatty()) or args.progress, "game")
        try:
            play_event(ev, jobs=args.jobs, ray=args.ray, progress=bar)
        finally:
            bar(-1)
    except (ValueError, EventError, ClusterError) as e:
        print(f"gouji tournament: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary(ev), ensure_ascii=False))
    else:
        for line in text_report(ev):
            print(line)
    return 0


def _check_ray(args: argparse.Namespace) -> None:
    """``--ray`` excludes ``--jobs`` (Ray plays on every CPU of its cluster)."""
    if args.ray is not False and args.jobs != 1:
        raise ValueError("--jobs or --ray, not both (Ray plays on every CPU of its cluster)")


def _add_ray_arg(p: argparse.ArgumentParser) -> None:
    """``--ray [ADDRESS]``, the same for the arena and the tournament."""
    p.add_argument(
        "--ray",
        nargs="?",
        const=True,
        default=False,
        metavar="ADDRESS",
        help="play on a Ray cluster (pip install 'gouji[cluster]'): at ADDRESS (host:port, "
        "ray://…), or without one the cluster ray.init() finds (RAY_ADDRESS, a local "
        "`ray start`) or a new local one",
    )


def _games_estimate(ev: Event) -> int:
    """Games the event will play without ties (the progress bar's length)."""
    n = len(ev.teams)
    tables = 2 if ev.duplicate else 1
    if ev.format == "knockout":
        matches = n - 1
    else:
        matches = (n // 2) * (ev.rounds_wanted or (n - 1 if n % 2 == 0 else n))
    return matches * tables * ev.games


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the multiplayer server (docs/protocol.md) until interrupted: one process, or with
    ``--workers N`` a site of N behind HAProxy (docs/scaling.md)."""
    import uvicorn

    from gouji.server import create_app
    from gouji.server.plumbing.forwarded import served
    from gouji.server.plumbing.limits import LimitError, parse_limits
    from gouji.server.plumbing.logs import log_config
    from gouji.server.plumbing.origin import normal_origin
    from gouji.server.site.supervisor import SiteError, Supervisor, run_site
    from gouji.server.tables.hub import SOLO

    try:
        limits = parse_limits(args.limit)
        if args.workers < 1:
            raise ValueError("--workers must be at least 1")
        if args.workers > 1 and args.worker_id is not None:
            raise ValueError("--worker-id names one worker of a site; --workers starts a site")
        logging_config = log_config(args.log_format, args.log_level, args.worker_id or SOLO)
        for origin in args.origin or []:
            if normal_origin(origin) is None:
                raise ValueError(f"--origin {origin!r} is not an http(s)://host[:port] address")
    except (LimitError, ValueError) as e:
        print(f"gouji serve: {e}", file=sys.stderr)
        return 2
    if args.workers > 1:
        extra = ["--log-level", args.log_level, "--log-format", args.log_format]
        for text in args.limit or []:
            extra += ["--limit", text]
        for origin in args.origin or []:
            extra += ["--origin", origin]
        try:
            site = Supervisor(args.workers, args.host, args.port, args.db, extra, args.worker_port)
            return run_site(site)
        except SiteError as e:
            print(f"gouji serve: {e}", file=sys.stderr)
            return 2
    try:
        app = create_app(
            args.db, limits=limits, worker=args.worker_id or SOLO, origins=args.origin or ()
        )
    except Exception as e:  # a bad URL or an unreachable database: say so, no traceback
        print(f"gouji serve: cannot open the database {args.db!r}: {e}", file=sys.stderr)
        return 2
    hub = app.state.hub

    class Server(uvicorn.Server):
        """Uvicorn's server, telling the rooms first that the process is stopping (its
        players are not leaving: another process, or this one restarted, takes them)."""

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            hub.closing = True
            super().handle_exit(sig, frame)

    asgi, forwarded = served(app, args.worker_id is not None, os.environ)  # whose X-Forwarded-*
    config = uvicorn.Config(
        asgi,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        log_config=logging_config,
        **forwarded,
    )
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn re-raises Ctrl-C after its clean
        Server(config).run()  # shutdown: the user asked it to stop, so no traceback
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``gouji`` command."""
    parser = argparse.ArgumentParser(prog="gouji", description="够级 (Gouji) tools")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("bench", help="random-play speed and memory of the engine")
    _add_rules_args(p)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--matches", type=int, default=0, help="time random matches instead")
    p.add_argument("--match-games", type=int, default=4, help="games a match (not MATCH7)")
    p.add_argument("--json", action="store_true", help="one JSON line")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("selfplay", help="play and print one random game")
    _add_rules_args(p)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--record", help="write the game record (JSON) to this file")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("replay", help="replay a game record and print it")
    p.add_argument("file")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("analyse", help="复盘: judge the decisions of a finished game's record")
    p.add_argument("file", help="a game record (JSON), e.g. from selfplay --record")
    p.add_argument("--seat", type=int, choices=range(6), help="one seat (0-5); all six if left out")
    p.add_argument("--steps", type=int, default=None, help="simulated decisions a decision")
    p.add_argument("--seed", type=int, default=None, help="the analysis's own seed")
    p.add_argument("--jobs", type=int, default=1, help="processes")
    p.add_argument("--progress", action="store_true", help="a progress bar even when piped")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=cmd_analyse)

    p = sub.add_parser("rules", help="print a preset's configuration")
    _add_rules_args(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("arena", help="agents against each other on duplicate deals")
    _add_rules_args(p)
    p.add_argument("--agents", required=True, help="two names (a match) or more (a league)")
    p.add_argument("--deals", type=int, default=100, help="duplicate deals a seed (two games each)")
    p.add_argument(
        "--seed",
        default="1,2,3",
        help="one seed, or several pooled: 1,2,3 (the default; a claim takes 3 × 100 deals)",
    )
    p.add_argument("--jobs", type=int, default=1, help="processes")
    _add_ray_arg(p)
    p.add_argument(
        "--opt",
        action="append",
        metavar="AGENT.KEY=VALUE",
        help="an agent option, e.g. --opt search.budget_ms=200 (repeatable)",
    )
    p.add_argument(
        "--schedule",
        default="all",
        choices=("all", "ladder"),  # gouji.tools.arena.SCHEDULES (imported lazily: an extra)
        help="a league's pairs: all, or ladder (each agent against the next, in --agents order)",
    )
    p.add_argument("--progress", action="store_true", help="a progress bar even when piped")
    p.add_argument("--json", action="store_true", help="one JSON line")
    p.add_argument("--plot", metavar="FILE", help="write a PNG of the results")
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser("tournament", help="play a whole all-bot event and print its results")
    _add_rules_args(p)
    p.add_argument("--teams", type=int, default=8, help="teams of three bots")
    p.add_argument("--format", default="knockout", choices=("knockout", "round_robin", "swiss"))
    p.add_argument("--rounds", type=int, help="rounds of a swiss or round robin")
    p.add_argument("--duplicate", action="store_true", help="two tables a match, seats swapped")
    p.add_argument("--games", dest="per_match", type=int, help="games a match (default 3)")
    p.add_argument(
        "--bots",
        "--bot",
        dest="bots",
        metavar="NAMES",
        default="heuristic",
        help="the teams' agents, given in turn (team 1 the first, team 2 the second, …, and"
        " round again): one for all, or several, e.g. heuristic,random; --bot is the same"
        " option (default heuristic; search and master are strong but slow)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="processes playing tables")
    _add_ray_arg(p)
    p.add_argument("--progress", action="store_true", help="a progress bar even when piped")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("serve", help="run the multiplayer server (HTTP and websocket)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument(
        "--db",
        default="sqlite:///gouji.db",
        help="SQLAlchemy URL: sqlite:///FILE (default gouji.db here) or postgresql://…",
    )
    p.add_argument("--log-level", default="info", help="uvicorn's log level")
    p.add_argument(
        "--log-format", default="text", choices=("text", "json"), help="json: one object a line"
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="N > 1: a site of N processes behind HAProxy on --port (PostgreSQL --db)",
    )
    p.add_argument(
        "--worker-port",
        type=int,
        help="the first worker's loopback port with --workers (default: --port + 1)",
    )
    p.add_argument(
        "--worker-id",
        help="this process's name in a site started by hand or by systemd (w1, w2, …)",
    )
    p.add_argument(
        "--limit",
        action="append",
        metavar="NAME=VALUE",
        help="change a limit, e.g. connections_per_ip=64 (docs/security.md lists them)",
    )
    p.add_argument(
        "--origin",
        action="append",
        metavar="URL",
        help="the site's public address where a proxy changes the Host header, e.g. "
        "https://gouji.example.org: its pages may change state (docs/security.md)",
    )
    p.set_defaults(func=cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``gouji`` command."""
    args = build_parser().parse_args(argv)
    if getattr(args, "games", 1) < 1 or getattr(args, "matches", 0) < 0:
        print("gouji: --games must be at least 1 and --matches not negative", file=sys.stderr)
        return 2
    try:
        code: int = args.func(args)
    except (ConfigError, UnsupportedRules) as e:
        print(f"gouji: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into `head`
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
