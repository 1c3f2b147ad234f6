"""robotkit's version, in a module of its own so that nothing needs the package root
for it (the User-Agent and ``robotkit --version`` read it here)."""

__version__ = "0.1.0"
