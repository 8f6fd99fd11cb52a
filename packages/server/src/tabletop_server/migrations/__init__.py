"""Alembic migrations of the server's database (run by ``tabletop_server.storage.upgrade``)."""
