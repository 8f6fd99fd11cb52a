"""Simulation over several processes and on a Ray cluster: the same report, a progress bar."""

from __future__ import annotations

import io
import json
import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tabletop import AnyState, GameConfig, GameEngine
from tabletop._cli import main
from tabletop.bots import Bot, RandomBot
from tabletop.games import load
from tabletop.simulation import Invariant, Step, bot_factory, default_invariants, simulate
from tabletop.simulation._batch import GamePlan, play_batch
from tabletop.simulation._parallel import BATCH_GAMES, batches

TIMINGS = {"elapsed_seconds", "actions_per_second", "engine_us_per_action", "bot_seconds", "check_seconds"}
"""The JSON report's fields that measure time (they differ from run to run)."""


def _untimed(text: str) -> list[str]:
    """The summary table without its two timing lines."""
    return [line for line in text.splitlines() if not line.startswith(("actions ", "time "))]


@pytest.mark.parametrize(("name", "games"), [("tic-tac-toe", 23), ("go-fish", 5), ("sample", 9)])
def test_the_games_are_the_same_whatever_the_number_of_processes(name: str, games: int) -> None:
    one = simulate(name, games=games, seed=7, schemas=None)
    for jobs in (2, 3):
        spread = simulate(name, games=games, seed=7, schemas=None, jobs=jobs)
        assert spread.records == one.records
        assert spread.outcomes == one.outcomes and spread.invariants == one.invariants
        assert spread.engine_seconds > 0 and spread.check_seconds > 0


def test_workers_play_with_factories_and_invariants_defined_anywhere() -> None:
    """Workers are forked: closures (not picklable) reach them; a broken invariant is reported in order."""
    seen: list[int] = []

    def stubborn(engine: GameEngine[AnyState, GameConfig], seed: int) -> Bot[AnyState, GameConfig]:
        seen.append(seed)
        return RandomBot(engine, seed + 1)

    def short(step: Step) -> None:
        if step.result.state.action_count > 6:
            msg = "games must stay short"
            raise AssertionError(msg)

    checks = [Invariant("short", short)]
    one = simulate("tic-tac-toe", games=12, seed=2, bot=stubborn, invariants=checks)
    two = simulate("tic-tac-toe", games=12, seed=2, bot=stubborn, invariants=checks, jobs=2)
    assert two.records == one.records and two.bot == "stubborn"
    assert len(seen) == 24  # the parent built 24 bots in the first run; the workers' are their own
    problems = [record.problem for record in two.problems]
    assert problems and all(problem is not None and "invariant short" in problem for problem in problems)


def test_progress_is_reported_in_the_calling_process_up_to_the_last_game() -> None:
    calls: list[tuple[int, int]] = []
    simulate(
        "tic-tac-toe", games=30, seed=1, schemas=None, jobs=2, progress=lambda d, t: calls.append((d, t))
    )
    assert calls[-1] == (30, 30)
    assert all(total == 30 for _, total in calls)
    done = [d for d, _ in calls]
    assert done == sorted(done) and len(set(done)) == len(done) and len(calls) >= 2


@pytest.mark.parametrize(("games", "workers"), [(1, 2), (7, 2), (100, 2), (1000, 3), (100_000, 8)])
def test_batches_cover_every_game_once_in_order(games: int, workers: int) -> None:
    split = batches(games, workers)
    assert [index for batch in split for index in batch] == list(range(games))
    assert all(0 < len(batch) <= BATCH_GAMES for batch in split)
    assert len(split) >= min(games, 4 * workers)


@pytest.mark.parametrize("name", ["tic-tac-toe", "go-fish"])
def test_a_plan_still_travels_to_ray_workers_after_games_ran_in_this_process(name: str) -> None:
    """Ray ships the plan with cloudpickle: the default checks must survive it once their engine ran."""
    cloudpickle = pytest.importorskip("cloudpickle")
    definition = load(name)
    checks, _ = default_invariants(definition, schemas=None)
    plan = GamePlan(definition, 2, bot_factory("random"), tuple(checks), 500, 3, None)
    here = play_batch(plan, range(3))  # the engines behind the checks have run in this process
    travelled = pickle.loads(cloudpickle.dumps(plan))
    assert [check.name for check in travelled.checks] == [check.name for check in checks]
    assert play_batch(travelled, range(3)).records == here.records


def test_batches_of_no_games_are_none() -> None:
    assert batches(0, 2) == []


def test_wrong_parallel_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        simulate("sample", games=1, jobs=0)
    with pytest.raises(ValueError, match="not both"):
        simulate("sample", games=1, jobs=2, ray="auto")


