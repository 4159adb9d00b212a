"""The web app: a FastAPI server that orders each game's commands and sends each player its
view only (``parlor serve``), a browser client of plain JS modules, and SQLite persistence
through :mod:`parlor.store`. Game logic lives in :mod:`parlor.rules` alone; the sentences it
sends the client come from :mod:`parlor.present`."""
