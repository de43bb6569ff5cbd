"""A player's profile: analysed matches stored per account (the player's statistics and marked
decisions), the persistent analysis queue that fills it, importing match files, and drills of
the marked decisions. See docs/profile.md."""

from gammon.profile.queue import AnalysisQueue, Outcome
from gammon.profile.record import Source
from gammon.profile.source import MatchFile, fingerprint, read_match_file
from gammon.profile.summary import ProfileSummary, profile_summary

__all__ = [
    "AnalysisQueue",
    "MatchFile",
    "Outcome",
    "ProfileSummary",
    "Source",
    "fingerprint",
    "profile_summary",
    "read_match_file",
]
