"""A wall-clock deadline over a whole HTTP request, a bound on its reply, and ending it at once.

The HTTP client's own timeouts count per operation: a server that trickles its headers or its
body one byte a second never trips a 5 s read timeout, and a request then lasts as long as the
server likes. :class:`DeadlineTransport` is the OpenAI backend's HTTP transport, and its network
layer gives every connect, read and write of a request at most the time left until the
request's deadline (``seconds`` from when it is sent), so ``timeout_s`` bounds the whole request,
headers and body, however the bytes arrive. At the deadline a read raises the client's read
timeout, and the connection, left half-read, is closed rather than reused. A reply longer than
``max_bytes`` ends the same way (:attr:`Scope.too_big`), before it fills memory.

:meth:`DeadlineTransport.cancel` (a stop request) shuts down the socket of every request in
flight, so its read ends at once (:attr:`Scope.cancelled`), and refuses new requests.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import httpcore2
import httpx2

__all__ = ["DeadlineTransport", "Scope"]

_WRITE_CHUNK = 65536  # bytes written per call, each within the time left


class Scope:
    """One request's deadline and what ended it (thread-safe).

    Attributes:
        deadline: ``time.monotonic()`` by which the request must be over.
        max_bytes: most bytes the reply (status line, headers and body) may hold.
        received: bytes read so far.
        cancelled: True once the request was ended by a stop request.
        too_big: True once the reply passed ``max_bytes``.
    """

    def __init__(self, seconds: float, max_bytes: int):
        self.deadline = time.monotonic() + seconds
        self.max_bytes = max_bytes
        self.received = 0
        self.cancelled = False
        self.too_big = False
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()

    def left(self, timeout: float | None) -> float:
        """Seconds the next operation may take: ``timeout`` (None: any) capped by the deadline.

        Raises:
            httpcore2.ReadError: once cancelled.
            httpcore2.ReadTimeout: once the deadline has passed.
        """
        if self.cancelled:
            raise httpcore2.ReadError("the request was cancelled by a stop request")
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise httpcore2.ReadTimeout("the request's deadline has passed")
        return left if timeout is None else min(timeout, left)

    def using(self, sock: socket.socket | None) -> None:
        """The socket the request now waits on (None: none); :meth:`cancel` shuts it down.

        Raises:
            httpcore2.ReadError: when the request was cancelled already.
        """
        with self._lock:
            self._sock = sock
            if self.cancelled and sock is not None:
                raise httpcore2.ReadError("the request was cancelled by a stop request")

    def count(self, n: int) -> None:
        """Count ``n`` bytes read.

        Raises:
            httpcore2.ReadError: when the reply passes ``max_bytes``.
        """
        self.received += n
        if self.received > self.max_bytes:
            self.too_big = True
            raise httpcore2.ReadError(f"the reply passed {self.max_bytes} bytes")

    def cancel(self) -> None:
        """End the request now: shut down the socket it waits on (its read returns at once)."""
        with self._lock:
            self.cancelled = True
            sock = self._sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # closed already


class _Network(httpcore2.NetworkBackend):
    """httpcore's blocking sockets, each operation bounded by the calling thread's :class:`Scope`."""

    def __init__(self) -> None:
        self._inner = httpcore2.SyncBackend()
        self._local = threading.local()

    def scope(self) -> Scope | None:
        """The request the calling thread is making, or None."""
        return getattr(self._local, "scope", None)

    def enter(self, scope: Scope | None) -> Scope | None:
        """Make ``scope`` the calling thread's request; returns the one before."""
        before, self._local.scope = self.scope(), scope
        return before

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> httpcore2.NetworkStream:
        scope = self.scope()
        stream = self._inner.connect_tcp(host, port, timeout if scope is None else scope.left(timeout),
                                         local_address, socket_options)
        return _Stream(stream, self)

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class _Stream(httpcore2.NetworkStream):
    """One connection; each read and write gets at most the time left of the current request."""

    def __init__(self, inner: httpcore2.NetworkStream, network: _Network):
        self._inner = inner
        self._network = network

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        scope = self._network.scope()
        if scope is None:
            return self._inner.read(max_bytes, timeout)
        scope.using(self._inner.get_extra_info("socket"))
        try:
            data = self._inner.read(max_bytes, scope.left(timeout))
        finally:
            scope.using(None)
        if scope.cancelled:  # the socket was shut down under the read
            raise httpcore2.ReadError("the request was cancelled by a stop request")
        scope.count(len(data))
        return data

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        scope = self._network.scope()
        if scope is None:
            self._inner.write(buffer, timeout)
            return
        scope.using(self._inner.get_extra_info("socket"))
        try:
            for at in range(0, len(buffer), _WRITE_CHUNK):
                self._inner.write(buffer[at:at + _WRITE_CHUNK], scope.left(timeout))
        finally:
            scope.using(None)

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore2.NetworkStream:
        scope = self._network.scope()
        inner = self._inner.start_tls(ssl_context, server_hostname,
                                      timeout if scope is None else scope.left(timeout))
        return _Stream(inner, self._network)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _Body(httpx2.SyncByteStream):
    """A reply's body, read under its request's scope; closing it ends the scope."""

    def __init__(self, inner: httpx2.SyncByteStream, network: _Network, scope: Scope,
                 done: Callable[[Scope], None]):
        self._inner, self._network, self._scope, self._done = inner, network, scope, done

    def __iter__(self) -> Iterator[bytes]:
        iterator = iter(self._inner)
        while True:
            before = self._network.enter(self._scope)
            try:
                chunk = next(iterator, None)
            finally:
                self._network.enter(before)
            if chunk is None:
                return
            yield chunk

    def close(self) -> None:
        try:
            self._inner.close()
        finally:
            self._done(self._scope)


