"""Settings from flags and ``TABLETOP_*`` variables; the built UI served at ``/`` with a fallback."""

from __future__ import annotations

import gc
from pathlib import Path

import httpx
import pytest
from tabletop_fixtures.live_server import free_port, live_server
from tabletop_server import Settings


def test_settings_read_tabletop_environment_variables(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TABLETOP_PORT", "9123")
    monkeypatch.setenv("TABLETOP_DB", "postgresql://db.example/tabletop")
    monkeypatch.setenv("TABLETOP_UI_DIR", str(tmp_path))
    settings = Settings()
    assert (settings.port, settings.db, settings.ui_dir) == (
        9123,
        "postgresql://db.example/tabletop",
        tmp_path,
    )
    assert Settings(port=1).port == 1  # a flag wins over the environment


def test_the_ui_is_served_with_an_spa_fallback_and_the_api_stays_json(tmp_path: Path) -> None:
    (tmp_path / "ui" / "assets").mkdir(parents=True)
    (tmp_path / "ui" / "index.html").write_text("<html>app</html>")
    (tmp_path / "ui" / "assets" / "app.js").write_text("console.log(1)")
    (tmp_path / "secret.txt").write_text("outside")
    with (
        live_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", ui_dir=tmp_path / "ui") as server,
        httpx.Client(base_url=server.url) as client,
    ):
        assert client.get("/").text == "<html>app</html>"
        assert client.get("/assets/app.js").text == "console.log(1)"
        assert client.get("/match/m_1/p1").text == "<html>app</html>"
        assert client.get("/../secret.txt").text != "outside"
        missing = client.get("/api/nothing")
        assert (missing.status_code, missing.json()["code"]) == (404, "not-found")
        assert client.get("/api/games").json()["games"]


def test_the_cli_migrates_a_database_and_checks_the_openapi_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tabletop._cli import main

    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    assert main(["db", "upgrade", "--db", url]) == 0
    assert "at revision" in capsys.readouterr().out
    out = tmp_path / "openapi.json"
    assert main(["server", "openapi", "check", "--out", str(out)]) == 1
    assert main(["server", "openapi", "export", "--out", str(out)]) == 0
    assert main(["server", "openapi", "check", "--out", str(out)]) == 0


@pytest.mark.parametrize("threshold", [0, 12_345])
def test_the_server_raises_the_collector_threshold_while_it_serves(tmp_path: Path, threshold: int) -> None:
    """Under load a full collection of the cached matches was the p99; 0 keeps Python's settings."""
    before = gc.get_threshold()
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    with live_server(database, gc_threshold=threshold) as server:
        assert httpx.get(f"{server.url}/api/games").status_code == 200
        assert gc.get_threshold()[0] == (threshold or before[0])
    assert gc.get_threshold() == before
    with pytest.raises(ValueError, match="gc_threshold"):
        Settings(gc_threshold=-1)


@pytest.mark.parametrize("db", [None, "chosen.sqlite3"])
def test_serve_prints_the_database_file_it_opens(tmp_path: Path, db: str | None) -> None:
    """With ``TABLETOP_DATA_DIR`` set the banner named ``.tabletop/`` while the file went elsewhere."""
    import os
    import subprocess
    import sys
    import time

    data_dir = tmp_path / "data"
    script = "import sys; from tabletop._cli import main; sys.exit(main(sys.argv[1:]))"
    argv = [sys.executable, "-c", script, "serve", "--port", str(free_port())]
    argv += ["--db", str(tmp_path / db)] if db else []
    environment = os.environ | {"TABLETOP_DATA_DIR": str(data_dir), "PYTHONUNBUFFERED": "1"}
    environment.pop("TABLETOP_DB", None)
    with subprocess.Popen(
        argv, cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    ) as server:
        try:
            assert server.stdout is not None
            banner = server.stdout.readline()  # printed before uvicorn starts; EOF if it fails
            expected = tmp_path / db if db else data_dir / "tabletop.sqlite3"
            deadline = time.monotonic() + 60
            while not expected.is_file() and server.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)  # the server creates the file as it starts
        finally:
            server.terminate()
            server.wait(timeout=60)
    assert f"database: {'SQLite file' if db else 'the embedded SQLite file'} {expected};" in banner, banner
    assert expected.is_file()
    assert not (tmp_path / ".tabletop").exists()
