"""The configuration a resume or fork goes on with: the run's settings, but only the model the
command line names.

A run file is data, never configuration: the backend it stores (base URL, more base URLs, key
variable) is shown, never used to reach an address or to read an environment variable. A run
made with a model backend (or a server embedder) goes on only at the ``--base-url`` the person
running ``resume`` or ``fork`` names, with the key in ``--api-key-env`` (default: the
configuration default's), or with ``--backend scripted``; otherwise it is refused in one line.
The stored model name may be used on the named server (a name, no address).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..analysis.recorded import NamedModel, flatten
from ..config import Config, load_config
from ..errors import ConfigError

__all__ = ["continued_config"]

#: Stored backend settings that reach an address or read a variable: never taken from a run file.
ADDRESSES = ("backend.base_url", "backend.more_base_urls", "backend.api_key_env")


def continued_config(run: str, recorded: dict[str, Any], named: NamedModel, *, more_base_urls: Sequence[str] = (),
                     over: dict | None = None, config_file: str | None = None) -> Config:
    """The configuration to continue run ``run`` with.

    Args:
        run: the run file (for messages).
        recorded: the run's meta ``config`` (a nested dict).
        named: the model options of the command line (``--backend``, ``--model``, the first
            ``--base-url``, ``--api-key-env``).
        more_base_urls: the further ``--base-url`` values (more servers of the same model).
        over: dotted overrides the command names (fork's ``--seed``, ``--set``): named, so kept.
        config_file: a TOML file the command names (fork's ``--config``), used instead of ``recorded``.

    Returns:
        The :class:`Config`: ``recorded`` (or the file) without the stored addresses, with ``over``
        and the named model applied.

    Raises:
        ConfigError: one line naming the flags to pass when a model backend or a server embedder
            would need an address the command did not name; naming the run's ``config`` when it
            is not a table.
    """
    over = dict(over or {})
    if config_file:
        base = flatten(load_config(config_file, over).to_dict())
    elif not isinstance(recorded, dict):
        raise ConfigError(f"must be a table of settings, got {recorded!r}", file=run, field="config")
    else:
        defaults = load_config()
        base = {k: v for k, v in flatten(recorded).items() if k not in ADDRESSES}
        base["backend.api_key_env"] = defaults.backend.api_key_env
        base.update(over)
    urls = [named.base_url, *more_base_urls] if named.base_url else []
    if named.backend or urls:
        base["backend.name"] = named.name
    if urls:
        base["backend.base_url"], base["backend.more_base_urls"] = urls[0], list(urls[1:])
    if named.model:
        base["backend.model"] = named.model
    if named.api_key_env:
        base["backend.api_key_env"] = named.api_key_env
    name = str(base.get("backend.name", "scripted"))
    server_embedder = str(base.get("embedder", "")).partition(":")[0] == "openai"
    if not base.get("backend.base_url") and (name == "openai" or server_embedder):
        if named.backend or urls or config_file:
            what = "--backend openai" if name == "openai" else f"the {base.get('embedder')} embedder"
            raise ConfigError(f"{what} needs --base-url URL: a run file's address is never used", field="--base-url")
        raise ConfigError(_made_with(run, recorded, server_embedder and name != "openai"), field="--base-url")
    return load_config(None, base)


def _made_with(run: str, recorded: dict[str, Any], embedder_only: bool) -> str:
    """The refusal for a run continued without naming the server it needs: what it was made with
    (shown, never contacted) and the flags to pass."""
    made = recorded.get("backend") or {}
    model = f" (model {made['model']})" if made.get("model") else ""
    url = f" at {made['base_url']}" if made.get("base_url") else ""
    if embedder_only:
        return (f"{run} was embedded by {recorded.get('embedder')}{url}; a run file's address is never used: "
                "pass --base-url URL [--api-key-env VAR] to continue it")
    return (f"{run} was made with backend {made.get('name')}{model}{url}; a run file's address is never used: "
            "pass --backend openai --base-url URL [--api-key-env VAR] to continue it with a model, "
            "or --backend scripted")
