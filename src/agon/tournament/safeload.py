"""One safe loader for every JSON and YAML document agon reads from a user.

A hostile or broken file must end in one :class:`~agon.errors.InvalidInput` naming the file, never
in a traceback or a hang. The loader therefore caps what a tournament never needs:

- size: at most :data:`MAX_BYTES` (16 MiB; a 1,000-player event with 20 rounds is under 2 MiB);
- nesting: at most :data:`MAX_DEPTH` (32) levels (an event file needs 6);
- expanded size: at most :data:`MAX_NODES` values after YAML aliases are expanded (refuses the
  "billion laughs" bomb before anything walks it), and at most :data:`MAX_ALIASES` aliases;
- numbers: integers of at most 18 digits (signed 64-bit, what every database stores), finite
  floats only (no NaN/Infinity, which PostgreSQL's JSON refuses);
- text: valid Unicode (no lone surrogates), mapping keys are strings.

YAML is read with the safe loader minus the implicit timestamp rule: ``date: 2018-05-12`` stays the
text ``"2018-05-12"`` (as in YAML 1.2 and JSON), so dates never become objects a database cannot
store. Tags that build other Python types (``!!binary``, ``!!set``, ``!!omap``…) are refused.
"""

from __future__ import annotations

import functools
import json
import math
import re
from pathlib import Path
from typing import Any, BinaryIO

from agon.errors import InvalidInput

MAX_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 32
MAX_NODES = 1_000_000
MAX_ALIASES = 1_000
MAX_INT_DIGITS = 18
_INT_LIMIT = 2**63
_DIGITS_LIMIT = 10**MAX_INT_DIGITS

_SURROGATE = re.compile("[\ud800-\udfff]")


def is_yaml_path(path: Path) -> bool:
    return path.suffix.lower() in (".yaml", ".yml")


