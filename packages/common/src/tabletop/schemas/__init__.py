"""JSON Schemas of every installed game, exported for client projects, versioned and checked.

``tabletop schemas export`` writes, under ``schemas/``, one folder per game (``state.json``,
``player_state.json``, ``config.json``, ``action.json`` (the discriminated union),
``actions/<Type>.json``, ``request.json`` and ``requests/<Type>.json`` (request bodies without
server-assigned fields), plus any document a registered producer adds), ``common/`` with the
shared base models, and ``index.json`` (each game's logic version and a sha256 per file).

Example:
    >>> from tabletop.schemas import render_schemas
    >>> files = render_schemas()
    >>> "sample/actions/AddAmount.json" in files and "index.json" in files
    True
"""

from tabletop.schemas._bundle import bundle_folder, bundles
from tabletop.schemas._codegen import DATAMODEL_CODEGEN_OPTIONS, generate_python
from tabletop.schemas._compare import (
    BreakingChangeError,
    ChangeLevel,
    Direction,
    SchemaChange,
    check_compatibility,
    compare_exports,
    direction_of,
)
from tabletop.schemas._documents import (
    PRODUCER_ENTRY_POINT_GROUP,
    SERVER_ASSIGNED_FIELDS,
    DocumentProducer,
    game_title,
    register_common_document,
    register_document_producer,
    request_model,
)
from tabletop.schemas._export import (
    INDEX_FILE,
    SchemasOutOfDateError,
    check_schemas,
    committed_schemas,
    export_schemas,
    read_schemas,
    render_schemas,
)
from tabletop.schemas._generator import SchemaExportError, TabletopJsonSchema, dump_document
from tabletop.schemas._recording import (
    Recording,
    record_playout,
    typescript_fixture,
    write_typescript_fixtures,
)

__all__ = [
    "DATAMODEL_CODEGEN_OPTIONS",
    "INDEX_FILE",
    "PRODUCER_ENTRY_POINT_GROUP",
    "SERVER_ASSIGNED_FIELDS",
    "BreakingChangeError",
    "ChangeLevel",
    "Direction",
    "DocumentProducer",
    "Recording",
    "SchemaChange",
    "SchemaExportError",
    "SchemasOutOfDateError",
    "TabletopJsonSchema",
    "bundle_folder",
    "bundles",
    "check_compatibility",
    "check_schemas",
    "committed_schemas",
    "compare_exports",
    "direction_of",
    "dump_document",
    "export_schemas",
    "game_title",
    "generate_python",
    "read_schemas",
    "record_playout",
    "register_common_document",
    "register_document_producer",
    "render_schemas",
    "request_model",
    "typescript_fixture",
    "write_typescript_fixtures",
]
