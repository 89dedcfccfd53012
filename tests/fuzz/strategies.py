"""Hypothesis strategies for hostile input: event documents from the JSON Schema, mutations of
them, hostile YAML text, and hostile command-line values."""

from __future__ import annotations

import json
from typing import Any

import yaml
from hypothesis import strategies as st

from agon.schemas import load_schema

PLAYERS = ["Anna", "Ben", "Cleo", "Dario"]

#: Values that broke a layer once: huge and negative numbers, NaN, lone surrogates, controls,
#: bidi overrides, very long text, wrong types.
HOSTILE_SCALARS: list[Any] = [
    2**63,
    -(2**63) - 1,
    10**30,
    -101,
    501,
    float("nan"),
    float("inf"),
    1e308,
    "\ud800",
    "\udcff",
    "Anna\x00",
    "A\nB",
    "\u202eAnna",
    "\u2066x\u2069",
    "x" * 10_000,
    "",
    " ",
    True,
    None,
    [],
    {},
    "2018-05-12",
    0,
    -1,
]

hostile_scalar = st.sampled_from(HOSTILE_SCALARS) | st.integers() | st.text(max_size=30)


def event_schema() -> dict[str, Any]:
    return load_schema("event")


def from_schema(
    schema: dict[str, Any], root: dict[str, Any] | None = None
) -> st.SearchStrategy[Any]:
    """Documents valid by a JSON Schema, for the subset agon's schemas use (type, enum, oneOf,
    $ref, properties, required, additionalProperties, minItems, minLength, minimum).

    hypothesis-jsonschema 0.23.1 does not run with the pinned Hypothesis 6.170 (it calls a removed
    internal), so the strategy is built here; player names and numbers are drawn from small pools
    mixed with hostile ones, so that documents often refer to known players.
    """
    root = root or schema
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return st.deferred(lambda: from_schema(root["$defs"][name], root))
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "oneOf" in schema:
        return st.one_of([from_schema(s, root) for s in schema["oneOf"]])
    kind = schema.get("type")
    if kind == "string":
        pool = st.sampled_from([*PLAYERS, "bonn-2018", "ludolimpico-2015", "x"])
        text = pool | st.text(min_size=schema.get("minLength", 0), max_size=12)
        return text.filter(lambda t: len(t) >= schema.get("minLength", 0))
    if kind == "integer":
        low = schema.get("minimum")
        numbers = st.integers(min_value=low, max_value=600) | st.integers(min_value=low)
        return numbers
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(
            from_schema(schema.get("items", {"type": "string"}), root),
            min_size=schema.get("minItems", 0),
            max_size=max(5, schema.get("minItems", 0)),
        )
    if kind == "object":
        props = schema.get("properties", {})
        required = set(schema.get("required", ()))
        optional = {k: from_schema(v, root) for k, v in props.items() if k not in required}
        base = st.fixed_dictionaries(
            {k: from_schema(props[k], root) for k in sorted(required)}, optional=optional
        )
        extra = schema.get("additionalProperties", True)
        if extra is False:
            return base
        values = from_schema(extra, root) if isinstance(extra, dict) else hostile_scalar
        more = st.dictionaries(st.text(min_size=1, max_size=8), values, max_size=3)
        return st.tuples(base, more).map(lambda pair: {**pair[1], **pair[0]})
    return hostile_scalar


#: Documents valid by the JSON Schema (names and numbers unconstrained beyond it).
schema_documents = st.deferred(lambda: from_schema(event_schema()))

#: A small valid event (three players, one table) to mutate.
BASE: dict[str, Any] = {
    "name": "Fuzz Open",
    "ruleset": "bonn-2018",
    "seed": "s",
    "players": ["Anna", "Ben", "Cleo", {"name": "Dario", "club": "Bonn"}],
    "rounds": [
        {
            "tables": [
                {
                    "results": [
                        {"player": "Anna", "vp": 40, "coins": 3},
                        {"player": "Ben", "vp": 35},
                        {"player": "Cleo", "vp": 30, "coins": 1},
                        {"player": "Dario", "vp": 25},
                    ]
                }
            ]
        }
    ],
}


