"""Allow ``python -m agon``."""

from agon.cli import main

main()
