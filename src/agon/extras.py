"""The optional parts of agon (pip extras) and the one-line error when one is missing.

The core install (``pip install agon-tournaments``: :data:`agon.DISTRIBUTION`, agon's name on
PyPI) runs the standings, schedules, verification, the director commands on SQLite, the engines
and bots, ratings and series.  The rest comes with an extra: ``agon-tournaments[web]`` (``agon
serve``), ``[postgresql]``, ``[print]``, ``[rl]``, ``[openspiel]``.  A command that needs a missing
one stops with :func:`missing_extra_message`.
"""

from __future__ import annotations

from agon import DISTRIBUTION

#: top-level module -> the extras that install it (the first is named unless the command says).
MODULE_EXTRAS: dict[str, tuple[str, ...]] = {
    "fastapi": ("web",),
    "starlette": ("web",),
    "uvicorn": ("web",),
    "multipart": ("web",),
    "python_multipart": ("web",),
    "itsdangerous": ("web",),
    "prometheus_client": ("web",),
    "argon2": ("web",),
    "jinja2": ("web", "print"),
    "babel": ("web", "print"),
    "psycopg": ("postgresql",),
    "weasyprint": ("print",),
    "segno": ("print",),
    "pettingzoo": ("rl",),
    "gymnasium": ("rl",),
    "numpy": ("rl", "openspiel"),
    "pyspiel": ("openspiel",),
    "open_spiel": ("openspiel",),
    "matplotlib": ("plot",),
    "ray": ("cluster",),
}

#: command -> the extra it belongs to, when a module is shared by several extras.
COMMAND_EXTRA: dict[str, str] = {"serve": "web", "print": "print"}


def missing_extra(module: str | None, command: str | None = None) -> str | None:
    """The extra that installs ``module`` (a name from :class:`ModuleNotFoundError`), or None.

    >>> missing_extra("psycopg")
    'postgresql'
    >>> missing_extra("jinja2.ext", "print")
    'print'
    >>> missing_extra("jinja2", "serve")
    'web'
    >>> missing_extra("no_such_thing") is None
    True
    """
    if not module:
        return None
    extras = MODULE_EXTRAS.get(module.partition(".")[0])
    if extras is None:
        return None
    wanted = COMMAND_EXTRA.get(command or "")
    return wanted if wanted in extras else extras[0]


def command_of(args: list[str]) -> str | None:
    """The sub-command of an ``agon`` command line (its first word that is not an option).

    >>> command_of(["--version"]) is None
    True
    >>> command_of(["serve", "--demo"])
    'serve'
    """
    return next((a for a in args if not a.startswith("-")), None)


def missing_extra_message(exc: ModuleNotFoundError, args: list[str]) -> str | None:
    """One line naming the extra and the pip command, or None when no extra provides the module.

    >>> missing_extra_message(ModuleNotFoundError(name="uvicorn"), ["serve"])
    "agon serve needs the optional web dependencies: pip install 'agon-tournaments[web]'"
    """
    command = command_of(args)
    extra = missing_extra(exc.name, command)
    if extra is None:
        return None
    what = f"agon {command}" if command else "agon"
    return f"{what} needs the optional {extra} dependencies: pip install '{DISTRIBUTION}[{extra}]'"
