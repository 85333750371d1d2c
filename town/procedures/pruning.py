"""Pruning: the three rules that retire a procedure from retrieval (docs/design, §2).

Any one prunes: a raw success rate under 0.5 after 5 uses, 30 game days without a use, or 7
game days below the retrieval threshold. A pruned procedure stays in its library, marked, and
is never retrieved again.
"""

from __future__ import annotations

import enum
from datetime import datetime, timedelta

from .procedure import Procedure

__all__ = ["PruneRule", "prune_rule", "MIN_USES_FOR_RATE", "UNUSED_DAYS", "BELOW_THRESHOLD_DAYS"]

#: Pruning rule 1 looks at the raw success rate only after this many uses.
MIN_USES_FOR_RATE = 5
#: Pruning rule 2: game days without a use.
UNUSED_DAYS = 30
#: Pruning rule 3: game days spent below the retrieval threshold.
BELOW_THRESHOLD_DAYS = 7


class PruneRule(str, enum.Enum):
    """The three pruning rules of docs/design, §2 (any one prunes)."""

    LOW_SUCCESS_RATE = "low success rate"  # successes / uses < 0.5 after >= 5 uses
    UNUSED = "unused"  # not used for 30 game days
    BELOW_THRESHOLD = "below threshold"  # reliability < threshold for 7 game days


def prune_rule(p: Procedure, now: datetime) -> PruneRule | None:
    """The first rule that prunes the kept procedure ``p`` at game datetime ``now``, or None."""
    if p.uses >= MIN_USES_FOR_RATE and p.successes / p.uses < 0.5:
        return PruneRule.LOW_SUCCESS_RATE
    if now - p.last_used >= timedelta(days=UNUSED_DAYS):
        return PruneRule.UNUSED
    if p.below_since is not None and now - p.below_since >= timedelta(days=BELOW_THRESHOLD_DAYS):
        return PruneRule.BELOW_THRESHOLD
    return None
