"""The server's routes, one APIRouter a room: games (the JSON API of a match), live (a seat's
WebSocket), watch (spectators), study (the position editor's engine work), jobs (analyses and
rollouts in the background), pages (the HTML pages and the API docs). Each finds the app's Hub,
limits and study settings through the dependencies of :mod:`gammon.web.routes.deps`."""
