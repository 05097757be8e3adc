"""One line for a measured ratio against its goal, as ``make bench`` prints them."""

from __future__ import annotations


def print_ratio(name: str, part: float, whole: float, goal: float) -> None:
    """Print ``  name = part/whole (meets|misses the goal of at most goal)``."""
    ratio = part / whole
    verdict = "meets" if ratio <= goal else "misses"
    print(f"  {name} = {ratio:.2f} ({verdict} the goal of at most {goal:.2f})")
