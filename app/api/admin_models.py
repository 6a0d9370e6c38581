"""What the operators' console routes answer (app/api/admin.py), for OpenAPI and checked on
the way out. The money report and the metrics summary keep their figures as objects: their
keys are the audit's invariants and the metric families (docs/operations/monitoring.md "The money
audit", app/metrics.py)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from .lobby import TableOut
from .wallet import Wallet


class AdminPlayer(BaseModel):
    id: int
    name: str
    username: str | None
    kind: str
    role: str
    banned: bool
    banned_at: str | None
    ban_reason: str | None
    balance: int | None = Field(description="the wallet; None when the player has none")
    created_at: str | None


class PlayerPage(BaseModel):
    items: list[AdminPlayer]
    page: int
    per_page: int
    total: int


class PlayerDetail(AdminPlayer):
    wallet: Wallet | None


class Banned(AdminPlayer):
    seats_left: list[Any] = Field(description="the seats given up, as after leaving")


class LedgerLine(BaseModel):
    key: str
    kind: str
    table: str | None
    at: str | None
    account: str
    amount: int


class LedgerPage(BaseModel):
    items: list[LedgerLine]
    page: int
    per_page: int
    total: int


class Adjusted(BaseModel):
    balance: int
    moved: bool = Field(description="false: this request id moved the chips before")
    key: str


class TableState(BaseModel):
    table: TableOut
    view: dict[str, Any] | None = Field(
        description="a spectator's view (no hidden tile); None between matches"
    )


class Closed(BaseModel):
    table: TableOut
    returned: dict[str, int] = Field(description="each player's stack, back to the wallet")


class DeadLetter(BaseModel):
    id: str
    stream: str
    raw: str = Field(description="the outbox entry as it was written")
    error: str


class DeadLetterPage(BaseModel):
    items: list[DeadLetter]
    page: int
    per_page: int
    total: int


class Action(BaseModel):
    id: int
    admin_id: int | None
    admin: str | None
    action: str
    target: str
    reason: str | None = Field(description="None for the command line's grants")
    detail: dict[str, Any] | None
    at: str | None


class ActionPage(BaseModel):
    items: list[Action]
    page: int
    per_page: int
    total: int


class MoneyReport(BaseModel):
    """The money invariants (docs/operations/monitoring.md "The money audit"): ``ok`` when all
    of them hold."""

    ok: bool
    granted: int = Field(description="everything the house ever granted")
    wallets: int
    stacks_in_play: int
    unbalanced_txns: list[str]
    negative_wallets: int
    negative_stacks: list[str]
    wallets_not_matching_ledger: list[int]
    outbox_backlog: int = Field(description="entries not yet written; 0 before comparing")
    stacks_in_redis: int = Field(description="the live tables' stacks, as Redis has them")


class Summary(BaseModel):
    audit: MoneyReport
    metrics: dict[str, Any] = Field(description="this process's first metrics, by labels")
