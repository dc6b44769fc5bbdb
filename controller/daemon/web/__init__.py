"""The web console and simulator: an aiohttp app serving one static page and a small JSON API,
with live state over a WebSocket. See :mod:`.app` for the routes."""
