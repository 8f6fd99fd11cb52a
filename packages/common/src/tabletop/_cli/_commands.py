"""The type of the subcommand registry each command module adds itself to."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

__all__ = ["Commands"]

if TYPE_CHECKING:
    Commands = argparse._SubParsersAction[argparse.ArgumentParser]
else:  # not subscriptable at run time on Python 3.11, where typeguard evaluates annotations
    Commands = argparse._SubParsersAction
