"""The ``tabletop`` command: games, demo, play, diagram."""

import io

import pytest
from tabletop._cli import main
from tabletop._cli._play import demo, play
from tabletop.games import available


def test_games_lists_every_installed_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    listed = [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == available()
    assert "sample" in listed


def test_demo_prints_a_full_log_with_metadata_and_the_result() -> None:
    out = io.StringIO()
    state = demo("sample", seed=42, players=2, out=out)
    text = out.getvalue()
    assert state.result is not None
    assert f"result: {state.result.value}" in text
    assert "AddAmount" in text and "prior_total" in text
    assert text.count("\n#") + text.startswith("#") == state.action_count


def test_demo_is_deterministic() -> None:
    first, second = io.StringIO(), io.StringIO()
    demo("sample", seed=5, players=3, out=first)
    demo("sample", seed=5, players=3, out=second)
    assert first.getvalue() == second.getvalue()


def test_play_lets_a_human_pick_numbered_actions() -> None:
    out = io.StringIO()
    # Always choose option 5 (AddAmount 5) when offered, so the game ends quickly.
    state = play("sample", seed=1, players=2, seats=["human"], stdin=io.StringIO("x\n9\n5\n" * 40), out=out)
    text = out.getvalue()
    assert state.result is not None
    assert "p1 to play" in text and "not a choice" in text


def test_diagram_prints_mermaid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", "sample"]) == 0
    assert "StartOfTurn --> EndOfGame" in capsys.readouterr().out


def test_unknown_game_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", "no-such-game"]) == 2
    assert "no installed game named 'no-such-game'" in capsys.readouterr().err


def test_play_shows_a_human_only_what_their_seat_may_see() -> None:
    out = io.StringIO()
    state = play("go-fish", seed=3, players=2, seats=["human"], stdin=io.StringIO("1\n" * 200), out=out)
    text = out.getvalue()
    assert state.result is not None and "you: " in text and "deck_count" in text
    draws = [line for line in text.splitlines() if "DrawCard" in line or "DealCard" in line]
    theirs = [line for line in draws if " p2 " in line or '"to":"p2"' in line]
    assert theirs and all('"outcome":{' not in line for line in theirs)  # the opponent's cards are redacted
    assert any('"outcome":{' in line for line in draws if line not in theirs)  # the human's own show
    others = [line for line in text.splitlines() if line.startswith("  others: ")]
    assert others and not any('"hand":[' in line for line in others)  # only p2's hand_count shows
