"""The club of the online osteria: its members' accounts and their ratings.

An account is a name and a password hashed with argon2 (never kept, nor logged, in clear); a
signed-in browser holds a random session token, of which the server keeps only a hash. Ratings
are OpenSkill's (Plackett-Luce), one per player and game, the bots' by level ("bot:maestro").
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from openskill.models import PlackettLuce

NAME_LENGTH = (2, 32)
# A letter or digit, then letters, digits, spaces or . ' - _; no ":", so no account is called as a bot is.
ACCOUNT_NAME = re.compile(rf"[^\W_][\w .'-]{{{NAME_LENGTH[0] - 1},{NAME_LENGTH[1] - 1}}}")
PASSWORD_LENGTH = (8, 128)
SESSION_DAYS = 30  # how long a sign-in lasts
BOT_PREFIX = "bot:"

_hasher = PasswordHasher()
_model = PlackettLuce()

Rating = tuple[float, float]  # (mu, sigma)


def account_name(name: str) -> str:
    """``name`` with its spaces made single, as an account's name; ValueError saying what a name may be."""
    name = " ".join(name.split())
    if not ACCOUNT_NAME.fullmatch(name):
        low, high = NAME_LENGTH
        raise ValueError(f"a name is {low} to {high} letters, digits, spaces or . ' - _, beginning with a letter "
                         "or digit")
    return name


def password(text: str) -> str:
    """``text`` as a password; ValueError for one too short or too long."""
    low, high = PASSWORD_LENGTH
    if not low <= len(text) <= high:
        raise ValueError(f"a password is {low} to {high} characters")
    return text


def hash_password(text: str) -> str:
    return _hasher.hash(text)


@cache
def _unknown_account_hash() -> str:
    return _hasher.hash(secrets.token_urlsafe(16))


def password_matches(stored_hash: str | None, text: str) -> bool:
    """Whether ``text`` is the password of ``stored_hash``; for an unknown account (None) a hash
    is checked all the same, so that a wrong name takes as long to refuse as a wrong password."""
    try:
        return _hasher.verify(stored_hash or _unknown_account_hash(), text) and stored_hash is not None
    except (VerificationError, InvalidHashError):
        return False


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def session_key(token: str) -> str:
    """What the store keeps of a session token: a hash, so that a copy of the database signs nobody in."""
    return hashlib.sha256(token.encode()).hexdigest()


def bot_player(level: str) -> str:
    """A bot's name on the ladder: its level, since bots of a level play alike."""
    return BOT_PREFIX + level


def ranks(totals: Sequence[int], winners: Sequence[int] | None, sense: int) -> list[int]:
    """Each seat's place in a finished match (1: first; equal places tie): the winners first, then
    by score, ``sense`` saying which way the game counts (-1: lower is better)."""
    won = set(winners or ())
    keys = [(seat in won, sense * total) for seat, total in enumerate(totals)]
    return [1 + sum(other > mine for other in keys) for mine in keys]


def default_rating() -> Rating:
    fresh = _model.rating()
    return fresh.mu, fresh.sigma


def rate(before: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Each seat's rating after a match in which it came ``places``, from its rating ``before``."""
    teams = [[_model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(team[0].mu, team[0].sigma) for team in _model.rate(teams, ranks=list(places))]


def ordinal(rating: Rating) -> float:
    """The rating the ladder orders by: mu less three sigmas, what the player surely has."""
    mu, sigma = rating
    return mu - 3 * sigma
