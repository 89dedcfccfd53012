"""SQLAlchemy's compiled statements, shared by the engines of one test process.

SQLAlchemy compiles a statement to SQL once per dialect and keeps it in a cache: the engine's,
or a mapper's for the inserts and updates of a flush. The cache key holds the dialect *object*,
and every engine has a dialect of its own, so a new engine compiles every statement it runs
again. In production a process makes its engines once and compiles each statement once. In the
suite nearly every test makes new engines (a database of its own, an app of its own, each
command of a ``CliRunner``), so each test compiled again the statements the test before it had
compiled: about a tenth of the services', commands' and web tests' CPU (an aggregate sampling
profile, docs/dev-measurements.md).

A compiled statement is a pure function of the statement, the compile options in the cache key
and the dialect's configuration. Two dialects of the same class whose configuration is the same
(the settings given to it, what it read from the server on its first connection: every plain
value of its ``__dict__``, and the modules, classes and functions it holds) compile every
statement alike. This module makes each statement compile with the first such dialect of the
process (its *canonical* dialect), so the key is the same for every engine of that configuration,
and keeps it in one cache of the process (:data:`COMPILED`) instead of the engine's or mapper's:
the second engine finds the first one's compiled statement. An execution that asks for no
caching (``compiled_cache=None``) still gets none. The statement still runs on the
engine's own connection, with its own dialect's execution context; a dialect whose configuration
differs in anything has a canonical dialect of its own. Nothing else is shared: pools,
connections, events and results stay per engine.
"""

from __future__ import annotations

import functools
import types
import weakref
from collections.abc import Callable, Hashable
from typing import Any

from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.sql import elements
from sqlalchemy.util import LRUCache, langhelpers

#: How many compiled statements the process keeps: an engine keeps 500 by default and a mapper
#: 100, what one engine uses; this cache holds what all of them use.
CACHE_SIZE = 5000
#: The process's compiled statements, in place of each engine's and each mapper's cache.
COMPILED: LRUCache[Any, Any] = LRUCache(CACHE_SIZE)
#: Types whose values are the configuration itself.
_PLAIN = (type(None), bool, int, float, str, bytes)
#: Types whose values are kept by identity: the same module, class or function.
_BY_IDENTITY = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType)


def _value(value: object) -> Hashable:
    """A dialect attribute's part of its signature: plain values (and tuples, lists, sets and
    dicts of them) as they are, modules, classes and functions by identity, any other object by its class
    (helpers the dialect derives from its configuration: its identifier preparer, type compiler,
    memo of type processors)."""
    if isinstance(value, (*_PLAIN, *_BY_IDENTITY)):
        return value
    if isinstance(value, tuple | list):
        return (type(value), tuple(_value(v) for v in value))
    if isinstance(value, frozenset | set):
        return (type(value), tuple(sorted((_value(v) for v in value), key=repr)))
    if isinstance(value, dict):
        return (dict, tuple(sorted(((repr(k), _value(v)) for k, v in value.items()), key=repr)))
    return ("object of", type(value))


def _memoized(cls: type, name: str) -> bool:
    """Is ``name`` a memoized property of ``cls`` (a value the dialect works out from its
    configuration on first use, and keeps in its ``__dict__``)?"""
    return isinstance(getattr(cls, name, None), langhelpers.generic_fn_descriptor)


def signature(dialect: Dialect) -> tuple[Hashable, ...]:
    """What a dialect compiles by: its class and its configuration (see :func:`_value`), without
    the values it memoized so far (they follow from the rest, and one dialect may have used
    them before another)."""
    cls = type(dialect)
    return (
        cls,
        *sorted((k, _value(v)) for k, v in vars(dialect).items() if not _memoized(cls, k)),
    )


def share_compiled_statements() -> None:
    """Compile every statement with the canonical dialect of its dialect's signature, once per
    process (a no-op the second time)."""
    compile_w_cache: Callable[..., Any] = elements.ClauseElement._compile_w_cache
    if getattr(compile_w_cache, "shared", False):
        return
    canonical: dict[tuple[Hashable, ...], Dialect] = {}
    of: weakref.WeakKeyDictionary[Dialect, Dialect] = weakref.WeakKeyDictionary()

    def canonical_of(dialect: Dialect) -> Dialect:
        found = of.get(dialect)
        if found is None:
            found = of[dialect] = canonical.setdefault(signature(dialect), dialect)
        return found

    @functools.wraps(compile_w_cache)
    def shared(self: Any, dialect: Dialect, *, compiled_cache: Any, **kw: Any) -> Any:
        if compiled_cache is not None:  # None: this execution asked for no caching
            compiled_cache = COMPILED
        return compile_w_cache(self, canonical_of(dialect), compiled_cache=compiled_cache, **kw)

    shared.shared = True  # type: ignore[attr-defined]
    shared.unshared = compile_w_cache  # type: ignore[attr-defined]
    elements.ClauseElement._compile_w_cache = shared  # type: ignore[method-assign]
