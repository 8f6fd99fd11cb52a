"""``tabletop schemas export|check|fixtures`` and ``tabletop codegen python``."""

from __future__ import annotations

from pathlib import Path

import pytest
from tabletop._cli import main
from tabletop.games import available


def test_export_then_check_then_a_stale_file_fails_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "schemas"
    assert main(["schemas", "export", "--root", str(root)]) == 0
    assert f"for {', '.join(available())} under {root}" in capsys.readouterr().out
    assert main(["schemas", "check", "--root", str(root)]) == 0
    assert "are up to date" in capsys.readouterr().out
    (root / "sample" / "actions" / "Pass.json").write_text("{}\n")
    assert main(["schemas", "check", "--root", str(root)]) == 1
    error = capsys.readouterr().err
    assert "sample/actions/Pass.json differs" in error
    assert "run `tabletop schemas export`" in error


def test_fixtures_writes_one_typed_module_per_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["schemas", "fixtures", "--out", str(tmp_path), "--seed", "3"]) == 0
    assert sorted(path.stem for path in tmp_path.glob("*.ts")) == available()
    assert capsys.readouterr().out.splitlines() == [str(tmp_path / f"{name}.ts") for name in available()]
    assert 'import type * as T from "@tabletop/types/sample";' in (tmp_path / "sample.ts").read_text()


def test_codegen_python_writes_an_importable_package(schemas_root: Path, tmp_path: Path) -> None:
    out = tmp_path / "client"
    assert main(["codegen", "python", "--out", str(out), "--schemas", str(schemas_root)]) == 0
    modules = {path.name for path in out.iterdir()}
    assert {"__init__.py", "py.typed", "common.py"} | {
        f"{n.replace('-', '_')}.py" for n in available()
    } <= modules
    assert "class SampleGameState(BaseModel):" in (out / "sample.py").read_text()


def test_codegen_without_an_export_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["codegen", "python", "--out", str(tmp_path / "out"), "--schemas", str(tmp_path)]) == 2
    assert "run `tabletop schemas export` first" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
