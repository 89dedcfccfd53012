"""Click commands of the tournament face of the ``agon`` command line."""
