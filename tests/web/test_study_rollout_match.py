"""The browser's rollout of a roll's plays at a match score: ranked by match winning chances, as
gammon rollout ranks them, each play with the MWC it is ranked by."""

from __future__ import annotations

from gammon import Position, Rules
from gammon.engine.engine import Engine
from gammon.engine.rollout.rollouts import RolloutSettings
from gammon.situation import Situation
from gammon.web.study_work import rollout_json


def test_a_match_rollout_of_plays_is_ranked_by_match_winning_chances() -> None:
    dmp = Situation(Position.from_id("4HPwATDGPTcACA"), dice=(5, 4), score=(6, 6),
                    rules=Rules(match_length=7))
    seen: list[int] = []
    out = rollout_json(Engine(plies=0), dmp, "plays", RolloutSettings(trials=36, seed=3, truncate=2), 3,
                       lambda done, total, detail=None: seen.append(done))
    assert out["kind"] == "plays" and out["unit"] == "mwc"
    mwcs = [p["mwc"] for p in out["plays"]]
    assert len(mwcs) == 3 and mwcs == sorted(mwcs, reverse=True)
    assert seen[-1] == 36
