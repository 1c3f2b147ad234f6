"""The I/O shell: httpx clients and the robots.txt fetcher (ARCHITECTURE.md)."""

from __future__ import annotations

from robotkit.http.robots import AsyncRobotsChecker, RobotsChecker, RobotsOptions

__all__ = ["AsyncRobotsChecker", "RobotsChecker", "RobotsOptions"]
