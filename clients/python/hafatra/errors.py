"""The errors the client raises: every API error carries the API's code, message and request id."""
from __future__ import annotations

import json
import re
from typing import Any, Dict, Optional, Type


class HafatraError(Exception):
    """Anything the client raises."""


class HafatraApiError(HafatraError):
    """The API answered with an error.

    ``code``, ``message`` and ``request_id`` are the API's own (quote the request id when
    reporting a 500); ``field`` names the offending field of a 400 (``to[3]``, ``sendAt``,
    ``limit``) when the API names one; ``retry_after`` is the Retry-After it sent, in seconds.
    """

    def __init__(self, status: int, code: str, message: str, request_id: str, retry_after: Optional[float]) -> None:
        super().__init__(f"{code}: {message}" + (f" (request {request_id})" if request_id else ""))
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.retry_after = retry_after
        match = re.match(r"^([A-Za-z_$][\w$.\[\]]*): ", message) if code == "invalid_request" else None
        self.field: Optional[str] = match.group(1) if match else None


class InvalidRequestError(HafatraApiError):
    """400 invalid_request (or 413): the request is wrong; sending it again will not help."""


class AuthenticationError(HafatraApiError):
    """401: the API key is missing, wrong, revoked or expired."""


class PermissionDeniedError(HafatraApiError):
    """403: the API key lacks the scope the operation needs."""


class NotFoundError(HafatraApiError):
    """404: no such resource in the key's organization."""


class ConflictError(HafatraApiError):
    """409: an Idempotency-Key reused for another request, no_device, invalid_transition…"""


class RateLimitedError(HafatraApiError):
    """429: the organization's daily limit or the key's request rate; ``retry_after`` says when."""


class ServerError(HafatraApiError):
    """5xx: the server failed; quote ``request_id``."""


class HafatraConnectionError(HafatraError):
    """No answer: the connection failed or timed out (after the client's retries)."""


class WaitTimeoutError(HafatraError):
    """wait_for_terminal ran out of time; ``last`` is the last reading of the message."""

    def __init__(self, last: Any) -> None:
        super().__init__(f"message {last.id} still {last.status} when the wait ended")
        self.last = last


class WebhookVerificationError(HafatraError):
    """The delivery is not from Hafatra (or not now): answer it 4xx and do nothing with it."""


_BY_STATUS: Dict[int, Type[HafatraApiError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: InvalidRequestError,
    429: RateLimitedError,
}


def api_error(status: int, raw: bytes, retry_after: Optional[float]) -> HafatraApiError:
    """The typed error of an answer; a body that is not the API's error shape still gives one."""
    try:
        error: Any = json.loads(raw.decode("utf-8")).get("error") or {}
    except (ValueError, AttributeError, UnicodeDecodeError):
        error = {}
    def text(name: str, default: str) -> str:
        value = error.get(name) if isinstance(error, dict) else None
        return value if isinstance(value, str) else default

    code = text("code", "internal_error" if status >= 500 else "invalid_request")
    message = text("message", f"HTTP {status}")
    request_id = text("requestId", "")
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else HafatraApiError)
    return cls(status, code, message, request_id, retry_after)
