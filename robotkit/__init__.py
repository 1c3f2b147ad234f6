"""robotkit: the politeness layer a web robot embeds."""

from __future__ import annotations

__version__ = "0.1.0"
