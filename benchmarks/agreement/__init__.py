"""How alike: gammon's readings, analyses and rollouts against GNU Backgammon's on the same input."""
