"""Passkeys (WebAuthn) for accounts (issue 43), with the ``webauthn`` package: sign up with a
passkey, add one to an account, and sign in with one (a discoverable credential: the browser
offers the passkeys it holds for this site, no name typed).

Each ceremony's challenge is kept in the database, used once and for at most
:data:`CEREMONY_SECONDS` (any server may check the answer). The relying party is the site's
host: ``PARLOR_PUBLIC_ORIGIN``'s first origin when set (behind a proxy), else the request's
own. A passkey's signature count must move on (a cloned authenticator is refused), and a
sign-in with a passkey no account has is refused like a wrong password.
"""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from parlor.store.accounts import Account, Ceremony, NameTaken, new_account_id
from parlor.web.accounts import NameUnavailable, Players, SignInRefused, check_username
from parlor.web.games import BadAction

CEREMONY_SECONDS = 300.0
RP_NAME = "Parlor Magic"
PURPOSES = ("signup", "add", "signin")


def relying_party(public_origin: str, scheme: str, netloc: str) -> tuple[str, str]:
    """The relying party's id (a host name) and the origin the browser's answer must name.

    >>> relying_party("", "http", "localhost:8000")
    ('localhost', 'http://localhost:8000')
    >>> relying_party("https://play.example.org, https://other.example", "http", "10.0.0.2")
    ('play.example.org', 'https://play.example.org')
    """
    first = public_origin.split(",")[0].strip()
    origin = first.rstrip("/") if first else f"{scheme}://{netloc}"
    host = urllib.parse.urlsplit(origin).hostname or ""
    return host, origin


def _options(options: Any) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(options_to_json(options))
    return found


class Passkeys:
    def __init__(self, players: Players) -> None:
        self.players = players
        self.accounts = players.accounts

    def registration(self, rp_id: str, account: Account | None, username: str,
                     address: str = "") -> dict[str, Any]:
        """The options of ``navigator.credentials.create``: a new account's first passkey
        (``account`` None: the name must be free; a taken one counts against ``address``
        as with a password, :meth:`Players.sign_up`) or one more for ``account``."""
        if account is None:
            self.players.check_address(address)
            name = check_username(username)
            if self.accounts.by_name(name) is not None:
                self.players.name_taken(address)
            purpose, account_id, known = "signup", new_account_id(), []
        else:
            name, purpose, account_id = account.username, "add", account.id
            known = self.accounts.passkey_ids(account.id)
        options = generate_registration_options(
            rp_id=rp_id, rp_name=RP_NAME, user_name=name, user_id=account_id.encode(),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(k))
                                 for k in known])
        cid = self.accounts.begin_ceremony(
            Ceremony(purpose, account_id, name, bytes_to_base64url(options.challenge)),
            seconds=CEREMONY_SECONDS)
        return {"ceremony": cid, "options": _options(options)}

    def register(self, rp_id: str, origin: str, cid: str, credential: str) -> Account:
        """Check the browser's new credential; the account it made (a sign-up) or added to."""
        ceremony = self.accounts.take_ceremony(cid)
        if ceremony is None or ceremony.purpose not in ("signup", "add"):
            raise BadAction("this passkey request has run out or was used: try again")
        try:
            verified = verify_registration_response(
                credential=credential, expected_rp_id=rp_id, expected_origin=origin,
                expected_challenge=base64url_to_bytes(ceremony.challenge))
        except (WebAuthnException, ValueError) as exc:
            raise BadAction(f"the passkey was not accepted: {exc}") from None
        if ceremony.purpose == "signup":
            try:
                account = self.accounts.create(ceremony.username, account_id=ceremony.account_id)
            except NameTaken:
                raise NameUnavailable("that name was taken meanwhile: choose another") from None
        else:
            found = self.accounts.by_id(ceremony.account_id)
            if found is None:
                raise BadAction("the account was deleted meanwhile")
            account = found
        self.accounts.add_passkey(account.id, bytes_to_base64url(verified.credential_id),
                                  bytes_to_base64url(verified.credential_public_key),
                                  verified.sign_count)
        return account

    def authentication(self, rp_id: str) -> dict[str, Any]:
        """The options of ``navigator.credentials.get`` (any passkey of this site)."""
        options = generate_authentication_options(
            rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED)
        cid = self.accounts.begin_ceremony(
            Ceremony("signin", "", "", bytes_to_base64url(options.challenge)),
            seconds=CEREMONY_SECONDS)
        return {"ceremony": cid, "options": _options(options)}

    def authenticate(self, rp_id: str, origin: str, cid: str, credential: str) -> Account:
        """The account whose passkey signed this ceremony's challenge, else SignInRefused."""
        ceremony = self.accounts.take_ceremony(cid)
        if ceremony is None or ceremony.purpose != "signin":
            raise BadAction("this passkey request has run out or was used: try again")
        try:
            cred_id = str(json.loads(credential)["id"])
        except (ValueError, KeyError, TypeError):
            raise BadAction("the passkey's answer is not a credential") from None
        found = self.accounts.passkey(cred_id)
        if found is None:
            raise SignInRefused("that passkey is not one of an account here")
        account_id, public_key, count = found
        try:
            verified = verify_authentication_response(
                credential=credential, expected_rp_id=rp_id, expected_origin=origin,
                expected_challenge=base64url_to_bytes(ceremony.challenge),
                credential_public_key=base64url_to_bytes(public_key),
                credential_current_sign_count=count)
        except (WebAuthnException, ValueError):
            raise SignInRefused("that passkey is not one of an account here") from None
        if not self.accounts.count_passkey_use(cred_id, count, verified.new_sign_count):
            raise SignInRefused("that passkey was used at the same time elsewhere: try again")
        account = self.accounts.by_id(account_id)
        if account is None:
            raise SignInRefused("that passkey is not one of an account here")
        return account


__all__ = ["CEREMONY_SECONDS", "Passkeys", "relying_party"]
