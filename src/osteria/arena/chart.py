"""A picture of an arena run: each player's advantage per deal with its 95% interval."""

from __future__ import annotations

from pathlib import Path

from osteria.arena.duplicate import Report


def save_chart(report: Report, path: Path) -> None:
    """Write a PNG bar chart; needs matplotlib (the ``arena`` extra)."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display is needed or wanted
    import matplotlib.pyplot as plt

    advantages = report.advantages()
    players = report.config.players
    names = [f"{name} ({i})" if players.count(name) > 1 else name for i, name in enumerate(players)]
    means = [a.mean for a in advantages]
    errors = [a.half_width for a in advantages]
    figure, axes = plt.subplots(figsize=(1.6 + 1.4 * len(names), 3.6), dpi=120)
    colours = ["#2a7f62" if a.low > 0 else "#b03a2e" if a.high < 0 else "#7f7f7f" for a in advantages]
    axes.bar(names, means, yerr=errors, capsize=6, color=colours)
    axes.axhline(0, color="black", linewidth=0.8)
    sense = "lower is better, shown as advantage" if report.sense < 0 else "points per deal"
    axes.set_ylabel(f"advantage ({sense})")
    axes.set_title(f"{report.config.game}: {len(report.boards)} duplicate boards, 95% intervals")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
