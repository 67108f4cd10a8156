"""Fixtures for the suite, run by test/clients/python.test.ts against a real Hafatra it started
(with a simulated phone that delivers every message). It passes the server and keys in env."""
from __future__ import annotations

import json
import os
import socket
import ssl
import threading
import time
import urllib.request
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, Iterator, List, Optional

import pytest

from hafatra import Hafatra, HafatraError, WebhookEvent, verify_webhook


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: this suite runs from `npx vitest run --project clients test/clients/python.test.ts`")
    return value


@pytest.fixture(scope="session")
def env() -> Dict[str, str]:
    names = [
        "HAFATRA_URL",
        "HAFATRA_FLAKY_URL",
        "HAFATRA_API_KEY",
        "HAFATRA_READ_ONLY_KEY",
        "HAFATRA_RATE_LIMITED_KEY",
        "HAFATRA_DAILY_LIMITED_KEY",
        "HAFATRA_DEVICE_ID",
        "HAFATRA_DEVICE_TOKEN",
        "HAFATRA_PAYMENT_SMS",
        "HAFATRA_RECEIVER_CERT",
        "HAFATRA_RECEIVER_KEY",
    ]
    return {name: _env(name) for name in names}


@pytest.fixture(scope="session")
def client(env: Dict[str, str]) -> Hafatra:
    return Hafatra(env["HAFATRA_URL"], env["HAFATRA_API_KEY"], base_delay=0.02)


class Recorder:
    """urllib's urlopen, recording each attempt's headers; ``drop_first`` loses the first answer
    after the server has it (a connection reset on the way back)."""

    def __init__(self, drop_first: bool = False) -> None:
        self.attempts: List[Dict[str, str]] = []
        self.drop_first = drop_first

    def __call__(self, request: urllib.request.Request, timeout: float) -> Any:
        self.attempts.append({k.lower(): v for k, v in request.header_items()})
        response = urllib.request.urlopen(request, timeout=timeout)
        if self.drop_first and len(self.attempts) == 1:
            response.read()
            response.close()
            raise ConnectionResetError("connection reset after the request was sent")
        return response


class Receiver:
    """A small HTTPS webhook receiver, as a sender would write one: it verifies each delivery
    and answers 200, or 401 when the signature does not check out."""

    def __init__(self, cert: str, key: str) -> None:
        self.secret: Optional[str] = None
        self.events: List[WebhookEvent] = []
        self.refused: List[str] = []
        self.changed = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                try:
                    event = verify_webhook(raw, dict(self.headers.items()), receiver.secret or "")
                except HafatraError as error:
                    with receiver.changed:
                        receiver.refused.append(str(error))
                        receiver.changed.notify_all()
                    self.send_response(401)
                    self.end_headers()
                    return
                with receiver.changed:
                    receiver.events.append(event)
                    receiver.changed.notify_all()
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.url = f"https://localhost:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def wait_for(self, predicate: Any, timeout: float = 20.0) -> WebhookEvent:
        """The first verified event matching ``predicate``, as soon as it arrives."""
        with self.changed:
            found = self.changed.wait_for(lambda: next((e for e in self.events if predicate(e)), None), timeout)
        if found is None:
            raise AssertionError(f"no matching webhook within {timeout} s (verified: {[e.event for e in self.events]}, refused: {self.refused})")
        return found

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver(env: Dict[str, str]) -> Iterator[Receiver]:
    r = Receiver(env["HAFATRA_RECEIVER_CERT"], env["HAFATRA_RECEIVER_KEY"])
    yield r
    r.close()


_received = 0


def phone_receives(env: Dict[str, str], sender: str, body: str) -> None:
    """The paired phone reports a received SMS, as the Android app does (POST /device/v1/incoming)."""
    global _received
    _received += 1
    sms = {"clientId": f"py-{time.time()}-{_received}", "from": sender, "body": body, "receivedAt": datetime.now(timezone.utc).isoformat()}
    request = urllib.request.Request(
        env["HAFATRA_URL"] + "/device/v1/incoming",
        data=json.dumps({"messages": [sms]}).encode(),
        headers={"Authorization": f"Bearer {env['HAFATRA_DEVICE_TOKEN']}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        results = json.loads(response.read())["results"]
    assert "error" not in results[0], results


def eventually(check: Callable[[], Any], timeout: float = 20.0, what: str = "condition") -> Any:
    """Reads until ``check`` gives a value (its result), pausing a little between reads."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


@pytest.fixture
def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
