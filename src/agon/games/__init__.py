"""Game engines played by the rules (pure domain: no web, no database)."""
