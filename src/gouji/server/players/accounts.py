"""Accounts (optional: everyone may play as a guest): names, passwords, sessions, log-in limits.

A password is kept as an argon2id hash (argon2-cffi's ``PasswordHasher``: 64 MiB, 3 passes,
one lane); a session is a random token given to the browser in an HttpOnly cookie
and kept as its SHA-256. Failed log-ins are counted across the site (rows of
``login_failures``) against the account (from anywhere), against the address, and against the
name *from that address* (D180): an account past its limit answers 429 whatever the password;
an address past its limit is not locked — a name that failed from it is (429 from that address
for the window), and its other attempts are slowed (``routes``), so a neighbour behind the same
NAT still logs in while a client spraying one password over many names gets one try a name.
An unknown name costs the same hash as a known one, so the time of an answer does not tell
which names exist. Names are checked for invisible characters, confusable mixes of scripts and
look-alikes of existing names (``names``, D181). docs/security.md.
"""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from gouji.server.players.names import NameProblem, check_looks, skeleton
from gouji.server.players.store import AccountRow, AccountStore
from gouji.server.plumbing import tokens
from gouji.server.plumbing.clock import SYSTEM, Clock
from gouji.server.plumbing.db import Database
from gouji.server.plumbing.http import ApiError
from gouji.server.plumbing.limits import Limits

NAME_MIN, NAME_MAX = 2, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 128
SESSION_S = 30 * 86400.0  # a session lasts 30 days from its last renewal …
RENEW_S = 86400.0  # … renewed (one write) at most once a day
FAILURE_WINDOW_S = 15 * 60.0
NEUTRAL_NAME = "匿名玩家"  # a deleted account's name in the games it played (D107)
_NAME_PUNCTUATION = set("_-·.")
_RESERVED = {"guest", "游客", "bot", "admin", "匿名", NEUTRAL_NAME.casefold()}
_RESERVED_LOOKS = {skeleton(name) for name in _RESERVED}  # 'аdmin' is reserved too


class AccountError(ApiError):
    """A refused account request: an ``ApiError`` (``status``, a stable ``code``, a clear
    ``message``), with ``retry_after`` seconds past the log-in limits."""

    def __init__(
        self, status: int, code: str, message: str, retry_after: int | None = None
    ) -> None:
        headers = {"retry-after": str(retry_after)} if retry_after else None
        super().__init__(status, code, message, headers)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Account:
    """Who a session belongs to (what a connection and a seat know of an account)."""

    id: int
    name: str


def account_name(raw: object) -> tuple[str, str]:
    """(name as shown, its key): NFKC, trimmed, 2–20 letters, digits, CJK or ``_-·.``; the
    key is casefolded, so 'Li' and 'li' are one name. Raises ``AccountError`` saying why."""
    if not isinstance(raw, str):
        raise AccountError(400, "bad_name", "a name is text")
    name = unicodedata.normalize("NFKC", raw).strip()
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise AccountError(
            400, "bad_name", f"a name has {NAME_MIN} to {NAME_MAX} characters, not {len(name)}"
        )
    for c in name:
        if not (c.isalnum() or c in _NAME_PUNCTUATION or unicodedata.category(c) == "Mn"):
            raise AccountError(
                400, "bad_name", f"a name holds letters, digits and _-·. only, not {c!a}"
            )
    try:
        check_looks(name)
    except NameProblem as e:
        raise AccountError(400, "bad_name", str(e)) from None
    key = name.casefold()
    if key in _RESERVED or skeleton(name) in _RESERVED_LOOKS:
        raise AccountError(400, "bad_name", f"the name {name!a} is reserved")
    return name, key


def check_password(raw: object) -> str:
    """A new password: text of 8 to 128 characters (no other rule: length is what counts)."""
    if not isinstance(raw, str):
        raise AccountError(400, "bad_password", "a password is text")
    if not PASSWORD_MIN <= len(raw) <= PASSWORD_MAX:
        raise AccountError(
            400,
            "bad_password",
            f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters, not {len(raw)}",
        )
    return raw


