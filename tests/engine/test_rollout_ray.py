"""Rollouts and training labels on Ray (the ``cluster`` extra): a local Ray with two CPUs gives
the same result as local processes for the same seed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gammon import Position
from gammon.engine.engine import Engine
from gammon.engine.rollout.parallel import check_ray_address, ordered_map
from gammon.engine.rollout.rollouts import RolloutSettings
from gammon.errors import GammonError

ray = pytest.importorskip("ray", reason="Ray is the optional 'cluster' extra")

pytestmark = pytest.mark.slow  # a local Ray starts and runs rollouts

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def local_ray():  # type: ignore[no-untyped-def]
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": path}},
    )
    yield
    ray.shutdown()


def test_ray_gives_the_same_rollout_as_local_processes(local_ray: None) -> None:
    engine = Engine(plies=0)
    p = Position.from_id("bDdEADPm2x0AAA")
    local = engine.rollout(p, RolloutSettings(trials=72, seed=12, truncate=5), workers=1)
    on_ray = engine.rollout(p, RolloutSettings(trials=72, seed=12, truncate=5), workers=2, ray_address="auto")
    assert on_ray == local
    s = RolloutSettings(trials=36, seed=3, truncate=3)
    plays_local = engine.rollout_plays(p, (6, 4), 2, s, workers=1)
    plays_ray = engine.rollout_plays(p, (6, 4), 2, s, ray_address="auto")
    assert plays_ray == plays_local


def test_a_clusters_own_address_passes_the_check_on_what_listens(local_ray: None) -> None:
    # the commands refuse a listener that does not answer as Ray's gRPC servers do: Ray's own does
    check_ray_address(ray.get_runtime_context().gcs_address)


def _unreachable_database(job: None, start: int, stop: int) -> None:
    raise GammonError("the database at 'x' cannot be reached")


def test_a_tasks_own_error_is_raised_as_itself(local_ray: None) -> None:
    # Ray's RayTaskError said the task's traceback, in colour, which each command printed
    with pytest.raises(GammonError) as failed:
        list(ordered_map(_unreachable_database, None, [(0, 1)], ray_address="auto"))
    assert str(failed.value) == "the database at 'x' cannot be reached"


def test_ray_gives_the_same_training_labels_as_this_process(local_ray: None, tmp_path: Path) -> None:
    from gammon.engine.net.neural import NeuralEvaluator
    from gammon.train.labels import LabelSettings, Sampling, Work, make_labels

    ev = NeuralEvaluator.random(hidden=8, race_hidden=4, seed=2)
    settings = LabelSettings(plies=2)
    local = make_labels(
        ev, tmp_path / "local.npz", settings, Sampling(games=2, every=12), note=print, work=Work(chunk=3)
    )
    on_ray = make_labels(
        ev,
        tmp_path / "ray.npz",
        settings,
        Sampling(games=2, every=12),
        note=print,
        work=Work(chunk=3, workers=2, ray_address="auto"),
    )
    assert len(local) >= 4 and (on_ray.targets == local.targets).all()