def _paths(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if len(path) > 8:
        return out
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += _paths(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            out += _paths(value, (*path, i))
    return out


def _replace(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(doc, dict):
        return {**doc, head: _replace(doc[head], rest, value)}
    copy = list(doc)
    copy[head] = _replace(doc[head], rest, value)
    return copy


def deep(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


@st.composite
def mutated_documents(draw: st.DrawFn) -> Any:
    """A valid event with one to three places replaced by hostile values, keys or structures."""
    doc: Any = json.loads(json.dumps(BASE))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        kind = draw(st.integers(0, 5))
        if kind == 0:
            value: Any = draw(hostile_scalar)
        elif kind == 1:
            value = deep(draw(st.sampled_from([10, 40, 900])))
        elif kind == 2:
            value = {
                draw(st.sampled_from(["vp", "name", "extra", "\ud800", "rounds"])): draw(
                    hostile_scalar
                )
            }
        elif kind == 3:
            value = [draw(hostile_scalar) for _ in range(draw(st.integers(0, 4)))]
        elif kind == 4:
            value = draw(st.sampled_from(PLAYERS))
        else:
            value = draw(st.integers(-(2**70), 2**70))
        doc = _replace(doc, path, value)
    return doc


def to_json(doc: Any) -> str:
    """JSON text, with NaN/Infinity and lone surrogates written the way a broken tool writes them."""
    return json.dumps(doc, allow_nan=True)


def to_yaml(doc: Any) -> str:
    try:
        return yaml.safe_dump(doc, allow_unicode=False)
    except (yaml.YAMLError, RecursionError):
        return to_json(doc)  # JSON is YAML too


def _bomb(levels: int) -> str:
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]")
    return "\n".join(lines) + f"\nname: E\nruleset: bonn-2018\nplayers: [*l{levels - 1}]\n"


YAML_SNIPPETS = [
    "1: one\nname: E\nruleset: bonn-2018\nplayers: [A, B, C]\n",
    "? [a, b]\n: x\n",
    "name: E\nruleset: bonn-2018\nplayers:\n  - name: A\n    born: 2001-01-01\n  - B\n  - C\n",
    "name: E\nruleset: bonn-2018\ndate: 2018-05-12 10:00:00\nplayers: [A, B, C]\n",
    "name: !!binary aGVsbG8=\n",
    "name: !!python/object:os.system x\n",
    "!!set {a, b}\n",
    "!!omap [a: 1]\n",
    "name: E\nseed: " + "9" * 5000 + "\n",
    "name: E\nplayers: [.nan, .inf, -.inf]\n",
    "players: " + "[" * 3000 + "]" * 3000 + "\n",
    "a: &a x\nb: *c\n",
    "a: 1\n---\nb: 2\n",
    "\t- tab\n",
    'name: "\\ud800"\nruleset: bonn-2018\nplayers: [A, B, C]\n',
    "name: 0x" + "f" * 100 + "\n",
    "name: 1_000_000_000_000_000_000_000\n",
    "%YAML 1.1\n---\nname: E\n",
    "name: [E\n",
    "",
    "~\n",
    _bomb(10),
    _bomb(4),
]


@st.composite
def hostile_yaml(draw: st.DrawFn) -> str:
    base = draw(st.sampled_from(YAML_SNIPPETS))
    if draw(st.booleans()):
        return base
    cut = draw(st.integers(0, len(base)))
    noise = draw(st.text(alphabet="&*!?:-[]{}|>'\"#%@` \n\t,.0123456789abc", max_size=12))
    return base[:cut] + noise + base[cut:]


@st.composite
def valid_documents(draw: st.DrawFn) -> Any:
    """Events that should load: 3–5 players (bonn-2018's table sizes; names from the whole of Unicode's letters, within the
    name rule), up to three rounds at one table, VP/coins in range, sometimes a breakdown."""
    names = draw(
        st.lists(
            st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=80),
            min_size=3,
            max_size=5,
            unique=True,
        )
    )
    rounds = []
    for _ in range(draw(st.integers(0, 3))):
        seats = draw(st.permutations(names))
        results = []
        for name in seats:
            vp = draw(st.integers(-100, 500))
            item: dict[str, Any] = {"player": name, "vp": vp, "coins": draw(st.integers(0, 500))}
            if draw(st.booleans()):
                item["breakdown"] = {"military": vp}
            results.append(item)
        rounds.append({"tables": [{"results": results}]})
    players: list[Any] = [
        {"name": n, "club": draw(st.text(max_size=10))} if draw(st.booleans()) else n for n in names
    ]
    return {
        "name": draw(st.sampled_from(names)),
        "ruleset": "bonn-2018",
        "players": players,
        "rounds": rounds,
    }


#: A whole event file: (suffix, text or bytes).
event_files = st.one_of(
    valid_documents().map(lambda d: (".json", to_json(d))),
    valid_documents().map(lambda d: (".yaml", to_yaml(d))),
    schema_documents.map(lambda d: (".json", to_json(d))),
    schema_documents.map(lambda d: (".yaml", to_yaml(d))),
    mutated_documents().map(lambda d: (".json", to_json(d))),
    mutated_documents().map(lambda d: (".yaml", to_yaml(d))),
    hostile_yaml().map(lambda t: (".yaml", t)),
    st.binary(max_size=200).map(lambda b: (".json", b)),
    st.integers(30, 6000).map(lambda n: (".json", '{"players": ' + "[" * n + "]" * n + "}")),
    st.text(max_size=200).map(lambda t: (".json", t)),
)
