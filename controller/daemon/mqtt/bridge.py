"""The board's MQTT client: publishes its state and events, takes commands, survives the broker.

It runs on the daemon's event loop (the web console's), never on the core thread. The core
thread's only part is :meth:`Inbox.put` (a lock, an append, at most one wake-up per batch);
everything else (the events as JSON, the network) happens on the loop, so a
broker that is down, slow or refusing never delays a move or a frame.

While the broker is away, events wait in a bounded outbox (:data:`OUTBOX_SIZE`; past it the
oldest are dropped and counted in ``unsent``) and only the newest state is kept. On every
(re)connect the board subscribes to its command topic, then publishes ``online``, its Home
Assistant discovery configs, the waiting events and the newest state (retained), so "online"
means "listening" and the state is fresh again. While the referee does not answer (see
:mod:`controller.daemon.health`) the status says ``stopped`` and the state's ``health`` why. Connection attempts back off from
:data:`RETRY_S` ``[0]`` to ``[1]`` seconds. A clean stop publishes ``offline`` itself (a broker
sends the last will only when a client vanishes); a killed daemon is marked ``offline`` by the will.
The client speaks MQTT 5 (Mosquitto 1.6 and later) so that the command subscription can ask
for the retain flag as published: a command published retained is refused when it arrives,
not only when the broker replays it at the next subscription.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import ssl
import time
from collections import deque
from typing import Any

import aiomqtt
from paho.mqtt.subscribeoptions import SubscribeOptions

from ... import __version__
from ...errors import ConfigError, shown
from ...files import read_bounded
from ...repeats import Repeats
from ...events import Command
from ..config import MqttConfig
from ..logs import event as log
from .commands import Refused, parse_request
from .discovery import discovery_messages
from .inbox import Inbox
from .messages import public_state, published
from .topics import OFFLINE, ONLINE, STOPPED, Topics

INBOX_SIZE = 64  # states waiting for the loop, which takes them all at once (their events are all kept)
OUTBOX_SIZE = 256  # events waiting for the broker; the oldest past this are dropped (unsent)
COMMAND_QUEUE = 16  # commands the client holds unread; a flood past this is dropped by the client
TIMEOUT_S = 5.0  # a broker that takes longer to accept a connection or a message counts as gone
KEEPALIVE_S = 15  # the broker sends the last will this long (x 1.5) after the board went silent
RETRY_S = (0.5, 10.0)  # first and longest wait between connection attempts
STOP_S = 2.0  # how long a stop waits to say offline and disconnect
CANCEL_S = 0.5  # and then for the connection to be torn down
QOS = 1  # every message reaches the broker at least once
IN_FLIGHT = 16  # events published before waiting for the broker's acknowledgements
MAX_CA_BYTES = 1024 * 1024  # the system's whole CA bundle is about 200 KiB


class Bridge:
    """Publishes ``runtime``'s board to the broker in ``config`` (see the module docstring).

    ``new_game_args`` is what Home Assistant's "New game" button sends (the config's game)."""

    def __init__(self, config: MqttConfig, runtime: Any, new_game_args: dict[str, Any], size: int | None = None) -> None:
        self.config, self.runtime = config, runtime
        self.size = size  # the board's: a new game's options are checked for it (None: by the core alone)
        self.topics = Topics(config.prefix, config.board)
        self.discovery = discovery_messages(self.topics, config.discovery_prefix, new_game_args,
                                            __version__) if config.discovery else []
        self.tls = tls_context(config)
        self.connected = False
        self.unsent = 0  # events dropped because the outbox was full
        self.inbox: Inbox | None = None
        self._outbox: deque[str] = deque()
        self._last: dict[str, Any] | None = None  # the newest state read (for the next events)
        self._state: str | None = None  # the newest state, as published
        self._state_sent: str | None = None  # what this connection has published of it
        self._health = runtime.health()  # whether the referee answers (see controller.daemon.health)
        self._status_sent: str | None = None  # the status this connection has published
        self._seq = 0
        self._stopping = False
        self._changed = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._broker_down_said = False
        self._failed = Repeats(logging.getLogger("pentago_board"), logging.ERROR)  # once, then counted

    # -- start and stop (on the loop) ----------------------------------------------------------

    def start(self) -> None:
        """Follow the runtime's states and keep a connection to the broker (call on the loop)."""
        loop = asyncio.get_running_loop()

        def wake() -> None:  # on the core thread: schedule the loop's work, nothing more
            loop.call_soon_threadsafe(self._absorb)

        self.inbox = Inbox(INBOX_SIZE, wake)
        self.inbox.put(self.runtime.snapshot, (), ())
        self.runtime.listeners.append(self.inbox.put)
        self.runtime.health_listeners.append(self._health_changed)
        self._task = asyncio.create_task(self._run(), name="mqtt")

    async def stop(self) -> None:
        """Say ``offline`` and disconnect, within :data:`STOP_S`."""
        if self.inbox is not None and self.inbox.put in self.runtime.listeners:
            self.runtime.listeners.remove(self.inbox.put)
        if self._health_changed in self.runtime.health_listeners:
            self.runtime.health_listeners.remove(self._health_changed)
        self._stopping = True
        self._stop.set()
        self._changed.set()
        if self._task is None:
            return
        if not self.connected:
            self._task.cancel()  # nobody to say goodbye to: a connection attempt in hand ends now
        done, _ = await asyncio.wait({self._task}, timeout=STOP_S)
        if not done:
            self._task.cancel()
            log("mqtt: the broker did not take the goodbye in time", logging.WARNING)
            await asyncio.wait({self._task}, timeout=CANCEL_S)

    # -- from states to messages (on the loop) -------------------------------------------------

    def _absorb(self) -> None:
        """Queue the events of every new state, in order; keep the newest state for publishing."""
        assert self.inbox is not None
        items = [item for item in self.inbox.take() if item[0]]  # {}: the core has not published yet
        for state, stamped in items:
            for found, when in published(stamped):
                self._queue_event(found, when)
            self._last = state
        if items:
            self._state_from(items[-1][0])

    def _state_from(self, state: dict[str, Any]) -> None:
        self._state = json.dumps({**public_state(state, self.config.board), "unsent": self.unsent,
                                  "health": self._health.to_json()}, default=str)
        self._changed.set()

    def _health_changed(self, health: Any) -> None:
        """On the loop: the status says ``stopped`` while the referee does not answer, and the
        state carries the health in words (the classroom shows both)."""
        self._health = health
        if self._last is not None:
            self._state_from(self._last)
        self._changed.set()

    def _status(self) -> str:
        return STOPPED if self._health.status == STOPPED else ONLINE

    def _queue_event(self, found: dict[str, Any], at: float | None = None) -> None:
        """Number the event and keep it for the broker; ``at``: when the core made the change
        (now, for the bridge's own answers to commands)."""
        self._seq += 1
        stamp = round(time.time() if at is None else at, 4)
        payload = json.dumps({"seq": self._seq, "board_name": self.config.board, "at": stamp, **found},
                             default=str)
        if len(self._outbox) >= OUTBOX_SIZE:
            self._outbox.popleft()
            self.unsent += 1
        self._outbox.append(payload)
        self._changed.set()

    # -- the connection ------------------------------------------------------------------------

    async def _run(self) -> None:
        delay = RETRY_S[0]
        while not self._stopping:
            try:
                await self._session()
            except aiomqtt.MqttError as error:
                self._lost(error)
            except Exception as error:  # a bug here must not end publishing for good: log it and reconnect
                self._failed.say(f"mqtt session failed ({type(error).__name__}: {error})", exc_info=error)
            if self._stopping:
                return
            if self.connected:  # it was up: the first retry comes soon
                delay, self.connected = RETRY_S[0], False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), delay)
            delay = min(delay * 2, RETRY_S[1])

    def _lost(self, error: Exception) -> None:
        """Log a lost or refused connection once, not at every attempt."""
        if not self._broker_down_said:
            log("mqtt connection lost; the board plays on and reconnects" if self.connected
                else "mqtt broker unreachable; the board plays on and retries", logging.WARNING,
                broker=f"{self.config.host}:{self.config.port}", error=error)
            self._broker_down_said = True

    def _client(self) -> aiomqtt.Client:
        will = aiomqtt.Will(self.topics.status, OFFLINE, qos=QOS, retain=True)
        logger = logging.getLogger("pentago_board.mqtt")
        logger.setLevel(logging.WARNING)  # the client library's debug chatter stays out of the journal
        client = aiomqtt.Client(
            self.config.host, self.config.port, username=self.config.username or None,
            password=self.config.password or None, identifier=f"pentago-board-{self.config.board}",
            will=will, timeout=TIMEOUT_S, keepalive=KEEPALIVE_S, tls_context=self.tls,
            protocol=aiomqtt.ProtocolVersion.V5,  # for retain-as-published: a retained command is told apart
            max_queued_incoming_messages=COMMAND_QUEUE, logger=logger)
        client.pending_calls_threshold = IN_FLIGHT + 1  # a full batch and the state are no warning
        return client

    async def _session(self) -> None:
        async with self._client() as client:
            self.connected, self._state_sent, self._status_sent, self._broker_down_said = True, None, None, False
            self._failed.clear()
            log("mqtt connected", broker=f"{self.config.host}:{self.config.port}", board=self.config.board,
                unsent=self.unsent)
            # subscribed before saying online: a command sent on seeing "online" is never missed
            await client.subscribe(self.topics.command, options=SubscribeOptions(qos=QOS, retainAsPublished=True))
            await self._publish_status(client)
            for topic, payload in self.discovery:
                await client.publish(topic, payload, qos=QOS, retain=True)
            reader = asyncio.create_task(self._read(client), name="mqtt-commands")
            try:
                await self._write(client, reader)
            finally:
                reader.cancel()
            await client.publish(self.topics.status, OFFLINE, qos=QOS, retain=True)
        self.connected = False

    async def _write(self, client: aiomqtt.Client, reader: asyncio.Task[None]) -> None:
        """Publish what is waiting, then wait for more; returns when stopping."""
        while True:
            self._changed.clear()
            await self._flush(client)
            if self._stopping:
                return
            if reader.done():
                reader.result()  # the reason it stopped (an MqttError: the connection is gone)
                raise aiomqtt.MqttError("the command subscription ended")
            await self._changed.wait()

    async def _flush(self, client: aiomqtt.Client) -> None:
        while self._outbox and not self._stopping:  # stopping: only the state and the goodbye go
            batch = [self._outbox.popleft() for _ in range(min(IN_FLIGHT, len(self._outbox)))]
            try:  # in flight together: a slow broker's round trip is paid once per batch
                await asyncio.gather(*(client.publish(self.topics.event, payload, qos=QOS) for payload in batch))
            except BaseException:
                self._requeue(batch)
                raise
        state = self._state
        if state is not None and state != self._state_sent:
            await client.publish(self.topics.state, state, qos=QOS, retain=True)
            self._state_sent = state
        if self._status() != self._status_sent and not self._stopping:
            await self._publish_status(client)

    async def _publish_status(self, client: aiomqtt.Client) -> None:
        status = self._status()
        await client.publish(self.topics.status, status, qos=QOS, retain=True)
        self._status_sent = status

    def _requeue(self, batch: list[str]) -> None:
        """Put an unconfirmed batch back in front, sent again after the reconnect (a subscriber
        may see one twice: ``seq`` tells), keeping the outbox's bound."""
        self._outbox.extendleft(reversed(batch))
        while len(self._outbox) > OUTBOX_SIZE:
            self._outbox.popleft()
            self.unsent += 1

    # -- commands ------------------------------------------------------------------------------

    async def _read(self, client: aiomqtt.Client) -> None:
        try:
            async for message in client.messages:
                self._take(message)
        finally:
            self._changed.set()  # the writer notices the end of the subscription

    def _take(self, message: aiomqtt.Message) -> None:
        payload = message.payload
        raw = payload if isinstance(payload, bytes | bytearray) else str(payload or "").encode()
        try:
            request = parse_request(bytes(raw), self.config.board, retained=message.retain, size=self.size,
                                    games=self.runtime.games)
        except Refused as refusal:
            log("mqtt command refused", logging.WARNING, topic=str(message.topic), reason=refusal)
            self._queue_event({"type": "refused", "reason": str(refusal), "id": refusal.id})
            return
        stopped = self._health.status == STOPPED  # the web console's 503s, said the same way
        if stopped or not self.runtime.offer(Command(self.runtime.clock(), request.name, request.args)):
            reason = self._health.words if stopped else self.runtime.queue.busy_reason()
            log("mqtt command refused", logging.WARNING, topic=str(message.topic), reason=reason)
            self._queue_event({"type": "refused", "reason": reason, "id": request.id})
            return
        log("mqtt command", name=request.name)
        self._queue_event({"type": "command", "name": request.name, "id": request.id})


def tls_context(config: MqttConfig) -> ssl.SSLContext | None:
    """The TLS settings for ``config`` (None without TLS); ConfigError when the CA file is unusable."""
    if not config.tls:
        return None
    try:
        if not config.ca_file:
            return ssl.create_default_context()
        pem = read_bounded(config.ca_file, MAX_CA_BYTES)  # a device or a FIFO is no CA file
        return ssl.create_default_context(cadata=pem.decode("ascii") if pem.isascii() else pem)
    except (OSError, ssl.SSLError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise ConfigError(f"mqtt.ca_file = {shown(config.ca_file)}: cannot use it ({reason})") from None
