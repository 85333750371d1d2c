"""`town stats`: a recorded run's model calls and tokens."""

from __future__ import annotations

import argparse


def cmd_stats(args: argparse.Namespace) -> int:
    """`town stats`: print the run's model-call accounting (see :mod:`town.analysis.stats`)."""
    from ..analysis.stats import print_stats

    print_stats(args.run)
    return 0
