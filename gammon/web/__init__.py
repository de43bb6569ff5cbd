"""The web server and browser UI: ``create_app(store)`` (FastAPI), served by ``gammon serve``."""

from gammon.web.app import create_app

__all__ = ["create_app"]
