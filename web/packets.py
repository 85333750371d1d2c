"""Socket.IO packets bounded before they are decoded.

python-socketio decodes a packet's JSON with the standard parser, which recurses once per
``[`` or ``{``: a packet nested 100,000 deep (no token needed to send one) raised RecursionError
inside engine.io's handler, which logged a 54-line traceback per packet. :func:`guard_packets`
puts a check in front of the decoder: a packet longer than :data:`MAX_PACKET` characters or
nested deeper than a control message can be (:data:`web.params.MAX_DEPTH`, plus the packet's own
``[event, payload]``) is dropped unread: one log line for a connection's first, none after.

A packet python-socketio would choke on is dropped the same way (:func:`shape_problem`): one that
does not decode (``42[``, an empty ``4``), an event that is not ``[name, ...]`` (``42``, ``42{}``,
``42[1]``), an acknowledgement whose arguments are not a list, a reserved event name, a binary or
unknown packet type: each of these was a stack trace in the server's terminal.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

import socketio
from socketio import packet as sio_packet

from .params import MAX_DEPTH, json_depth

__all__ = ["MAX_PACKET", "guard_packets", "packet_problem", "shape_problem"]

logger = logging.getLogger(__name__)

#: The longest Socket.IO packet taken, in characters (a control message is under 200).
MAX_PACKET = 100_000
#: Connections remembered as warned about (the oldest forgotten first).
_WARNED = 1024


def packet_problem(data: Any) -> str | None:
    """Why the encoded packet ``data`` (text, or a binary attachment) is refused unread, or None."""
    if not isinstance(data, str | bytes):
        return None
    if len(data) > MAX_PACKET:
        return f"{len(data)} characters long (at most {MAX_PACKET})"
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if json_depth(raw, MAX_DEPTH + 1) > MAX_DEPTH + 1:
        return f"nested more than {MAX_DEPTH + 1} deep"
    return None


#: Event names only the connection itself raises: a client sending one would re-run its handler.
_RESERVED = frozenset({"connect", "disconnect", "connect_error", "message"})


def shape_problem(server: socketio.Server, eio_sid: str, data: Any) -> str | None:
    """Why the packet ``data`` would fail in python-socketio's dispatch (a traceback), or None.

    Binary attachments of a packet the server is waiting on are python-socketio's to check; the
    viewer itself sends and takes no binary packet.
    """
    if eio_sid in server._binary_packet:
        return None
    if not isinstance(data, str):
        return "of binary data (the viewer takes text packets only)"
    try:
        pkt = server.packet_class(encoded_packet=data)
    except Exception:  # noqa: BLE001 - whatever the decoder raises, the packet is unreadable
        return "that does not decode (not <type><JSON>, e.g. 42[\"control\", {...}])"
    kind = pkt.packet_type
    if kind in (sio_packet.CONNECT, sio_packet.DISCONNECT):
        return None
    if kind == sio_packet.EVENT:
        if not isinstance(pkt.data, list) or not pkt.data or not isinstance(pkt.data[0], str):
            return "of an event that is not [name, ...]"
        if pkt.data[0] in _RESERVED:
            return f"of the reserved event {pkt.data[0]!r}"
        return None
    if kind == sio_packet.ACK:
        return None if isinstance(pkt.data, list) else "of an acknowledgement whose arguments are not a list"
    if kind in (sio_packet.BINARY_EVENT, sio_packet.BINARY_ACK):
        return "of binary data (the viewer takes text packets only)"
    return f"of type {kind!r}, which a client does not send"


def guard_packets(server: socketio.Server) -> None:
    """Check every packet engine.io hands ``server`` (:func:`packet_problem`, :func:`shape_problem`)
    before it is dispatched.

    Replaces the server's engine.io ``message`` handler (python-socketio's
    ``Server._handle_eio_message``, which decodes and dispatches), on engine.io and on the server
    (where Flask-SocketIO's test client calls it), with one that drops an unfit packet, with one
    warning for the first of a connection (later ones: debug).
    """
    decode_and_dispatch = server._handle_eio_message
    warned: OrderedDict[str, None] = OrderedDict()

    def bounded(eio_sid: str, data: Any) -> None:
        problem = packet_problem(data) or shape_problem(server, eio_sid, data)
        if problem is None:
            decode_and_dispatch(eio_sid, data)
            return
        first = eio_sid not in warned
        warned[eio_sid] = None
        while len(warned) > _WARNED:
            warned.popitem(last=False)
        logger.log(logging.WARNING if first else logging.DEBUG,
                   "socket.io: a packet %s was dropped unread (later ones from this connection: quietly)", problem)

    server.eio.on("message", bounded)
    server._handle_eio_message = bounded
