"""Publishing a board to an MQTT broker, and taking commands from it (``[mqtt]`` in the config).

One topic tree per board, ``<prefix>/<board>/...`` (see :mod:`.topics`): ``status`` (retained
``online``/``offline``, the last will says ``offline``), ``state`` (retained JSON: the core's
state without the LED frame, plus a summary), ``event`` (JSON events: moves, outcomes, repairs,
link changes, notices, commands taken or refused) and ``command`` (requests in, checked like the
web API's). Home Assistant discovery (:mod:`.discovery`) makes the board a device.

The client (:mod:`.bridge`) runs on the daemon's event loop, never on the core thread: the core
thread only drops the state into a bounded inbox (:mod:`.inbox`), so a broker that is down or
slow never delays a move or a frame.
"""
