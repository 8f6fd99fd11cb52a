"""Golden replays: seeded random playouts saved as files and replayed to catch behaviour changes.

A golden holds the submitted actions, the actions the engine recorded for each, the state after
each action as a compact JSON-Patch-style diff, and the full initial and final states.
``tabletop golden record <game> --seed S`` writes one to ``games/<game>/tests/golden/``;
``tabletop golden check`` replays them all and names the first diverging action and field.

Example:
    >>> from tabletop.golden import check_golden, record_golden
    >>> golden = record_golden("tic-tac-toe", seed=3)
    >>> golden.final_state["result"] is not None and check_golden(golden) is None
    True
"""

from tabletop.golden._diff import PatchOp, apply_patch, json_diff
from tabletop.golden._golden import (
    Divergence,
    Golden,
    GoldenStep,
    check_golden,
    dump_golden,
    golden_dir,
    golden_files,
    golden_path,
    load_golden,
    record_golden,
    save_golden,
)

__all__ = [
    "Divergence",
    "Golden",
    "GoldenStep",
    "PatchOp",
    "apply_patch",
    "check_golden",
    "dump_golden",
    "golden_dir",
    "golden_files",
    "golden_path",
    "json_diff",
    "load_golden",
    "record_golden",
    "save_golden",
]
