"""agon: run 7 Wonders-family tournaments and play the games by the rules."""

__version__ = "0.1.0"