def read_text(path: Path, *, what: str = "file", limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of ``path``, at most ``limit`` bytes (:data:`MAX_BYTES`), read in chunks of
    at most :data:`CHUNK_BYTES`: an endless input (``/dev/urandom``, a pipe that never closes
    its end) stops at the cap.

    Raises:
        InvalidInput: missing, unreadable, too large, not UTF-8 or binary (a NUL byte).
    """
    try:
        with path.open("rb") as fh:
            raw = _read_capped(fh, limit)
    except FileNotFoundError:
        raise InvalidInput(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise InvalidInput(f"{path}: a folder, not a {what}") from None
    except OSError as exc:
        raise InvalidInput(f"{path}: cannot read {what}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL in the name
        raise InvalidInput(f"{str(path)!r}: not a possible file name") from None
    return decode_text(raw, origin=str(path), what=what, limit=limit)


def read_stream(stream: BinaryIO, *, origin: str, what: str, limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of an open binary stream (standard input), under :func:`read_text`'s caps."""
    return decode_text(_read_capped(stream, limit), origin=origin, what=what, limit=limit)


#: How much :func:`read_text` reads at a time.
CHUNK_BYTES = 1024 * 1024


def _read_capped(stream: BinaryIO, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of ``stream`` (one more than allowed tells "too large")."""
    chunks: list[bytes] = []
    left = limit + 1
    while left > 0:
        chunk = stream.read(min(CHUNK_BYTES, left))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit} bytes"


def decode_text(raw: bytes, *, origin: str, what: str = "file", limit: int = MAX_BYTES) -> str:
    """``raw`` (at most ``limit + 1`` bytes read) as text.

    Raises:
        InvalidInput: more than ``limit`` bytes, not UTF-8, or binary (a NUL byte).
    """
    if len(raw) > limit:
        raise InvalidInput(f"{origin}: {what} larger than {_size(limit)}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            f"{origin}: not UTF-8 text (byte {exc.start + 1}); save the {what} as UTF-8"
        ) from None
    if "\x00" in text:
        raise InvalidInput(
            f"{origin}: holds a NUL byte (byte {text.index(chr(0)) + 1}): binary data, not a text file"
        )
    return text


def load_document(path: Path) -> Any:
    """Read a JSON document (YAML when the name ends in ``.yaml``/``.yml``) under the caps above.

    Raises:
        InvalidInput: naming the file and, where known, the line and the problem.
    """
    text = read_text(path)
    if is_yaml_path(path):
        return loads_yaml(text, origin=str(path))
    return loads_json(text, origin=str(path))


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _NumberTooLarge(text)
    return int(text)


#: a ``\\u`` escape of a surrogate: in a text decoded from UTF-8 the one way to a lone surrogate
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _plain_json(text: str) -> bool:
    """True if nothing decoded from ``text`` can hold a lone surrogate: the text itself holds none
    (free for ASCII text) and it has no ``\\u`` escape of one (a search for a fixed string, then a
    regular expression only if needed)."""
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return False
    return "\\u" not in text or _SURROGATE_ESCAPE.search(text) is None


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotFinite(text)
    return value


def _within_caps(data: Any) -> bool:
    """Depth, value count and integers of decoded JSON within the caps (the compiled standings
    core walks a big event file several times faster, with the same answer)."""
    core = _caps_core()
    if core is not None:
        return bool(core.within_caps(data, MAX_NODES, MAX_DEPTH, _DIGITS_LIMIT))
    return _within_caps_python(data)


@functools.cache
def _caps_core() -> Any:
    """:mod:`agon.cores.standings`, or ``None`` when agon was built without its cores."""
    try:
        import agon.cores.standings as core
    except ImportError:
        return None
    return core


def _within_caps_python(
    data: Any,
    max_nodes: int = MAX_NODES,
    max_depth: int = MAX_DEPTH,
    limit: int = _DIGITS_LIMIT,
) -> bool:
    """:func:`_within_caps` in Python, level by level (no paths built)."""
    level: list[Any] = [data]
    nodes = 0
    depth = 0
    while level:
        nodes += len(level)
        if nodes > max_nodes or depth > max_depth:
            return False
        below: list[Any] = []
        for value in level:
            kind = type(value)
            if kind is dict:
                below.extend(value.values())
            elif kind is list:
                below.extend(value)
            elif kind is int and not -limit < value < limit:
                return False  # more digits than _parse_int allows
        level = below
        depth += 1
    return True


def _parse_constant(text: str) -> Any:
    raise _NotFinite(text)


class _NumberTooLarge(Exception):
    pass


class _NotFinite(Exception):
    pass


def _short(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def loads_json(text: str, *, origin: str = "<json>") -> Any:
    """Decode JSON text under the caps of this module.

    Raises:
        InvalidInput: malformed, too deep, a too large number, NaN/Infinity, a lone surrogate.
    """
    if len(text) > MAX_BYTES:
        raise InvalidInput(f"{origin}: larger than {MAX_BYTES // (1024 * 1024)} MiB")
    if _plain_json(text):
        # fast path: no lone surrogate can be in it, and a float that overflows to infinity is
        # refused as it is decoded; left to check are depth, size and the integers
        try:
            data = json.loads(text, parse_float=_parse_float, parse_constant=_parse_constant)
        except (json.JSONDecodeError, _NotFinite, RecursionError, ValueError):
            pass  # the checked path below names the problem
        else:
            if _within_caps(data):
                return data
    try:
        data = json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            f"{origin}: malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    except _NumberTooLarge as exc:
        raise InvalidInput(
            f"{origin}: number {_short(str(exc))} is too large (at most {MAX_INT_DIGITS} digits)"
        ) from None
    except _NotFinite as exc:
        raise InvalidInput(f"{origin}: {exc} is not a number JSON allows") from None
    except RecursionError:
        raise InvalidInput(f"{origin}: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        raise InvalidInput(f"{origin}: malformed JSON: {_short(str(exc), 60)}") from None
    check_document(data, origin=origin)
    return data


@functools.cache
def _safe_loader() -> type[Any]:
    """The safe YAML loader class, built on first use (PyYAML is imported only for YAML files)."""
    import yaml

    class _SafeLoader(yaml.SafeLoader):
        """The safe YAML loader with caps on aliases and depth, and no implicit timestamps."""

        def __init__(self, stream: str) -> None:
            super().__init__(stream)
            self.aliases = 0
            self.depth = 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                self.aliases += 1
                if self.aliases > MAX_ALIASES:
                    raise InvalidInput(f"more than {MAX_ALIASES} aliases (*name)")
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise InvalidInput(f"nested deeper than {MAX_DEPTH} levels")
            try:
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

        def construct_yaml_int(self, node: Any) -> Any:
            digits = str(node.value).replace("_", "").lstrip("+-")
            if (
                len(digits) > MAX_INT_DIGITS + 2
            ):  # room for 0x/0o prefixes; the value is checked later
                raise InvalidInput(
                    f"number {_short(str(node.value))} is too large (at most {MAX_INT_DIGITS} digits)"
                )
            return super().construct_yaml_int(node)

        def construct_as_text(self, node: Any) -> Any:
            return self.construct_scalar(node)

        def construct_refused(self, node: Any) -> Any:
            raise InvalidInput(f"the tag {node.tag!r} is not allowed (plain YAML values only)")

    _SafeLoader.yaml_implicit_resolvers = {
        key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    _SafeLoader.add_constructor("tag:yaml.org,2002:int", _SafeLoader.construct_yaml_int)
    _SafeLoader.add_constructor("tag:yaml.org,2002:timestamp", _SafeLoader.construct_as_text)
    for _tag in ("binary", "set", "omap", "pairs"):
        _SafeLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", _SafeLoader.construct_refused)

    return _SafeLoader


def loads_yaml(text: str, *, origin: str = "<yaml>") -> Any:
    """Decode YAML text (one document) under the caps of this module.

    Raises:
        InvalidInput: malformed YAML (with line and column), a bomb, a too large number, etc.
    """
    if len(text) > MAX_BYTES:
        raise InvalidInput(f"{origin}: larger than {MAX_BYTES // (1024 * 1024)} MiB")
    import yaml

    loader = _safe_loader()(text)
    try:
        data = loader.get_single_data()
    except InvalidInput as exc:
        raise InvalidInput(f"{origin}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise InvalidInput(f"{origin}: malformed YAML{at}: {problem}") from None
    except (RecursionError, ValueError, OverflowError, TypeError) as exc:
        raise InvalidInput(f"{origin}: malformed YAML: {type(exc).__name__}") from None
    finally:
        loader.dispose()
    check_document(data, origin=origin)
    return data


def _key_text(key: str) -> str:
    """A mapping key for an error message: as it is if printable, else quoted with escapes (a key
    holding a newline or a lone surrogate must not break the one-line message)."""
    return key if key and key.isprintable() and key.strip() == key else repr(key)


def _path_text(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{_key_text(part)}" if out else _key_text(part)
    return out or "top level"


def check_document(data: Any, *, origin: str = "<document>") -> None:
    """Check a decoded document holds plain JSON values only, within the caps of this module.

    Walks iteratively (no recursion) and counts values, so shared YAML aliases are counted as often
    as they would be expanded.

    Raises:
        InvalidInput: naming ``origin`` and the place of the first problem.
    """
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    nodes = 0
    while stack:
        value, path = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise InvalidInput(
                f"{origin}: more than {MAX_NODES:,} values (after expanding aliases)"
            )
        if len(path) > MAX_DEPTH:
            raise InvalidInput(f"{origin}: nested deeper than {MAX_DEPTH} levels")
        if value is None or isinstance(value, bool):
            continue
        if isinstance(value, int):
            if not -_INT_LIMIT < value < _INT_LIMIT:
                raise InvalidInput(
                    f"{origin}: {_path_text(path)}: number {_short(str(value))} is too large"
                )
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise InvalidInput(f"{origin}: {_path_text(path)}: {value} is not a number")
        elif isinstance(value, str):
            if _SURROGATE.search(value):
                raise InvalidInput(
                    f"{origin}: {_path_text(path)}: text with a lone surrogate (invalid Unicode)"
                )
        elif isinstance(value, list):
            stack.extend((item, (*path, i)) for i, item in enumerate(value, start=1))
        elif isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise InvalidInput(
                        f"{origin}: {_path_text(path)}: key {key!r} is not text (quote it in YAML)"
                    )
                if _SURROGATE.search(key):
                    raise InvalidInput(
                        f"{origin}: {_path_text(path)}: key with a lone surrogate (invalid Unicode)"
                    )
                stack.append((item, (*path, key)))
        else:
            raise InvalidInput(
                f"{origin}: {_path_text(path)}: a {type(value).__name__} is not a plain value "
                "(text, number, true/false, list or object)"
            )
