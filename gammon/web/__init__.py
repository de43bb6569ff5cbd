"""The web server and browser UI: ``create_app(store, settings=ServerSettings(...))`` (FastAPI), served
by ``gammon serve``."""

from gammon.web.app import create_app
from gammon.web.settings import ServerSettings

__all__ = ["ServerSettings", "create_app"]