class Accounts:
    """The site's accounts and sessions over the rooms' database."""

    def __init__(
        self,
        store: Database,
        limits: Limits | None = None,
        clock: Clock = SYSTEM,
        hasher: PasswordHasher | None = None,
    ) -> None:
        self.db = AccountStore(store)
        self.limits = limits or Limits()
        self.clock = clock
        # argon2id, 64 MiB and 3 passes (RFC 9106's second choice) in one lane: a hash keeps
        # one core busy, never both, so the tables of a 2-core server go on meanwhile
        self.hasher = hasher or PasswordHasher(time_cost=3, memory_cost=65536, parallelism=1)
        self._dummy: str | None = None  # an unknown name costs a hash too (made when needed)

    # ------------------------------------------------------------------ accounts
    def count_sign_up(self, ip: str) -> None:
        """Count a sign-up attempt from ``ip``, whatever comes of it (rows of
        ``login_failures`` keyed ``sign-up:…``, so every process of a site counts them
        together): 429 past ``sign_ups_per_ip`` in the window, before any hash is made."""
        now = self.clock.time()
        key = f"sign-up:{ip}"[:80]
        if self.db.failures(key, now - FAILURE_WINDOW_S) >= self.limits.sign_ups_per_ip:
            minutes = int(FAILURE_WINDOW_S // 60)
            raise AccountError(
                429,
                "rate_limited",
                f"too many sign-ups from your address: try again in {minutes} minutes",
                retry_after=int(FAILURE_WINDOW_S),
            )
        self.db.add_failures([key], now, now - FAILURE_WINDOW_S)

    def check_new(self, raw_name: object, raw_password: object) -> tuple[str, str, str]:
        """A sign-up's name (as shown), its key and the password, checked without hashing:
        400 for a malformed name or password, 409 for a name that is taken."""
        name, key = account_name(raw_name)
        password = check_password(raw_password)
        self._refuse_taken(name, key)
        return name, key, password

    def _refuse_taken(self, name: str, key: str) -> None:
        """409 ``name_taken`` for a name that is an account's, ``name_lookalike`` for one
        that looks like an account's (``names.skeleton``: ``аlice`` when ``alice`` exists)."""
        if self.db.by_key(key) is not None:
            raise AccountError(409, "name_taken", f"the name {name!a} is taken")
        other = self.db.look_alike(name)
        if other is not None:
            raise AccountError(
                409, "name_lookalike", f"the name {name!a} looks like {other!a}, a player's"
            )

    def sign_up(self, raw_name: object, raw_password: object) -> tuple[Account, str]:
        """A new account and a session token for it (the name checked before the hash)."""
        name, key, password = self.check_new(raw_name, raw_password)
        row = self.db.create(name, key, self.hasher.hash(password), self.clock.time())
        if row is None:  # taken meanwhile, maybe at another worker: say which
            self._refuse_taken(name, key)
            raise AccountError(409, "name_taken", f"the name {name!a} is taken")
        return Account(row.id, row.name), self._new_session(row.id)

    def suspect(self, ip: str) -> bool:
        """Whether ``ip`` is past ``login_failures_per_ip`` failed log-ins in the window: its
        log-ins are slowed and each name gets one failure from it (D180)."""
        since = self.clock.time() - FAILURE_WINDOW_S
        return self.db.failures(_ip_key(ip), since) >= self.limits.login_failures_per_ip

    def log_in(self, raw_name: object, raw_password: object, ip: str) -> tuple[Account, str]:
        """Check a name and password: the account and a new session token; 401 on a wrong
        name or password, 429 for an account past its failures (from anywhere) or a name past
        its failures from this address — one when the address is past its own (D180)."""
        if not isinstance(raw_name, str) or not isinstance(raw_password, str):
            raise AccountError(400, "bad_request", "name and password are text")
        key = unicodedata.normalize("NFKC", raw_name).strip().casefold()
        now = self.clock.time()
        since = now - FAILURE_WINDOW_S
        keys = [_ip_key(ip), f"account:{key}"[:80], "ip-name:" + tokens.token_hash(f"{ip} {key}")]
        per_name = 1 if self.suspect(ip) else self.limits.login_failures_per_account
        if self.db.failures(keys[2], since) >= per_name:
            raise _too_many("of this name from your address")
        if self.db.failures(keys[1], since) >= self.limits.login_failures_per_account:
            raise _too_many("of this account")
        row = self.db.by_key(key) if len(raw_password) <= PASSWORD_MAX else None
        if row is None or not self._verify(row, raw_password):
            if row is None:
                self._verify(None, raw_password)
            self.db.add_failures(keys, now, now - FAILURE_WINDOW_S)
            raise AccountError(401, "wrong_password", "wrong name or password")
        return Account(row.id, row.name), self._new_session(row.id)

    def _verify(self, row: AccountRow | None, password: str) -> bool:
        if row is None and self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        try:
            self.hasher.verify(row.password if row is not None else str(self._dummy), password)
        except (VerificationError, InvalidHashError):
            return False
        if row is not None and self.hasher.check_needs_rehash(row.password):
            self.db.set_password(row.id, self.hasher.hash(password))
        return row is not None

    def change_password(self, account: Account, old: object, new: object, keep: str) -> None:
        """A new password (the old one confirmed); every other session of the account ends."""
        row = self.db.by_id(account.id)
        if row is None:
            raise AccountError(401, "not_logged_in", "log in first")
        if not isinstance(old, str) or not self._verify(row, old):
            raise AccountError(403, "wrong_password", "the current password is wrong")
        self.db.set_password(row.id, self.hasher.hash(check_password(new)))
        self.db.end_other_sessions(row.id, tokens.token_hash(keep))

    def delete(self, account: Account, password: object) -> None:
        """Delete the account (the password confirmed) and end its sessions; its games stay,
        renamed by the caller (``NEUTRAL_NAME``)."""
        row = self.db.by_id(account.id)
        if row is None:
            raise AccountError(401, "not_logged_in", "log in first")
        if not isinstance(password, str) or not self._verify(row, password):
            raise AccountError(403, "wrong_password", "the password is wrong")
        self.db.delete(row.id)

    # ------------------------------------------------------------------ sessions
    def _new_session(self, account: int) -> str:
        token = secrets.token_urlsafe(32)
        now = self.clock.time()
        self.db.add_session(tokens.token_hash(token), account, now, now + SESSION_S)
        return token

    def session(self, token: str | None) -> Account | None:
        """The account of a session cookie (renewed once a day); None for a guest."""
        if not token or len(token) > 100:
            return None
        hashed = tokens.token_hash(token)
        now = self.clock.time()
        found = self.db.session(hashed, now)
        if found is None:
            return None
        row, expires = found
        if expires - now < SESSION_S - RENEW_S:
            self.db.extend_session(hashed, now + SESSION_S)
        return Account(row.id, row.name)

    def log_out(self, token: str | None) -> None:
        if token and len(token) <= 100:
            self.db.end_session(tokens.token_hash(token))


def _ip_key(ip: str) -> str:
    return f"ip:{ip}"[:80]


def _too_many(whom: str) -> AccountError:
    minutes = int(FAILURE_WINDOW_S // 60)
    return AccountError(
        429,
        "too_many_attempts",
        f"too many failed log-ins {whom}: try again in {minutes} minutes",
        retry_after=int(FAILURE_WINDOW_S),
    )
