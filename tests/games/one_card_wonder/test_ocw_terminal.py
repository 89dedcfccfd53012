"""``agon ocw play``: what the terminal shows, scripted through CliRunner (issue 11)."""

from __future__ import annotations

import re

from click.testing import CliRunner
from ocw_helpers import setup

from agon.commands import ocw_terminal as terminal
from agon.commands.ocw import group
from agon.games.one_card_wonder.content import Cost
from agon.games.one_card_wonder.engine import Game, Variant

L = Variant(leaders=True)


def play(*args: str, answers: list[str], zeros: int = 3000) -> str:
    text = "\n".join([*answers, *["0"] * zeros]) + "\n"
    result = CliRunner().invoke(group, ["play", *args], input=text)
    assert result.exit_code == 0, result.output
    return result.output


def test_table_shows_stage_costs_arrows_buildings_board_and_own_leader() -> None:
    out = play("--players", "3", "--seed", "1", "--variant", "leaders", answers=[])
    me = Game.new(3, 1, L).players[0]
    assert me.leader is not None
    assert f"leader (hidden) {terminal.leader_text(me.leader)}" in out
    chosen = re.search(r"seat 0 \(you\).*\n  wonder .* \((\w+)\), level", out)
    assert chosen is not None
    wonder = Game.new(3, 1, L).content.wonder(chosen.group(1))
    arrowed = next(st for st in wonder.stages if st.after)
    line = f"{wonder.id}:{arrowed.id} {terminal.cost_text(arrowed.cost)} <- {' + '.join(arrowed.after)}"
    assert line in out
    building = wonder.buildings[0]
    assert f"{building.id} ({building.names.en}) {terminal.cost_text(building.cost)}" in out
    assert building.text in out
    assert re.search(r"  board \w+ \(\w+\):\n      \[.\] \w+ \(", out)  # board contents


def test_revealed_leader_is_announced_before_its_tribute() -> None:
    out = play("--players", "3", "--seed", "1", "--variant", "leaders", answers=[])
    first_reveal = out.index("revealed leader ")
    line = out[first_reveal : out.index("\n", first_reveal)]
    assert "Defeat cost: " in line
    name = line.split("revealed leader ")[1].split(":")[0]
    # the first tribute step (a bot's or the human's prompt) comes after the announcement
    first_tribute = min(
        m.start() for m in re.finditer(rf"seat \d: tribute|defeat {name} of seat", out)
    )
    assert first_tribute > first_reveal


def test_who_holds_sappho_is_never_shown() -> None:
    """Sappho's holder is never asked in a leader window; the others' passes stay silent."""
    seed = next(
        s
        for s in range(50)
        if any(
            p.leader is not None and p.leader.id == "sappho" for p in Game.new(3, s, L).players[1:]
        )
    )
    out = play("--players", "3", "--seed", str(seed), "--variant", "leaders", answers=[])
    assert not re.search(r"^seat \d: pass$", out, re.M)
    assert "leader: hidden" in out


def test_back_undoes_the_last_choice() -> None:
    game = Game.new(3, 4)
    offered = [d[0].id for d in game.display if d[2] is None]
    out = play("--players", "3", "--seed", "4", answers=[f"wonder {offered[0]}", "back", "1"])
    assert "back: your last choice is undone" in out
    assert out.count("choose your wonder") >= 2
    m = re.search(r"seat 0 \(you\).*\n  wonder .* \((\w+)\), level", out)
    assert m is not None and m.group(1) != offered[0]


def test_back_cannot_undo_a_draw() -> None:
    out = play("--players", "3", "--seed", "4", answers=["0", "0", "produce", "back"])
    assert "back: nothing to undo" in out


def test_errors_give_the_reason() -> None:
    out = play("--players", "3", "--seed", "4", answers=["0", "0", "99", "dance", "stage x:s1"])
    assert "not possible: no option 99 (0.." in out
    assert "not possible: dance: action 'dance': unknown verb" in out
    assert "not possible: stage x:s1: 'stage' is not a choice now (choose: " in out


def test_why_not_explains_stages_and_buildings() -> None:
    g = setup(stores=("SS", ""))
    g.apply("build")
    assert "need s1a and s1b built first" in terminal.why_not(g, 0, "stage pharos:s2a")
    assert "cannot pay 1 knowledge + 1 stone with 2 stone" in terminal.why_not(
        g, 0, "stage pharos:s1c"
    )
    assert "is not your wonder" in terminal.why_not(g, 0, "stage zeus:s1a")
    assert "has no stage" in terminal.why_not(g, 0, "stage pharos:s9")
    assert terminal.why_not(g, 0, "stage pharos:s1a") == ""


def test_payment_prompt_names_what_it_pays_for() -> None:
    g = setup(stores=("SS$", ""))
    g.apply("build")
    g.apply("stage pharos:s1a")  # SS with SS$ in store: stone or coin for each unit
    assert g.stack[-1][0] == "pay"
    text = terminal.prompt(g, 0)
    cost = terminal.cost_text(Cost.parse("SS"))
    assert text.startswith(f"pay for stage pharos:s1a (cost {cost}): still owed 2 stone")


def test_trade_prompts_in_play() -> None:
    out = play("--players", "4", "--seed", "2", "--variant", "trade", answers=[], zeros=4000)
    assert "trade (seat 1 is on turn and may not take part): offer one unit" in out
    g = setup(n=4, variant=Variant(trade=True), stores=("", "W", "C", ""),
              wonders=("pharos", "zeus", "apollo", "artemis"),
              boards=("triumph", "harmony", "dawn", "valour"))  # fmt: skip
    g.apply("offer 2 wood for clay")
    assert terminal.prompt(g, 2) == "seat 1 offers you 1 wood for 1 clay: accept or decline"
