"""Command-line entry points: argument parsing and terminal play; no game logic."""
