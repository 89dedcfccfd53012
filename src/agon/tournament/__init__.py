"""Pure tournament domain: rulesets, event files, scoring, standings (no I/O beyond reading files)."""
