from collections.abc import Iterable, Mapping, Sequence
from typing import Any

BOT_NAMES: tuple[str, ...]
EFFECTS: tuple[str, ...]
TRIGGERS: tuple[str, ...]
FRAME_NAMES: tuple[str, ...]

def _mt_check(seed: int, n: int, count: int) -> list[int]: ...

class Core:
    wonder_ids: tuple[str, ...]
    stage_ids: tuple[tuple[str, ...], ...]
    board_ids: tuple[str, ...]
    building_ids: tuple[str, ...]
    leader_ids: tuple[str, ...]
    building_triggers: tuple[str, ...]
    def __init__(self, tables: Mapping[str, Any]) -> None: ...
    def check(self, players: int, two_card: bool, leaders: bool) -> None: ...

class NGame:
    core: Core
    def __init__(
        self,
        core: Core,
        players: int,
        seed: int,
        two_card: bool = False,
        leaders: bool = False,
        max_turns: int = -1,
        trade: bool = False,
    ) -> None: ...
    @property
    def over(self) -> bool: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def turn(self) -> int: ...
    def current_player(self) -> int: ...
    def legal_count(self) -> int: ...
    def legal(self) -> list[str]: ...
    def apply_index(self, i: int) -> None: ...
    def play_random(self, seat_seeds: Iterable[int]) -> int: ...
    def play_bots(
        self,
        bots: Iterable[str],
        seat_seeds: Iterable[int],
        worlds: int | Sequence[int] = 8,
        depth: int | Sequence[int] = 3,
    ) -> list[int]: ...
    def stack(self) -> list[tuple[Any, ...]]: ...
    def state(self) -> tuple[Any, ...]: ...

def simulate_random(
    core: Core,
    players: int,
    games: int,
    seed: int,
    two_card: bool = False,
    leaders: bool = False,
    max_turns: int = -1,
) -> list[
    tuple[
        int,
        int,
        int,
        int,
        tuple[tuple[int, ...], ...],
        tuple[int, ...],
        tuple[int, ...],
        tuple[str, ...],
    ]
]: ...
def simulate(
    core: Core,
    players: int,
    games: int,
    seed: int,
    bots: Iterable[str],
    two_card: bool = False,
    leaders: bool = False,
    max_turns: int = -1,
    worlds: int = 8,
    depth: int = 3,
    trade: bool = False,
) -> list[
    tuple[
        int,
        int,
        int,
        int,
        tuple[tuple[int, ...], ...],
        tuple[int, ...],
        tuple[int, ...],
        tuple[str, ...],
    ]
]: ...
