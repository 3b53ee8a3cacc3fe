"""The transparency log of signed results (docs/API.md, "Transparency log").

``domain.merkle`` hashes the tree; here are its text formats (``note``: C2SP signed notes and
checkpoints), its leaves (``leaf``), its key (``keys``), its storage and appender (``store``),
and the witness (``witness``).
"""
