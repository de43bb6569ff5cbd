"""Each process of the server warms up what it runs itself. An engine worker's warm-up loads every
numba kernel a game against each computer level uses: after it, a whole match (the computer's plays
and cube decisions, the hints) adds no compiled kernel. The server process's warm-up loads the legal
plays and their step orders (the views) and the inline levels, and never the engine's evaluation.
Each runs in a fresh interpreter, so earlier tests cannot have loaded anything."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

_LOADED = """
import json, sys
from numba.core.registry import CPUDispatcher
from gammon.dice import RandomDice
from gammon.rules import Rules
from gammon.store import Store
from gammon.web.schemas import ActionRequest
from gammon.web.session import LiveMatch
from gammon.web.views import match_view

def loaded():
    # every kernel of gammon's modules, with the signatures compiled or read from the cache so far
    out = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("gammon"):
            for attr, value in vars(module).items():
                if isinstance(value, CPUDispatcher):
                    out[f"{value.py_func.__module__}.{value.py_func.__qualname__}"] = len(value.overloads)
    return out

def human(live, act_for_computer, steps):
    # the human's side of a match, from its views (with the step orders the browser asks for, which
    # the server process makes); the computer's by the caller
    for _ in range(400):
        if live.match.is_over:
            return
        if live.computer_due():
            act_for_computer(live)
            continue
        view = match_view(live, 0, steps=steps)
        if view.result is not None:
            live.act(0, ActionRequest(action="new_game"))
        elif "take" in view.actions:
            live.act(0, ActionRequest(action="take"))
        elif "play" in view.actions:
            on_play(live.match.game)
            live.act(0, ActionRequest(action="play", play=view.plays[-1]))
        elif "double" in view.actions:
            live.act(0, ActionRequest(action="double"))
        elif "roll" in view.actions:
            live.act(0, ActionRequest(action="roll"))
"""

_WORKER = _LOADED + """
import threading
from gammon.engine.players import available_levels
from gammon.web import engine_pool

engine_pool.init_worker("default", threading.Barrier(1))  # as a worker of a pool started with the server
before = loaded()
on_play = lambda game: engine_pool.worker_hints(game.position, game.dice)
store = Store("sqlite://")
over = []
for level in available_levels():
    if level in engine_pool.INLINE_LEVELS:
        continue
    live, _ = LiveMatch.create(store, "computer", Rules(match_length=3), level, RandomDice(5))
    human(live, lambda live: live.computer_acts(
        engine_pool.computer_action(live.level, engine_pool.pack_game(live.match.game))), False)
    over.append(live.match.is_over)
after = loaded()
print(json.dumps({"new": {k: v for k, v in after.items() if v != before.get(k, 0)},
                  "kernels": len(after), "over": over}))
"""

_SERVER = _LOADED + """
from gammon.web.warmup import warm_server

warm_server()
before = loaded()
on_play = lambda game: None
store = Store("sqlite://")
live, _ = LiveMatch.create(store, "computer", Rules(match_length=3), "random", RandomDice(5))
human(live, None, True)  # the random level plays in this process
after = loaded()
engine = {k: v for k, v in after.items() if ".engine." in k and v}
print(json.dumps({"new": {k: v for k, v in after.items() if v != before.get(k, 0)},
                  "kernels": len(after), "over": [live.match.is_over], "engine": engine,
                  "bearoff": "gammon.engine.bearoff.one_sided" in sys.modules and
                             sys.modules["gammon.engine.engine"].default_bearoff.cache_info().currsize}))
"""


def _run(script: str) -> dict:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=root,
                          env=dict(os.environ, PYTHONPATH=str(root)), timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict = json.loads(done.stdout.splitlines()[-1])
    return result


@pytest.mark.slow
def test_after_an_engine_workers_warm_up_a_whole_match_at_each_level_loads_no_kernel() -> None:
    result = _run(_WORKER)
    assert result["kernels"] > 10 and result["over"] and all(result["over"])
    assert result["new"] == {}


def test_the_server_process_warms_the_views_and_inline_levels_and_loads_no_engine() -> None:
    result = _run(_SERVER)
    assert result["kernels"] > 3 and result["over"] == [True]
    assert result["new"] == {}
    assert result["engine"] == {} and not result["bearoff"]
