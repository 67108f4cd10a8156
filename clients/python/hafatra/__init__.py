"""Python client of the Hafatra SMS gateway API (standard library only)."""
from ._generated import *  # noqa: F401,F403  (every model, and UNSET)
from ._generated import UNSET, Operations
from .client import TERMINAL_STATUSES, Hafatra, __version__
from .errors import (
    AuthenticationError,
    ConflictError,
    HafatraApiError,
    HafatraConnectionError,
    HafatraError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitedError,
    ServerError,
    WaitTimeoutError,
    WebhookVerificationError,
)
from .webhooks import WebhookEvent, WebhookTestData, verify_webhook

__all__ = [
    "AuthenticationError",
    "ConflictError",
    "Hafatra",
    "HafatraApiError",
    "HafatraConnectionError",
    "HafatraError",
    "InvalidRequestError",
    "NotFoundError",
    "Operations",
    "PermissionDeniedError",
    "RateLimitedError",
    "ServerError",
    "TERMINAL_STATUSES",
    "UNSET",
    "WaitTimeoutError",
    "WebhookEvent",
    "WebhookTestData",
    "WebhookVerificationError",
    "__version__",
    "verify_webhook",
]
