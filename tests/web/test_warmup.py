"""The server's warm-up loads every numba kernel a game against the strongest computer uses: after
it, a whole game (the views with their step orders, the computer's plays and cube decisions,
hints) adds no compiled kernel. Run in a fresh interpreter, so earlier tests cannot have loaded them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

_SCRIPT = """
import json, sys
from numba.core.registry import CPUDispatcher
from gammon.dice import RandomDice

def loaded():
    # every kernel of gammon's modules, with the signatures compiled or read from the cache so far
    out = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("gammon"):
            for attr, value in vars(module).items():
                if isinstance(value, CPUDispatcher):
                    out[f"{value.py_func.__module__}.{value.py_func.__qualname__}"] = len(value.overloads)
    return out

from gammon.web.warmup import warm_up
warm_up()
from gammon.store import Store
from gammon.rules import Rules
from gammon.engine.players import computer_player
from gammon.web.hints import default_advisor, hints
from gammon.web.session import LiveMatch
from gammon.web.views import match_view
before = loaded()
store = Store("sqlite://")
live, _ = LiveMatch.create(store, "computer", Rules(match_length=3), "engine", RandomDice(5))
advisor = default_advisor()
bot = computer_player("engine")  # what the server's engine pool runs for this level
for _ in range(400):
    if live.match.is_over:
        break
    if live.computer_due():
        live.computer_acts(bot.next_action(live.match.game))
        continue
    view = match_view(live, 0)
    if view.result is not None:
        live.act(0, "new_game", {})
    elif "take" in view.actions:
        live.act(0, "take", {})
    elif "play" in view.actions:
        game = live.match.game
        hints(advisor, game.position, game.dice)
        live.act(0, "play", {"play": view.plays[-1]})
    elif "double" in view.actions:
        live.act(0, "double", {})
    elif "roll" in view.actions:
        live.act(0, "roll", {})
after = loaded()
print(json.dumps({"new": {k: v for k, v in after.items() if v != before.get(k)},
                  "kernels": len(after), "over": live.match.is_over}))
"""


def test_after_the_warm_up_a_whole_match_loads_no_kernel() -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, cwd=root,
                          env=dict(os.environ, PYTHONPATH=str(root)), timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["kernels"] > 10 and result["over"]
    assert result["new"] == {}
