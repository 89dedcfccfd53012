"""Type stubs of the Cython module ``sevenw_core._core``."""

from collections.abc import Mapping, Sequence

Act = tuple[int, int, int, int]
ScoreRow = tuple[int, int, int, int, int, int, int, int, int, int]

def load_tables(
    cards: list[list[int]],
    wonders: list[list[int]],
    decks: list[list[int]],
    guilds: list[int],
    military_win: Sequence[int],
    discard_coins: int,
) -> None: ...
def mt_state_of(seed: int) -> tuple[int, ...]: ...
def mt_draws(seed: int, count: int, below: int = 0) -> list[float] | list[int]: ...
def payment_options(
    cost: Sequence[int],
    own_fixed: Sequence[int],
    own_choices: Sequence[int],
    left_fixed: Sequence[int],
    left_choices: Sequence[int],
    right_fixed: Sequence[int],
    right_choices: Sequence[int],
    price_left: Sequence[int],
    price_right: Sequence[int],
) -> tuple[tuple[int, int], ...]: ...
def play_random(players: int, seed: int) -> tuple[int, list[ScoreRow]]: ...
def simulate_random(players: int, games: int, seed: int) -> tuple[int, list[int], list[float]]: ...

class NativeGame:
    def __init__(
        self,
        players: int,
        seed: int,
        wonders: Sequence[int] | None = None,
        sides: Sequence[int] | None = None,
        guilds: Sequence[int] | None = None,
    ) -> None: ...
    @property
    def over(self) -> bool: ...
    @property
    def phase(self) -> str: ...
    def to_act(self) -> list[int]: ...
    def legal(self, player: int) -> list[Act]: ...
    def step(self, actions: Mapping[int, Act]) -> None: ...
    def state(self) -> tuple[object, ...]: ...
    def payments(self, player: int, cost: Sequence[int]) -> tuple[tuple[int, int], ...]: ...
    def scores(self) -> list[ScoreRow]: ...
