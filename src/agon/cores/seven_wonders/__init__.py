"""Compiled core of agon's 7 Wonders engine (see ``agon.games.seven_wonders.fast``).

The card and wonder tables come from agon's data files through :func:`load_tables`; this
package holds no rules data of its own.
"""

from agon.cores.seven_wonders._core import (
    IsmctsSearch,
    NativeGame,
    heuristic_games,
    heuristic_values,
    import_game,
    kept_entries,
    kept_masks,
    load_chain_targets,
    load_heuristic,
    load_tables,
    mt_batch_draws,
    mt_draws,
    mt_state_of,
    mt_state_u64,
    payment_bound,
    payment_options,
    payment_options_kept,
    play_random,
    rollouts,
    rollouts_summed,
    search_candidates,
    simulate_bots,
    simulate_random,
    sm_draws,
)

__all__ = [
    "IsmctsSearch",
    "NativeGame",
    "heuristic_games",
    "heuristic_values",
    "import_game",
    "kept_entries",
    "kept_masks",
    "load_chain_targets",
    "load_heuristic",
    "load_tables",
    "mt_batch_draws",
    "mt_draws",
    "mt_state_of",
    "mt_state_u64",
    "payment_bound",
    "payment_options",
    "payment_options_kept",
    "play_random",
    "rollouts",
    "rollouts_summed",
    "search_candidates",
    "simulate_bots",
    "simulate_random",
    "sm_draws",
]
