"""The cube: cubeful equities (Janowski for money, the match equity table at a score), the
cubeful search and the cube decision."""
