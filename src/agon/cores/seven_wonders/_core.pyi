"""Type stubs of the Cython module ``agon.cores.seven_wonders._core``."""

from collections.abc import Mapping, Sequence
from typing import Literal, overload

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
@overload
def mt_state_u64(seed: int, other: None = None) -> tuple[int, ...]: ...
@overload
def mt_state_u64(seed: int, other: int) -> tuple[tuple[int, ...], tuple[int, ...]]: ...
@overload
def sm_draws(
    seed: int, count: int, below: int = 0, floats: Literal[False] = False
) -> list[int]: ...
@overload
def sm_draws(seed: int, count: int, below: int = 0, *, floats: Literal[True]) -> list[float]: ...
def mt_draws(
    seed: int, count: int, below: int = 0, lockstep: bool = False
) -> list[float] | list[int]: ...
def mt_batch_draws(seeds: list[int], count: int) -> list[list[float]]: ...
@overload
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
    count: Literal[False] = False,
) -> tuple[tuple[int, int], ...]: ...
@overload
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
    count: Literal[True],
) -> int: ...
def kept_masks() -> list[int]: ...
def kept_entries(n: int) -> int: ...
def payment_options_kept(
    cost: Sequence[int],
    own_fixed: Sequence[int],
    own_choices: Sequence[int],
    left_fixed: Sequence[int],
    left_choices: Sequence[int],
    right_fixed: Sequence[int],
    right_choices: Sequence[int],
    price_left: Sequence[int],
    price_right: Sequence[int],
    budget: int,
) -> tuple[tuple[tuple[int, int], ...] | None, tuple[tuple[int, int], ...] | None]: ...
def payment_bound(
    cost: Sequence[int],
    own_fixed: Sequence[int],
    own_choices: Sequence[int],
    left_fixed: Sequence[int],
    left_choices: Sequence[int],
    right_fixed: Sequence[int],
    right_choices: Sequence[int],
    price_left: Sequence[int],
    price_right: Sequence[int],
    budget: int,
) -> tuple[int, bool]: ...
def play_random(players: int, seed: int, generator: int = 0) -> tuple[int, list[ScoreRow]]: ...
def simulate_random(
    players: int, games: int, seed: int, generator: int = 0
) -> tuple[int, list[int], list[float]]: ...
def load_chain_targets(targets: list[int]) -> None: ...
def load_heuristic(weights: list[float]) -> None: ...
def heuristic_games(
    players: int, games: int, seed: int, weights: list[list[float] | None]
) -> list[list[tuple[int, int]]]: ...
def simulate_bots(
    players: int, games: int, seed: int, kinds: Sequence[int], generator: int = 0
) -> tuple[int, list[int], list[float]]: ...
def import_game(state: tuple[object, ...]) -> NativeGame: ...
def rollouts(base: NativeGame, player: int, cands: list[Act], seed: int) -> list[float]: ...
def rollouts_summed(
    base: NativeGame, player: int, cands: list[Act], seeds: list[int]
) -> list[float]: ...
def heuristic_values(
    game: NativeGame, player: int, seed: int, weights: list[float] | None = None
) -> tuple[list[float], Act]: ...
def search_candidates(
    ng: NativeGame,
    player: int,
    width: int,
    distinct: bool = False,
    own_weights: list[float] | None = None,
    opp_weights: list[float] | None = None,
    listed: bool = False,
) -> list[Act]: ...

class NativeGame:
    def __init__(
        self,
        players: int,
        seed: int,
        wonders: Sequence[int] | None = None,
        sides: Sequence[int] | None = None,
        guilds: Sequence[int] | None = None,
        generator: int = 0,
    ) -> None: ...
    @property
    def over(self) -> bool: ...
    @property
    def phase(self) -> str: ...
    def to_act(self) -> list[int]: ...
    def clone(self) -> NativeGame: ...
    def legal(self, player: int) -> list[Act]: ...
    def random_pick(self, player: int, seed: int) -> Act | None: ...
    def step(self, actions: Mapping[int, Act]) -> None: ...
    def state(self) -> tuple[object, ...]: ...
    def payments(self, player: int, cost: Sequence[int]) -> tuple[tuple[int, int], ...]: ...
    def scores(self) -> list[ScoreRow]: ...

class IsmctsSearch:
    def __init__(
        self,
        game: NativeGame,
        player: int,
        seen: dict[int, list[int]],
        pool: list[int],
        unseen: list[int],
        guild_pop: list[int],
        guild_k: int,
        seed: int,
        width: int,
        exploration: float,
        bias: float,
        margin_scale: float = ...,
        noise: float = ...,
        widen: int = ...,
        distinct: bool = ...,
        own_weights: list[float] | None = ...,
        opp_weights: list[float] | None = ...,
        opp_noise: float | None = ...,
    ) -> None: ...
    @property
    def candidates(self) -> list[Act]: ...
    @property
    def totals(self) -> list[float]: ...
    @property
    def rounds(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    def run(self, rounds: int) -> None: ...
