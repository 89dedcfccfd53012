"""Allow ``python -m agon``."""

from agon.launch import main

main()
