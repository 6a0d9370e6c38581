"""What every part of the ``Tables`` service holds: the write path, the views, the seated
players' index and the database (app/services/table/service.py puts the parts together)."""

from __future__ import annotations

from typing import Any

from app.store.seated import Seated

from .views import TableViews
from .write import TableWriter


class TableParts:
    def __init__(self, writer: TableWriter, views: TableViews, *, db: Any = None):
        """``db``: the async_sessionmaker of chips and records (buy-ins); None: stacks are
        free (tests of the live tables alone)."""
        self.writer = writer
        self.views = views
        self.settings = writer.settings
        self.store = writer.store
        self.seated = Seated(self.store.redis, self.store.keys)
        self.db = db
