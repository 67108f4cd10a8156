"""Verifying webhook deliveries (docs/webhooks.md): HMAC-SHA256 over ``<t>.<raw body>``."""
from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Optional, Protocol, Sequence, Tuple, Union

from ._generated import IncomingMessage, Message, MobileMoneyEvent
from .errors import WebhookVerificationError


@dataclass(frozen=True)
class WebhookTestData:
    endpoint_id: str
    message: str


@dataclass(frozen=True)
class WebhookEvent:
    """A delivery's body. ``data`` is a Message for ``message.*``, an IncomingMessage for
    ``incoming.received``, a MobileMoneyEvent for ``mobile_money.detected`` (never proof of
    payment) and WebhookTestData for ``webhook.test``. Deduplicate on ``id``: delivery is at
    least once."""

    id: str
    event: str
    created_at: str
    data: Union[Message, IncomingMessage, MobileMoneyEvent, WebhookTestData, Dict[str, Any]]


def _typed(event: str, data: Dict[str, Any]) -> Any:
    if event.startswith("message."):
        return Message.from_json(data)
    if event == "incoming.received":
        return IncomingMessage.from_json(data)
    if event == "mobile_money.detected":
        return MobileMoneyEvent.from_json(data)
    if event == "webhook.test":
        return WebhookTestData(endpoint_id=data["endpointId"], message=data["message"])
    return data


class Headers(Protocol):
    """Anything with ``items()``: a dict, http.server's ``self.headers``, a framework's headers."""

    def items(self) -> Iterable[Tuple[str, Any]]: ...


def _header(headers: Headers, name: str) -> Optional[str]:
    for key, value in headers.items():
        if key.lower() == name:
            return ",".join(value) if isinstance(value, (list, tuple)) else str(value)
    return None


def verify_webhook(
    raw_body: Union[bytes, str],
    headers: Headers,
    secret: Union[str, Sequence[str]],
    *,
    tolerance: float = 300,
    now: Optional[float] = None,
) -> WebhookEvent:
    """Checks a delivery and returns its event.

    ``raw_body`` is the body exactly as received (never re-serialized JSON), ``headers`` the
    request's (anything with ``items()``; names are matched without regard to case), ``secret`` the endpoint's
    (``whsec_…``, used as text) or both secrets during a rotation. Raises
    WebhookVerificationError when the Hafatra-Signature header is missing or malformed, its time
    is more than ``tolerance`` seconds from ``now``, or no ``v1`` value matches (compared in
    constant time).
    """
    signature = _header(headers, "hafatra-signature")
    if not signature:
        raise WebhookVerificationError("no Hafatra-Signature header")
    parts = [p.strip().split("=", 1) for p in signature.split(",")]
    t = next((p[1] for p in parts if len(p) == 2 and p[0] == "t"), None)
    given = [p[1].lower() for p in parts if len(p) == 2 and p[0] == "v1" and p[1]]
    if not t or not t.isdigit() or not given:
        raise WebhookVerificationError("malformed Hafatra-Signature header")
    current = time.time() if now is None else now
    if abs(current - int(t)) > tolerance:
        raise WebhookVerificationError("signature time outside the tolerance (a replay, or a clock off)")
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body
    secrets = [secret] if isinstance(secret, str) else list(secret)
    valid = False
    # Every pair is compared, matched or not, so the time taken says nothing about which matched.
    for s in secrets:
        expected = hmac.new(s.encode("utf-8"), t.encode("ascii") + b"." + body, hashlib.sha256).hexdigest()
        for value in given:
            valid = hmac.compare_digest(expected, value) or valid
    if not valid:
        raise WebhookVerificationError("signature does not match")
    try:
        payload = json.loads(body.decode("utf-8"))
    except ValueError:
        raise WebhookVerificationError("signed body is not JSON") from None
    return WebhookEvent(id=payload["id"], event=payload["event"], created_at=payload["createdAt"], data=_typed(payload["event"], payload["data"]))
