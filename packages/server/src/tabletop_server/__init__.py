"""tabletop_server: the HTTP host for every installed tabletop game."""

__all__: list[str] = []