def test_without_ray_installed_the_error_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` meets when it is not installed
    with pytest.raises(ImportError, match=r"tabletop-common\[ray\]"):
        simulate("sample", games=1, ray="auto")


def test_the_command_reports_the_same_with_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one_json, two_json = tmp_path / "one.json", tmp_path / "two.json"
    base = ["simulate", "tic-tac-toe", "-n", "16", "--seed", "5", "--no-schemas"]
    assert main([*base, "--json", str(one_json)]) == 0
    one = capsys.readouterr()
    assert main([*base, "--json", str(two_json), "--jobs", "2"]) == 0
    two = capsys.readouterr()
    assert _untimed(two.out.replace(str(two_json), str(one_json))) == _untimed(one.out)
    first, second = json.loads(one_json.read_text()), json.loads(two_json.read_text())
    assert {k: v for k, v in first.items() if k not in TIMINGS} == {
        k: v for k, v in second.items() if k not in TIMINGS
    }
    assert one.err == two.err == ""  # not a terminal, no --progress: no bar


def test_the_progress_bar_is_drawn_on_stderr_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "tic-tac-toe", "-n", "12", "--no-schemas", "--jobs", "2", "--progress"]) == 0
    captured = capsys.readouterr()
    frames = captured.err.split("\r")[1:]
    assert frames and frames[-1] == "tic-tac-toe [##############################] 12/12\n"
    assert all(frame.startswith("tic-tac-toe [") for frame in frames)
    assert "[" not in captured.out.splitlines()[0]  # the summary itself is on stdout, bar-free


@pytest.mark.parametrize("jobs", ["-1", "two"])
def test_the_command_refuses_a_bad_job_count(jobs: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "tic-tac-toe", "--jobs", jobs])
    assert "--jobs" in capsys.readouterr().err


def test_jobs_and_ray_do_not_go_together(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "tic-tac-toe", "--jobs", "2", "--ray", "auto"])
    assert "not allowed with argument" in capsys.readouterr().err


_HOLDER = """
import sys, ray
context = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
print(context.address_info["gcs_address"], flush=True)
sys.stdin.read()
ray.shutdown()
"""

_RAY_ENV = {
    "RAY_AUTH_MODE": "disabled",
    "RAY_USAGE_STATS_ENABLED": "0",
    # Off, Ray takes this machine for a single-node laptop: every server binds 127.0.0.1 and the
    # cluster advertises it. (Ray turns a node address of 127.0.0.1 into the machine's
    # reachable one, so ``_node_ip_address`` cannot do this.)
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    # Under `uv run` (as `make test` runs pytest) Ray gives its workers a runtime environment that
    # packages the working directory and starts them with `uv run` through the relative
    # `.tools/bin/uv`, which does not exist in the package's folder: the workers die and the run waits.
    "RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0",
}
"""The environment of every Ray process of these tests: a cluster on loopback only."""


@pytest.fixture(scope="module")
def ray_address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A local Ray instance (2 CPUs, loopback only) held by a child process for the module.

    Skipped without the ``ray`` extra, or with ``TABLETOP_RAY_TESTS=0`` (a machine where a local
    Ray cluster cannot start).
    """
    if os.environ.get("TABLETOP_RAY_TESTS") == "0":
        pytest.skip("Ray cluster tests turned off with TABLETOP_RAY_TESTS=0")
    with pytest.MonkeyPatch.context() as patch:  # this process connects too: loopback as well
        for name, value in _RAY_ENV.items():
            patch.setenv(name, value)
        yield from _held_ray(tmp_path_factory)


def _held_ray(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("ray")
    env = {**os.environ, **_RAY_ENV}
    folder = tmp_path_factory.mktemp("ray")
    with (folder / "holder.err").open("wb") as errors:
        holder = subprocess.Popen(
            [sys.executable, "-c", _HOLDER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,
            env=env,
            cwd=folder,
        )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        address = holder.stdout.readline().decode().strip()
        assert address, (folder / "holder.err").read_text()
        assert address.startswith("127.0.0.1:"), address  # nothing listens beyond this machine
        yield address
    finally:
        holder.stdin.close()
        try:
            holder.wait(timeout=60)
        except subprocess.TimeoutExpired:  # pragma: no cover - a Ray that does not shut down
            holder.kill()
            holder.wait()
        holder.stdout.close()


def _simulate_command(*extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **_RAY_ENV}
    command = [
        str(Path(sys.executable).parent / "tabletop"),
        "simulate",
        "go-fish",
        "-n",
        "24",
        "--seed",
        "3",
    ]
    return subprocess.run(
        [*command, "--no-schemas", *extra], capture_output=True, text=True, env=env, timeout=600, check=False
    )


@pytest.mark.slow
def test_a_ray_cluster_run_reports_the_same_as_one_process_and_keeps_a_connection_it_did_not_open(
    ray_address: str,
) -> None:
    """One test for both, so that they share one local Ray cluster even when pytest-xdist spreads
    tests over processes (two clusters started at once on one machine stall each other)."""
    local = _simulate_command()
    remote = _simulate_command("--ray", ray_address, "--progress")
    assert local.returncode == remote.returncode == 0, remote.stderr
    assert _untimed(remote.stdout) == _untimed(local.stdout)
    assert "go-fish [##############################] 24/24" in remote.stderr

    import ray  # the fixture skipped the test if Ray is missing

    ray.init(address=ray_address, include_dashboard=False, log_to_driver=False)
    try:
        one = simulate("tic-tac-toe", games=10, seed=4, schemas=None)
        on_ray = simulate("tic-tac-toe", games=10, seed=4, schemas=None, ray="ignored: already connected")
        assert on_ray.records == one.records
        assert ray.is_initialized()
    finally:
        ray.shutdown()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_progress_bar_is_drawn_without_asking(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["simulate", "sample", "-n", "3", "--no-schemas"]) == 0
    assert terminal.getvalue().split("\r")[1:] == [
        "sample [##########....................] 1/3",
        "sample [####################..........] 2/3",
        "sample [##############################] 3/3\n",
    ]
