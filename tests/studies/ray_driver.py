"""Start a Ray cluster on loopback in this process, then run `town ARGS` against it (--workers ray).

Run as ``python ray_driver.py ARGS`` with ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` in the
environment: Ray then takes 127.0.0.1 as the node's address, and every server of the cluster
listens on loopback only. Prints the node's address first; exits with the command's code.
"""

from __future__ import annotations

import os
import sys

import ray

from town.cli.main import main

if __name__ == "__main__":
    assert os.environ.get("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER") == "0", "loopback only: set RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0"
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        print("ray node:", ",".join(sorted(n["NodeManagerAddress"] for n in ray.nodes())), flush=True)
        code = main(sys.argv[1:])
    finally:
        ray.shutdown()
    sys.exit(code)
