"""How well: games and matches between players, and decisions judged by GNU Backgammon 2-ply."""
