"""Python client models generated from ``schemas/`` with datamodel-code-generator."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tabletop.schemas._bundle import bundles
from tabletop.schemas._export import read_schemas
from tabletop.schemas._generator import SchemaExportError

__all__ = ["DATAMODEL_CODEGEN_OPTIONS", "generate_python", "module_name"]

DATAMODEL_CODEGEN_OPTIONS = (
    "--input-file-type=jsonschema",
    "--output-model-type=pydantic_v2.BaseModel",
    "--target-python-version=3.11",
    "--use-title-as-name",
    "--use-schema-description",
    "--use-field-description",
    "--use-standard-collections",
    "--use-union-operator",
    "--use-annotated",
    "--strict-nullable",
    "--output-datetime-class=datetime",
    "--deserialize-default-values=enum",
    "--use-double-quotes",
    "--disable-timestamp",
    "--formatters=builtin",
)
"""Every option the generator runs with, spelled out so a new generator default changes nothing."""


def module_name(folder: str) -> str:
    """The Python module of a schemas folder: ``"tic-tac-toe"`` -> ``"tic_tac_toe"``."""
    return folder.replace("-", "_")


def generate_python(out: Path, schemas: Path) -> list[Path]:
    """Generate one pydantic v2 module per game (and ``common``) from the export under ``schemas``.

    ``out`` becomes a package (``__init__.py``, ``py.typed``, ``common.py``, ``<game>.py``)
    that needs only pydantic: ``from <package>.sample import SampleGameState, SampleAction``.
    Files already in ``out`` that the generator does not write are left alone.

    Returns:
        The files written, sorted.

    Raises:
        SchemaExportError: ``schemas`` holds no export, datamodel-code-generator is not
            installed (``tabletop-common[codegen]``), or it failed (its output is included).
    """
    files = read_schemas(schemas)
    if not files:
        msg = f"no {schemas / 'index.json'}; run `tabletop schemas export` first"
        raise SchemaExportError(msg)
    if importlib.util.find_spec("datamodel_code_generator") is None:
        msg = "datamodel-code-generator is not installed; install tabletop-common[codegen]"
        raise SchemaExportError(msg)
    with tempfile.TemporaryDirectory(prefix="tabletop-codegen-") as temporary:
        inputs, outputs = Path(temporary, "schemas"), Path(temporary, "models")
        inputs.mkdir()
        for folder, bundle in bundles(files).items():
            (inputs / f"{module_name(folder)}.json").write_text(json.dumps(bundle, indent=2, sort_keys=True))
        command = [
            sys.executable,
            "-m",
            "datamodel_code_generator",
            f"--input={inputs}",
            f"--output={outputs}",
            *DATAMODEL_CODEGEN_OPTIONS,
        ]
        run = subprocess.run(command, capture_output=True, text=True, check=False)
        if run.returncode != 0:
            msg = f"datamodel-code-generator failed ({run.returncode}):\n{run.stderr or run.stdout}"
            raise SchemaExportError(msg)
        (outputs / "py.typed").write_text("")
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for source in sorted(outputs.iterdir()):
            target = out / source.name
            shutil.copyfile(source, target)
            written.append(target)
    return written
