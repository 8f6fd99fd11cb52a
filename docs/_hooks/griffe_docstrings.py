"""A griffe extension for the API reference: reads the code's reST-flavoured Google docstrings.

The docstrings are written for ``help()`` and IDEs as well as for this site, so they use two
reST habits that Markdown does not understand. Before mkdocstrings renders them, this extension

- turns an ``Example:`` section into griffe's ``Examples:`` section, so doctest lines render as
  code (as an admonition they would be read as Markdown, ``[...](...)`` as links);
- turns Sphinx roles (``:class:`Name```, ``:func:``, ``:meth:``, ...) into plain code spans.
"""

from __future__ import annotations

import re

import griffe

__all__ = ["ReSTDocstrings", "rewrite"]

_EXAMPLE = re.compile(r"^(\s*)Example:\s*$", re.MULTILINE)
_ROLE = re.compile(r":(?:class|func|meth|attr|data|mod|obj|exc|const|py:\w+):`~?([^`]+)`")


def rewrite(text: str) -> str:
    """The docstring ``text`` as the Markdown renderer needs it."""
    return _ROLE.sub(r"`\1`", _EXAMPLE.sub(r"\1Examples:", text))


class ReSTDocstrings(griffe.Extension):
    """Rewrites every loaded object's docstring with :func:`rewrite`."""

    def on_object(self, *, obj: griffe.Object, **kwargs: object) -> None:
        """Rewrite ``obj``'s docstring in place."""
        if obj.docstring is not None:
            obj.docstring.value = rewrite(obj.docstring.value)