class DeadlineTransport(httpx2.HTTPTransport):
    """An HTTP transport whose requests each end within ``seconds`` wall seconds (thread-safe).

    Args:
        seconds: wall seconds a request may take from when it is sent to its reply's last byte.
        max_bytes: ``max_bytes(request)``: most bytes its reply may hold (status line, headers
            and body).

    A request past either limit raises ``httpx2.ReadTimeout`` (the deadline) or
    ``httpx2.ReadError`` (:attr:`Scope.too_big`); :meth:`scope_of` tells which, and whether a
    stop request ended it.
    """

    def __init__(self, *, seconds: float, max_bytes: Callable[[httpx2.Request], int]):
        super().__init__()
        self.seconds = float(seconds)
        self.max_bytes = max_bytes
        self._network = _Network()
        # the pool httpx's own handle_request sends through, on the bounded network layer
        self._pool = httpcore2.ConnectionPool(ssl_context=httpx2.create_ssl_context(),
                                              network_backend=self._network)
        self._lock = threading.Lock()
        self._open: set[Scope] = set()
        self._cancelled = False

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send ``request`` within the deadline; the reply's body is read within it too.

        Raises:
            httpx2.ReadError: when a stop request was made (also: the reply is too big).
            httpx2.ReadTimeout: at the deadline.
        """
        scope = Scope(self.seconds, self.max_bytes(request))
        request.extensions["town_scope"] = scope
        with self._lock:
            if self._cancelled:
                scope.cancelled = True
                raise httpx2.ReadError("the request was cancelled by a stop request", request=request)
            self._open.add(scope)
        before = self._network.enter(scope)
        try:
            response = super().handle_request(request)
        except BaseException:
            self._done(scope)
            raise
        finally:
            self._network.enter(before)
        assert isinstance(response.stream, httpx2.SyncByteStream)
        response.stream = _Body(response.stream, self._network, scope, self._done)
        return response

    @staticmethod
    def scope_of(request: httpx2.Request | None) -> Scope | None:
        """The :class:`Scope` a request was sent under (None: not sent by this transport)."""
        return None if request is None else request.extensions.get("town_scope")

    def _done(self, scope: Scope) -> None:
        with self._lock:
            self._open.discard(scope)

    def cancel(self) -> None:
        """End every request in flight now and refuse new ones (a stop request; not undone)."""
        with self._lock:
            self._cancelled = True
            scopes = list(self._open)
        for scope in scopes:
            scope.cancel()
