"""A player's profile and the leaderboards, read from the running totals (``player_stat``).

The totals are kept by the records writer (app/services/stats_write.py), so a profile is
three indexed reads (the player, their all-time rows, their latest daily claim) and a
leaderboard page two (the page and its total), over the rows of one game and period
(index ``ix_player_stat_board``): the cost follows the number of players on the board, never
the number of matches played.

Decisions:
- The week is Monday 00:00 to Monday 00:00 Asia/Jakarta (the players' own calendar, as the
  daily chips are), and a match counts in the week it finished in.
- Gaple ranks by *net* chips won (won minus lost, Lewat and settlements): gross winnings
  would rank whoever plays the most rounds first, even one who loses more than they win.
- Moon and Domino Cross rank by matches won; a tie goes to fewer matches played.
- Mexican Train ranks by the lowest average match score, among players with at least
  ``min_matches`` matches in the period (a setting); a tie goes to more matches played.
- Gaple ranks only players whose net is positive, Moon and Cross only players with a win: a
  board of losers would show a player down 60 chips as "#1". Until someone qualifies the board
  is empty, and the page says that no one is on it yet.
- Remaining ties go to the lower player id (the earlier player), so pages never overlap.
  Ranks are positions (1, 2, 3, ...), not shared by ties.
- Bots are never on a board: they have no player id in the records (so no totals), and a
  player row of kind ``bot`` is left out as well.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import Float, Select, cast, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import ChipClaim, Player, PlayerStat
from app.games.registry import available
from app.services import avatars
from app.services.stats_write import ALL_TIME, JAKARTA, week_begins_at, week_start
from app.services.table.errors import TableError

Sessions = async_sessionmaker[AsyncSession]
Period = Literal["week", "all"]
METRIC = {"gaple": "net_chips", "mexican_train": "average_score"}  # others: matches won


def no_player(player_id: int) -> TableError:
    return TableError(404, "no_such_player", f"no player {player_id}")


def _known_game(game: str) -> None:
    if game not in available():
        raise TableError(404, "no_such_game", f"no game {game!r}; one of {available()}")


def profile_queries(player_id: int) -> tuple[Select, Select, Select]:
    """The player, their all-time rows (the primary key's prefix), their latest daily claim."""
    return (
        select(Player.id, Player.name, Player.avatar).where(Player.id == player_id),
        select(PlayerStat).where(PlayerStat.player_id == player_id, PlayerStat.period == ALL_TIME),
        select(ChipClaim.day, ChipClaim.streak)
        .where(ChipClaim.player_id == player_id, ChipClaim.kind == "daily")
        .order_by(ChipClaim.day.desc())
        .limit(1),
    )


async def profile(db: Sessions, player_id: int, *, now: datetime | None = None) -> dict[str, Any]:
    """Games played and won per game, chips won and lost, best Gaple multiplier, biggest pot,
    Moon contracts, and the current daily streak."""
    who, totals, daily = profile_queries(player_id)
    async with db() as session:
        player = (await session.execute(who)).first()
        if player is None:
            raise no_player(player_id)
        rows = (await session.execute(totals)).scalars().all()
        last_daily = (await session.execute(daily)).first()
    by_game = {r.game: r for r in rows}
    games = []
    for game in available():
        r = by_game.get(game)
        played, won = (r.played, r.won) if r else (0, 0)
        games.append({"game": game, "played": played, "won": won})
    won_chips = sum(r.chips_won for r in rows)
    lost_chips = sum(r.chips_lost for r in rows)
    gaple, moon = by_game.get("gaple"), by_game.get("moon")
    return {
        "id": player.id,
        "name": player.name,
        "avatar": avatars.avatar_of(player.id, player.avatar),
        "games": games,
        "chips": {"won": won_chips, "lost": lost_chips, "net": won_chips - lost_chips},
        "best_multiplier": (gaple.best_multiplier or None) if gaple else None,
        "biggest_pot": (gaple.biggest_pot or None) if gaple else None,
        "moon_contracts": {
            "bid": moon.contracts_bid if moon else 0,
            "made": moon.contracts_made if moon else 0,
        },
        "daily_streak": _streak(last_daily, now or datetime.now(JAKARTA)),
    }


def _streak(last: Any, now: datetime) -> int:
    """The streak is current while the last daily claim is from today or yesterday."""
    if last is None:
        return 0
    today = now.astimezone(JAKARTA).date()
    return int(last.streak) if last.day >= today - timedelta(days=1) else 0


def board_queries(
    game: str, period: str, metric: str, min_matches: int, page: int, per_page: int
) -> tuple[Select, Select]:
    """The number of players on a board and one page of it, over one game and period
    (index ``ix_player_stat_board``), best first."""
    s = PlayerStat
    value: Any
    if metric == "net_chips":
        value = s.chips_won - s.chips_lost
        order = [value.desc(), s.player_id]
    elif metric == "average_score":
        value = cast(s.score_sum, Float) / s.played
        order = [value.asc(), s.played.desc(), s.player_id]
    else:
        value = s.won
        order = [s.won.desc(), s.played, s.player_id]
    where = [s.game == game, s.period == period, Player.kind != "bot"]
    if metric == "average_score":
        where.append(s.played >= min_matches)
    else:  # only a positive net or at least one win ranks: a loser is never "#1"
        where.append(value > 0)
    board = select(s.player_id).join(Player, Player.id == s.player_id).where(*where)
    page_of = (
        select(s.player_id, Player.name, Player.avatar, s.played, s.won, value.label("value"))
        .join(Player, Player.id == s.player_id)
        .where(*where)
        .order_by(*order)
        .limit(per_page)
        .offset((page - 1) * per_page)
    )
    return select(func.count()).select_from(board.subquery()), page_of


async def leaderboard(
    db: Sessions,
    game: str,
    period: Period,
    *,
    page: int = 1,
    per_page: int = 20,
    min_matches: int = 1,
    now: datetime | None = None,
) -> dict[str, Any]:
    """One page of a game's board for this week or all time, with the total of players."""
    _known_game(game)
    since: date | None = week_start(now or datetime.now(JAKARTA)) if period == "week" else None
    metric = METRIC.get(game, "wins")
    key = since.isoformat() if since else ALL_TIME
    count, page_of = board_queries(game, key, metric, min_matches, page, per_page)
    async with db() as session:
        total = (await session.execute(count)).scalar_one()
        rows = (await session.execute(page_of)).all()
    first = (page - 1) * per_page + 1
    return {
        "game": game,
        "period": period,
        "since": week_begins_at(since).isoformat() if since else None,
        "metric": metric,
        "min_matches": min_matches if metric == "average_score" else None,
        "page": page,
        "per_page": per_page,
        "total": total,
        "items": [
            {
                "rank": first + i,
                "player_id": r.player_id,
                "name": r.name,
                "avatar": avatars.avatar_of(r.player_id, r.avatar),
                "played": r.played,
                "won": r.won,
                "value": round(r.value, 1) if metric == "average_score" else int(r.value),
            }
            for i, r in enumerate(rows)
        ],
    }
