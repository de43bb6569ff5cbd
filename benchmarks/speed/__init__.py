"""How fast: gammon against GNU Backgammon on the same work (move generation, plays, rollouts)."""
