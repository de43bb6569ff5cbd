"""How to roll out: :class:`RolloutSettings` (the trials, the seed, the plies, truncation, variance
reduction, the cube, the stopping rule). Its own module, below the trials that read it and the entry
points that resolve it (:mod:`gammon.engine.rollout.rollouts` explains each option)."""

from __future__ import annotations

from dataclasses import dataclass

from gammon.errors import InvalidArgumentError

DEFAULT_TRIALS = 1296


@dataclass(frozen=True)
class RolloutSettings:
    """How to roll out (frozen, like ``chess.engine.Limit``). A result carries the settings it
    used, every ``None`` resolved (seed drawn, plies from the engine), so that
    ``engine.rollout(position, result.settings)`` repeats it exactly.

    ``trials``: games to play (a multiple of 36, or better 1,296, for quasi-random dice).
    ``seed``: the dice (None: drawn at random, then recorded). ``plies``: the checker play's
    depth (None: the engine's). ``truncate``: half-moves before stopping a trial and evaluating it
    at ``truncate_plies`` (None: the playing plies); None plays to the end.
    ``variance_reduction``, ``quasi_random``, ``bearoff_truncation``: see the module docstring.
    ``cubeful``: cube decisions inside the trials. ``stop_at_se``: stop once the equity's standard
    error is at most this, checked every ``check_every`` trials.
    """

    trials: int = DEFAULT_TRIALS
    seed: int | None = None
    plies: int | None = None
    truncate: int | None = None
    truncate_plies: int | None = None
    variance_reduction: bool = True
    quasi_random: bool = True
    bearoff_truncation: bool = True
    cubeful: bool = False
    stop_at_se: float | None = None
    check_every: int = 144

    def __post_init__(self) -> None:
        problems = []
        if not _is_int(self.trials) or self.trials < 1:
            problems.append(f"trials must be a positive number, got {self.trials!r}")
        if self.seed is not None and (not _is_int(self.seed) or self.seed < 0):
            problems.append(f"seed must be a whole number >= 0, got {self.seed!r}")
        for name in ("plies", "truncate_plies"):
            v = getattr(self, name)
            if v is not None and (not _is_int(v) or v not in (0, 1, 2)):
                problems.append(f"{name} must be 0, 1 or 2, got {v!r}")
        if self.truncate is not None and (not _is_int(self.truncate) or self.truncate < 0):
            problems.append(f"truncate must be a number of half-moves >= 0, got {self.truncate!r}")
        if self.stop_at_se is not None and (
            isinstance(self.stop_at_se, bool)
            or not isinstance(self.stop_at_se, int | float)
            or not self.stop_at_se > 0
        ):
            problems.append(f"stop_at_se must be a standard error > 0, got {self.stop_at_se!r}")
        if not _is_int(self.check_every) or self.check_every < 1:
            problems.append(f"check_every must be a positive number of trials, got {self.check_every!r}")
        for name in ("variance_reduction", "quasi_random", "bearoff_truncation", "cubeful"):
            if not isinstance(getattr(self, name), bool):
                problems.append(f"{name} must be True or False, got {getattr(self, name)!r}")
        if problems:
            raise InvalidArgumentError("invalid RolloutSettings: " + "; ".join(problems))


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


__all__ = ["DEFAULT_TRIALS", "RolloutSettings"]
