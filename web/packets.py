"""Socket.IO packets bounded before they are decoded.

python-socketio decodes a packet's JSON with the standard parser, which recurses once per
``[`` or ``{``: a packet nested 100,000 deep (no token needed to send one) raised RecursionError
inside engine.io's handler, which logged a 54-line traceback per packet. :func:`guard_packets`
puts a check in front of the decoder: a packet longer than :data:`MAX_PACKET` characters or
nested deeper than a control message can be (:data:`web.params.MAX_DEPTH`, plus the packet's own
``[event, payload]``) is dropped unread: one log line for a connection's first, none after.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

import socketio

from .params import MAX_DEPTH, json_depth

__all__ = ["MAX_PACKET", "guard_packets", "packet_problem"]

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


def guard_packets(server: socketio.Server) -> None:
    """Check every packet engine.io hands ``server`` (:func:`packet_problem`) before it is decoded.

    Replaces the server's engine.io ``message`` handler (python-socketio's
    ``Server._handle_eio_message``, which decodes and dispatches) with one that drops an unfit
    packet, with one warning for the first of a connection (later ones: debug).
    """
    decode_and_dispatch = server._handle_eio_message
    warned: OrderedDict[str, None] = OrderedDict()

    def bounded(eio_sid: str, data: Any) -> None:
        problem = packet_problem(data)
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
