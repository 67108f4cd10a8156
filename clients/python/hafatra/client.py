"""The client: HTTP with the standard library, bounded retries honouring Retry-After, and waits."""
from __future__ import annotations

import http.client
import json
import random
import time
import urllib.error
import urllib.request
import uuid
from email.utils import parsedate_to_datetime
from typing import Any, Callable, Dict, Optional, Sequence
from urllib.parse import urlencode

from ._generated import MessageDetail, MessageStatus, Operations
from .errors import HafatraConnectionError, WaitTimeoutError, api_error

__version__ = "0.1.0"

#: Statuses a message does not leave: delivered, and the four endings of the spec.
TERMINAL_STATUSES: Sequence[str] = ("delivered", "failed", "expired", "cancelled", "unknown")


def _retryable(status: int, retry_after: Optional[float]) -> bool:
    """429, 503, and a 5xx that says Retry-After: the same request can succeed later. Never another 4xx."""
    return status in (429, 503) or (status >= 500 and retry_after is not None)


def _parse_retry_after(value: Optional[str]) -> Optional[float]:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def _query_value(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


class Hafatra(Operations):
    """A client of Hafatra's /v1 API.

    One method per operation (generated from the server's OpenAPI document, in ``_generated``),
    ``iter_*`` over every list, and ``wait_for_terminal``. Retries 429, 503, a 5xx with
    Retry-After and connection errors (only where repeating the request is safe), at most
    ``max_retries`` times, waiting Retry-After when the API gives one; a Retry-After longer than
    ``max_delay`` is not waited for: the error is raised with its ``retry_after``.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        base_delay: float = 0.5,
        max_delay: float = 30.0,
        urlopen: Optional[Callable[..., Any]] = None,
    ) -> None:
        if not base_url or not api_key:
            raise ValueError("Hafatra: base_url and api_key are required")
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        self.base_delay = base_delay
        self.max_delay = max_delay
        self._urlopen = urlopen or urllib.request.urlopen

    def _delay(self, attempt: int, retry_after: Optional[float]) -> Optional[float]:
        if retry_after is not None:
            return None if retry_after > self.max_delay else retry_after
        backoff: float = self.base_delay * 2.0 ** (attempt - 1) * (0.5 + random.random())
        return min(self.max_delay, backoff)

    def _call(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Dict[str, Any]] = None,
        body: Any = None,
        idempotent: bool = False,
        idempotency_key: Optional[str] = None,
    ) -> Any:
        url = self.base_url + path
        if query:
            url += "?" + urlencode({k: _query_value(v) for k, v in query.items() if v is not None})
        headers = {"Authorization": f"Bearer {self.api_key}", "Accept": "application/json", "User-Agent": f"hafatra-python/{__version__}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if idempotent:
            # Made once, before the first attempt: every retry carries it, so the server sends once.
            headers["Idempotency-Key"] = idempotency_key or f"sdk-{uuid.uuid4()}"
        attempt = 0
        while True:
            attempt += 1
            request = urllib.request.Request(url, data=data, headers=headers, method=method)
            try:
                with self._urlopen(request, timeout=self.timeout) as response:
                    raw = response.read()
                return json.loads(raw) if raw else None
            except urllib.error.HTTPError as answer:
                raw = answer.read()
                answer.close()
                retry_after = _parse_retry_after(answer.headers.get("Retry-After"))
                error = api_error(answer.code, raw, retry_after)
                delay = self._delay(attempt, retry_after) if attempt <= self.max_retries and _retryable(answer.code, retry_after) else None
                if delay is None:
                    raise error from None
                time.sleep(delay)
            except (urllib.error.URLError, http.client.HTTPException, OSError) as failure:
                # A POST without an Idempotency-Key may have been done: it is never sent twice.
                if attempt > self.max_retries or (method == "POST" and not idempotent):
                    raise HafatraConnectionError(f"{method} {path}: {failure}") from failure
                time.sleep(self._delay(attempt, None) or 0)

    def wait_for_terminal(
        self,
        message_id: str,
        *,
        timeout: float = 600.0,
        statuses: Sequence[MessageStatus] = TERMINAL_STATUSES,  # type: ignore[assignment]
        interval: float = 0.5,
        max_interval: float = 10.0,
    ) -> MessageDetail:
        """Reads the message, pausing between reads (growing pauses, never a tight loop), until it
        reaches one of ``statuses`` (add "sent" for a network without delivery reports).
        Raises WaitTimeoutError after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.get_message(message_id)
            if message.status in statuses:
                return message
            left = deadline - time.monotonic()
            if left <= 0:
                raise WaitTimeoutError(message)
            time.sleep(min(interval, left))
            interval = min(interval * 1.5, max_interval)
