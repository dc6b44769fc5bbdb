"""The classroom console: one teacher's page for every board publishing to an MQTT broker.

:mod:`.boards` keeps what the boards last published (their status and state) and reads each
board's row for the page; :mod:`.link` is the broker connection (subscribing to every board,
publishing commands); :mod:`.app` is the aiohttp app serving the page and its small API.
"""
