"""`town generate`: a new town folder of generated residents."""

from __future__ import annotations

import time


def cmd_generate(args) -> int:
    """``town generate``: write a generated town folder and check that it loads."""
    from ..generator import generate_town
    from ..scenario import load_scenario

    started = time.perf_counter()
    made = generate_town(args.personas, args.seed, args.out, force=args.force)
    load_scenario(made["folder"])  # the same checks as any town: schema, places, reachability
    w, h = made["size"]
    print(f"wrote {made['folder']}: {made['personas']} personas, {made['sectors']} places on a {w} x {h} map, "
          f"probes {', '.join(made['probes'])} ({time.perf_counter() - started:.1f} s); "
          f"run it with: town simulate --town {made['folder']} --hours 1 --out runs/<name>.sqlite")
    return 0
