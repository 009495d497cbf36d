"""Router tests. The shipped keyword table is read here once (the router itself reads no files)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from artibot.hookpath.router import DomainTable

DOMAINS_JSON = Path(__file__).resolve().parents[2] / "config" / "domains.json"


@lru_cache(maxsize=1)
def shipped_document() -> dict:
    return json.loads(DOMAINS_JSON.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def shipped_table() -> DomainTable:
    return DomainTable.from_json(shipped_document())
