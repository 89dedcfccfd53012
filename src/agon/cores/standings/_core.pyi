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
