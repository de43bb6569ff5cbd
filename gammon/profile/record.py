"""Storing an analysed match in an account's profile: the player's statistics and marked
decisions (one row each), once per account and match: once per fingerprint, and once for a match
and a file of its first games (the longer is kept)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from gammon.analysis import CheckerPlay, MatchAnalysis
from gammon.analysis.decisions import Decision
from gammon.formats.matchid import parse_gnubg_id
from gammon.formats.xgid import XGID
from gammon.match import Match
from gammon.profile.source import extends, fingerprint, match_record, opening
from gammon.store.models import (
    AnalysisJobRow,
    DrillCardRow,
    ProfileDecisionRow,
    ProfileMatchRecordRow,
    ProfileMatchRow,
)


@dataclass(frozen=True)
class Source:
    """Where a profile match came from: ``kind`` "here" (played on this server; ``name`` its match
    id) or "file" (``name`` the file's name, ``format`` its format)."""

    kind: str
    name: str
    format: str | None = None


def result_of(match: Match, seat: int) -> tuple[int, int, str]:
    """The player's and the opponent's points and the result: won, lost, unfinished (a match not
    over), or for money won, lost or drawn by the points."""
    score = match.score
    mine, theirs = score[seat], score[1 - seat]
    if match.rules.match_length:
        winner = match.winner
        result = "unfinished" if winner is None else "won" if winner == seat else "lost"
    else:
        result = "won" if mine > theirs else "lost" if mine < theirs else "drawn"
    return mine, theirs, result


def existing(s: Session, account_id: int, fingerprint: str) -> int | None:
    """The id of the account's profile match with ``fingerprint``, if it has one."""
    return s.scalar(
        select(ProfileMatchRow.id).where(
            ProfileMatchRow.account_id == account_id, ProfileMatchRow.fingerprint == fingerprint
        )
    )


@dataclass(frozen=True)
class Kin:
    """The account's profile matches that are the same match as one not stored yet, by their
    records: ``longer`` one that has it all (it, or it played further), else None; ``shorter``
    those that are its first games only (files saved mid-match), which it takes the place of."""

    longer: int | None
    shorter: tuple[int, ...]


def kin(s: Session, account_id: int, match: Match, seat: int, opponent: str) -> Kin:
    """The account's profile matches that are ``match`` (from ``seat``, against ``opponent``) or a
    part of it, or of which it is a part."""
    record = match_record(match, seat)
    rows = s.execute(
        select(ProfileMatchRecordRow.profile_match_id, ProfileMatchRecordRow.games)
        .where(
            ProfileMatchRecordRow.account_id == account_id,
            ProfileMatchRecordRow.opening == opening(record, opponent[:64]),
        )
        .order_by(ProfileMatchRecordRow.profile_match_id)
    ).all()
    longer = next((i for i, games in rows if games == record or extends(games, record)), None)
    return Kin(longer, tuple(i for i, games in rows if extends(record, games)))


def replace_shorter(s: Session, account_id: int, row_id: int, shorter: tuple[int, ...]) -> None:
    """Take the profile matches ``shorter`` (the first games of the match ``row_id``, just stored)
    out of the account's profile: its statistics and decisions count the games once. Their drill
    cards, with their reviews, go over to the same decision in the match (its game, turn, kind
    and position); a card whose decision the match does not mark (an analysis at other plies)
    keeps it, moved to the match; the jobs that made them point to the match."""
    if not shorter:
        return
    kept = {
        (d.game, d.turn, d.kind, d.gnubg_id): d.id
        for d in s.scalars(select(ProfileDecisionRow).where(ProfileDecisionRow.profile_match_id == row_id))
    }
    carded = s.execute(
        select(DrillCardRow, ProfileDecisionRow)
        .join(ProfileDecisionRow, ProfileDecisionRow.id == DrillCardRow.decision_id)
        .where(ProfileDecisionRow.profile_match_id.in_(shorter), DrillCardRow.account_id == account_id)
        .order_by(DrillCardRow.id)
    ).all()
    for card, decision in carded:
        same = kept.pop((decision.game, decision.turn, decision.kind, decision.gnubg_id), None)
        if same is None:
            decision.profile_match_id = row_id
        else:
            card.decision_id = same
    s.flush()
    s.execute(update(AnalysisJobRow).where(AnalysisJobRow.profile_match_id.in_(shorter))
              .values(profile_match_id=row_id))
    s.execute(delete(ProfileMatchRow).where(ProfileMatchRow.id.in_(shorter),
                                            ProfileMatchRow.account_id == account_id))


def add_profile_match(
    s: Session,
    *,
    account_id: int,
    seat: int,
    match: Match,
    analysis: MatchAnalysis,
    source: Source,
    played_at: datetime,
    analysed_at: datetime,
) -> ProfileMatchRow:
    """Add the analysed ``match`` to the account's profile, from ``seat``: its row and one row per
    marked decision of the player, and its record (:func:`kin` finds it by). The caller checks
    :func:`existing` (by the match's :func:`fingerprint`) and :func:`kin` first; the unique
    (account, fingerprint) refuses a match stored twice anyway."""
    stats = analysis.statistics(resamples=1)[seat]  # no confidence intervals: only the means are kept
    mine, theirs, result = result_of(match, seat)
    row = ProfileMatchRow(
        account_id=account_id,
        seat=seat,
        fingerprint=fingerprint(match),
        source=source.kind,
        source_format=source.format,
        source_name=source.name[:255],
        played_at=played_at,
        analysed_at=analysed_at,
        plies=analysis.plies,
        player_name=analysis.names[seat][:64],
        opponent_name=analysis.names[1 - seat][:64],
        match_length=analysis.match_length,
        player_score=mine,
        opponent_score=theirs,
        result=result,
        decisions=stats.overall.decisions,
        error_total=stats.overall.error_total,
        pr=stats.overall.pr,
        checker_error_rate=stats.checker.error_rate,
        cube_error_rate=stats.cube.error_rate,
        luck_total=stats.luck.total,
        luck_rate=stats.luck.rate,
    )
    s.add(row)
    s.flush()  # its id, for the decisions
    record = match_record(match, seat)
    s.add(ProfileMatchRecordRow(profile_match_id=row.id, account_id=account_id,
                                opening=opening(record, row.opponent_name), games=record))
    for d in analysis.marked():
        if d.context.player == seat:
            s.add(_decision_row(d, row.id, account_id))
    return row


def _decision_row(d: Decision, profile_match_id: int, account_id: int) -> ProfileDecisionRow:
    c = d.context
    position, state = parse_gnubg_id(c.gnubg_id)
    ranking: list[Any] | dict[str, Any]
    if isinstance(d, CheckerPlay):
        kind = "move"
        played = str(d.played) if d.played is not None else ""
        best = str(d.best.play) if d.best is not None else played
        ranking = [[str(cand.play), cand.equity] for cand in d.candidates]
    else:
        kind = "cube"
        played, best = d.action, d.best_action
        dec = d.decision
        ranking = {
            "action": d.action,
            "no_double": dec.no_double,
            "double_take": dec.double_take,
            "double_pass": dec.double_pass,
        }
    return ProfileDecisionRow(
        profile_match_id=profile_match_id,
        account_id=account_id,
        game=c.game,
        turn=c.turn,
        kind=kind,
        position_id=c.position.id,
        gnubg_id=c.gnubg_id,
        xgid=str(XGID.from_match_state(position, state)),
        dice=f"{c.dice[0]}{c.dice[1]}" if c.dice else None,
        played=played,
        best=best,
        error=d.error,
        mark=d.skill.value,
        ranking=ranking,
    )
