"""7 Wonders (first edition, base game, 3-7 players) played by the rules and tournament rulings."""
