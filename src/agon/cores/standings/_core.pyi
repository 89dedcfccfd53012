from collections.abc import Container, Iterable, Mapping, Sequence
from typing import Any

BREAKERS: tuple[str, ...]

class Sums:
    def __init__(
        self,
        index: dict[str, int],
        by_bid: bool,
        breakers: tuple[str, ...],
        points_by_k: Mapping[int, Sequence[int]],
        points_scale: int,
    ) -> None: ...
    def add(
        self, i: int, points: int, vp: int, coins: int, bid: int, num: int, den: int
    ) -> None: ...
    def add_tables(
        self, tables: Iterable[list[tuple[str, int, int, int, bool]]]
    ) -> list[list[tuple[str, int, int, int, bool]]]: ...
    def result(self) -> list[tuple[int, int, int, int, int, int, int]]: ...

def round_seats(
    tables_data: list[Any],
    rank_of: dict[str, int],
    sizes: Container[int],
    vp_min: int,
    vp_max: int,
    coins_max: int,
    bid_max: int,
    table_keys: Container[str],
    result_keys: Container[str],
) -> (
    tuple[list[tuple[str, int, int, int, bool]], list[list[tuple[str, int, int, int, bool]]]] | None
): ...
def digest_bytes(round_number: int, entries: list[tuple[str, int, int, int, bool]]) -> bytes: ...
def within_caps(data: Any, max_nodes: int, max_depth: int, limit: int) -> bool: ...
def close_runs(keys: list[tuple[float | int, ...]], order: list[int]) -> list[tuple[int, int]]: ...

PASS_CRITERIA: tuple[str, ...]

class JsonScan:
    nodes: int
    rounds_at: int
    rounds_end: int
    guessed: bool
    def __init__(self, raw: bytes, max_nodes: int, max_depth: int) -> None: ...
    def head(self, rounds_last: bool = False) -> dict[str, Any] | None: ...

class EventPass(Sums):
    max_tables: int
    def __init__(
        self,
        index: dict[str, int],
        by_bid: bool,
        breakers: tuple[str, ...],
        points_by_k: Mapping[int, Sequence[int]],
        points_scale: int,
        names: list[str],
        name_order: list[int],
        sizes: Container[int],
        vp_min: int,
        vp_max: int,
        coins_max: int,
        bid_max: int,
    ) -> None: ...
    def add_round(
        self, tables_data: list[Any], round_number: int, counts: bool
    ) -> bytes | None: ...
    def read_rounds(self, scan: JsonScan) -> list[bytes] | None: ...
    def exact(self) -> bool: ...
    def order(self, chain: tuple[str, ...], lot_prefix: bytes) -> tuple[list[int], list[int]]: ...
    def table_text(
        self,
        title: str,
        chain: tuple[str, ...],
        shown: tuple[str, ...],
        ranked: list[int],
        decided: list[int],
    ) -> bytes | None: ...
    def share_floats(self) -> list[float]: ...
    def names_list(self) -> list[str]: ...
    def points_scale_value(self) -> int: ...

NAME_MAX: int

def plain_names(names: list[Any]) -> bool: ...
