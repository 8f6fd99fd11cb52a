"""Every Python code block in README.md runs."""

import re
from pathlib import Path

import pytest

README = Path(__file__).parents[2] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block-{n}" for n in range(len(BLOCKS))])
def test_readme_block_runs(block: str) -> None:
    # "__main__" is in sys.modules: pydantic registers generic classes parametrized at top level there
    exec(compile(block, str(README), "exec"), {"__name__": "__main__"})
