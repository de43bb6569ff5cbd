"""Rollouts: settings and results, the trials played in lockstep batches, and the worker pools
that run them."""
