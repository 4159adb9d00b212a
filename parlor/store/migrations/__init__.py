"""Alembic migrations of the games database, for SQLite and PostgreSQL alike.

Run by :func:`parlor.store.migrate.upgrade` whenever a :class:`~parlor.store.GameStore` opens
a database (``parlor serve``, ``parlor worker``), or by hand with ``parlor db upgrade``.
"""
