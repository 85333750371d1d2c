"""Where `serve` and `replay` listen: the --port and --allowed-host values and a check, before
anything starts, that the address can be listened on (each a one-line error naming the option)."""

from __future__ import annotations

import argparse
import ipaddress
import re

from town.errors import ConfigError

__all__ = ["port", "host_name", "allowed_hosts", "check_listen"]


def port(text: str) -> int:
    """Parse --port: a TCP port 0..65535 (0 picks a free one), for argparse."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port (0..65535)")
    return port


def host_name(text: str) -> str:
    """Parse --allowed-host: a bare host name or IP address (no scheme, port or path), for argparse."""
    bare = text.strip().lower().removeprefix("[").removesuffix("]")
    if re.fullmatch(r"[a-z0-9]([a-z0-9.-]*[a-z0-9])?", bare):
        return bare
    try:
        return str(ipaddress.IPv6Address(bare))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a host name (give e.g. town.example or "
                                         "192.168.1.9, without scheme, port or path)") from None


def allowed_hosts(args: argparse.Namespace) -> tuple[str, ...]:
    """The --allowed-host names, which only apply beyond loopback.

    Raises:
        ConfigError: naming --allowed-host when --host is loopback.
    """
    from web.security import is_loopback  # the web layer loads only for serve and replay

    names = tuple(args.allowed_host or ())
    if names and is_loopback(args.host):
        raise ConfigError(f"--allowed-host applies only beyond loopback, but --host is {args.host}; "
                          "pass --host 0.0.0.0 (or this machine's address) too", field="--allowed-host")
    return names


def check_listen(host: str, port: int) -> None:
    """Fail early, with one line, when ``host:port`` cannot be listened on.

    Raises:
        ConfigError: naming --port or --host.
    """
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise ConfigError(f"cannot resolve {host!r}: {exc}", field="--host") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror}; pass another --port",
                              field="--port") from None
