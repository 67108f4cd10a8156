"""The Python client against a real Hafatra: the whole cycle (send, a simulated phone delivers,
the webhook verified by a receiver written with the client), 500 recipients paged back, and
each failure the client must get right."""
from __future__ import annotations

import hashlib
import hmac
import json
import time
from datetime import datetime, timedelta, timezone
from typing import Dict, List, Optional

import pytest

from conftest import Receiver, Recorder, eventually, phone_receives
from hafatra import (
    AuthenticationError,
    Hafatra,
    HafatraConnectionError,
    InvalidRequestError,
    IncomingMessage,
    Message,
    MobileMoneyEvent,
    NotFoundError,
    PermissionDeniedError,
    RateLimitedError,
    ServerError,
    SendWindowRange,
    SendWindows,
    WebhookDelivery,
    WebhookTestData,
    WebhookVerificationError,
    verify_webhook,
)


def recipients(count: int, prefix: str = "+2613434") -> List[str]:
    return [f"{prefix}{i:05d}" for i in range(count)]


def test_whole_cycle_send_deliver_webhook(client: Hafatra, receiver: Receiver) -> None:
    created = client.create_webhook_endpoint(url=receiver.url, event_types=["message.sent", "message.delivered"])
    receiver.secret = created.secret
    sent = client.send_messages(to="+261340000001", body="Salama from Python", priority="high", valid_for=600)
    assert len(sent.messages) == 1
    message_id = sent.messages[0].id
    assert sent.messages[0].status == "queued"

    done = client.wait_for_terminal(message_id, timeout=20, interval=0.05)
    assert done.status == "delivered"
    assert [e.to_status for e in done.events] == ["queued", "claimed", "sending", "sent", "delivered"]

    event = receiver.wait_for(lambda e: e.event == "message.delivered" and e.data.id == message_id)
    assert isinstance(event.data, Message)
    assert (event.data.status, event.data.to) == ("delivered", "+261340000001")
    assert receiver.refused == []
    client.delete_webhook_endpoint(created.endpoint.id)


def test_received_sms_mobile_money_and_the_delivery_log(env: Dict[str, str], client: Hafatra, receiver: Receiver) -> None:
    created = client.create_webhook_endpoint(url=receiver.url, event_types=["incoming.received", "mobile_money.detected"])
    receiver.secret = created.secret
    payment = json.loads(env["HAFATRA_PAYMENT_SMS"])
    phone_receives(env, "+261341112233", "Salama, see you at 10")
    phone_receives(env, payment["from"], payment["body"])
    incoming = list(client.iter_incoming(limit=1))
    assert [m.body for m in incoming] == [payment["body"], "Salama, see you at 10"]
    assert client.get_incoming(incoming[0].id).from_ == payment["from"]

    money = eventually(lambda: list(client.iter_mobile_money(limit=1)), what="the mobile-money reading")
    assert [(m.incoming_message_id, m.verification, m.currency, m.amount_minor) for m in money] == [(incoming[0].id, "unverified", "MGA", 5_130_000)]
    assert client.get_mobile_money(money[0].id).direction == "incoming"

    detected = receiver.wait_for(lambda e: e.event == "mobile_money.detected")
    assert isinstance(detected.data, MobileMoneyEvent) and detected.data.id == money[0].id
    received = receiver.wait_for(lambda e: e.event == "incoming.received" and e.data.id == incoming[1].id)
    assert isinstance(received.data, IncomingMessage)

    def delivered_log() -> Optional[List[WebhookDelivery]]:
        deliveries = list(client.iter_webhook_deliveries(created.endpoint.id, limit=1))
        return deliveries if len(deliveries) == 3 and all(d.status == "delivered" for d in deliveries) else None

    log = eventually(delivered_log, what="three delivered deliveries in the log")
    assert {d.event_type for d in log} == {"incoming.received", "mobile_money.detected"}
    client.delete_webhook_endpoint(created.endpoint.id)


def _signed(body: str, secret: str, t: int) -> Dict[str, str]:
    signature = hmac.new(secret.encode(), f"{t}.{body}".encode(), hashlib.sha256).hexdigest()
    return {"Hafatra-Signature": f"t={t},v1={signature}"}


def test_verify_webhook_refuses_what_is_not_from_hafatra_now() -> None:
    body = json.dumps({"id": "evt_1", "event": "webhook.test", "createdAt": "2026-01-01T00:00:00Z", "data": {"endpointId": "whe_1", "message": "hi"}})
    t = int(time.time())
    event = verify_webhook(body, _signed(body, "whsec_a", t), "whsec_a")
    assert event.data == WebhookTestData(endpoint_id="whe_1", message="hi")
    # During a rotation either secret verifies; bytes and str bodies alike.
    assert verify_webhook(body.encode(), {"hafatra-signature": _signed(body, "whsec_a", t)["Hafatra-Signature"]}, ["whsec_new", "whsec_a"]).id == "evt_1"
    with pytest.raises(WebhookVerificationError, match="does not match"):
        verify_webhook(body + " ", _signed(body, "whsec_a", t), "whsec_a")
    with pytest.raises(WebhookVerificationError, match="does not match"):
        verify_webhook(body, _signed(body, "whsec_b", t), "whsec_a")
    with pytest.raises(WebhookVerificationError, match="tolerance"):
        verify_webhook(body, _signed(body, "whsec_a", t), "whsec_a", now=t + 301)
    assert verify_webhook(body, _signed(body, "whsec_a", t), "whsec_a", now=t - 300).id == "evt_1"
    with pytest.raises(WebhookVerificationError, match="no Hafatra-Signature"):
        verify_webhook(body, {}, "whsec_a")
    with pytest.raises(WebhookVerificationError, match="malformed"):
        verify_webhook(body, {"Hafatra-Signature": "t=soon,v1=00"}, "whsec_a")


def test_sends_500_and_iterates_every_page(client: Hafatra) -> None:
    later = (datetime.now(timezone.utc) + timedelta(hours=1)).isoformat()
    sent = client.send_messages(to=recipients(500), body="Five hundred", send_at=later)
    assert len(sent.messages) == 500
    assert {m.status for m in sent.messages} == {"accepted"}
    seen = [m.id for m in client.iter_messages(status="accepted", limit=100)]
    assert sorted(seen) == sorted(m.id for m in sent.messages)
    for m in sent.messages[:3]:
        assert client.cancel_message(m.id).status == "cancelled"


def test_keeps_the_idempotency_key_across_the_retry_of_a_lost_answer(env: Dict[str, str], client: Hafatra) -> None:
    recorder = Recorder(drop_first=True)
    flaky = Hafatra(env["HAFATRA_URL"], env["HAFATRA_API_KEY"], base_delay=0.01, urlopen=recorder)
    result = flaky.send_messages(to="+261340000888", body="Once only")
    keys = [a["idempotency-key"] for a in recorder.attempts]
    assert len(keys) == 2 and keys[0] == keys[1] and keys[0].startswith("sdk-")
    assert [m.id for m in client.iter_messages(to="+261340000888")] == [result.messages[0].id]
    own = Recorder()
    Hafatra(env["HAFATRA_URL"], env["HAFATRA_API_KEY"], urlopen=own).send_messages(to="+261340000889", body="Mine", idempotency_key="order-1042")
    assert own.attempts[0]["idempotency-key"] == "order-1042"


def test_opt_outs_page_and_refuse_a_send(client: Hafatra) -> None:
    numbers = ["+261340002001", "+261340002002", "+261340002003"]
    for n in numbers:
        client.add_opt_out(number=n, reason="asked")
    assert sorted(o.number for o in client.iter_opt_outs(limit=2)) == numbers
    sent = client.send_messages(to="+261340002002", body="Promo")
    assert (sent.messages[0].status, sent.messages[0].failure_code) == ("failed", "opted_out")
    client.remove_opt_out("261340002003")
    assert "+261340002003" not in [o.number for o in client.list_opt_outs().opt_outs]


def test_send_windows_and_phones(env: Dict[str, str], client: Hafatra) -> None:
    windows = SendWindows(time_zone="Indian/Antananarivo", ranges=[SendWindowRange(days=["mon", "tue"], from_="08:00", to="20:00")])
    assert client.set_send_windows(send_windows=windows).send_windows == windows
    assert client.get_send_windows().send_windows == windows
    assert client.set_send_windows(send_windows=None).send_windows is None
    devices = client.list_devices().devices
    assert [d.id for d in devices] == [env["HAFATRA_DEVICE_ID"]]
    assert client.get_device(env["HAFATRA_DEVICE_ID"]).socket.connected is True


def test_a_400_names_its_field_and_is_not_retried(env: Dict[str, str]) -> None:
    recorder = Recorder()
    c = Hafatra(env["HAFATRA_URL"], env["HAFATRA_API_KEY"], urlopen=recorder)
    with pytest.raises(InvalidRequestError) as caught:
        c.send_messages(to=["+261340000001", "x" * 40], body="hi")
    assert (caught.value.status, caught.value.code, caught.value.field) == (400, "invalid_request", "to[1]")
    assert caught.value.request_id
    assert len(recorder.attempts) == 1
    with pytest.raises(NotFoundError):
        c.get_message("msg_nope")
    assert len(recorder.attempts) == 2


def test_401_and_403_have_their_own_types(env: Dict[str, str]) -> None:
    with pytest.raises(AuthenticationError):
        Hafatra(env["HAFATRA_URL"], "hfk_wrong").list_devices()
    with pytest.raises(PermissionDeniedError) as caught:
        Hafatra(env["HAFATRA_URL"], env["HAFATRA_READ_ONLY_KEY"]).list_devices()
    assert caught.value.code == "forbidden" and "devices:read" in caught.value.message


def test_waits_out_a_429_for_its_retry_after(env: Dict[str, str]) -> None:
    recorder = Recorder()
    c = Hafatra(env["HAFATRA_URL"], env["HAFATRA_RATE_LIMITED_KEY"], urlopen=recorder)
    c.list_devices()
    started = time.monotonic()
    c.list_devices()
    assert len(recorder.attempts) >= 3
    assert time.monotonic() - started >= 0.95


def test_retries_a_503_after_its_retry_after_and_never_a_500_without_one(env: Dict[str, str], client: Hafatra) -> None:
    recorder = Recorder()
    c = Hafatra(env["HAFATRA_FLAKY_URL"], env["HAFATRA_API_KEY"], urlopen=recorder)
    started = time.monotonic()
    sent = c.send_messages(to="+261340000902", body="Through a busy proxy")
    assert time.monotonic() - started >= 0.95
    assert len(recorder.attempts) == 2 and recorder.attempts[0]["idempotency-key"] == recorder.attempts[1]["idempotency-key"]
    assert [m.id for m in client.list_messages(to="+261340000902").messages] == [sent.messages[0].id]
    with pytest.raises(ServerError) as caught:
        c.get_message("msg_http500")
    assert (caught.value.status, caught.value.code, caught.value.retry_after) == (500, "internal_error", None)
    assert len(recorder.attempts) == 3


def test_raises_a_429_at_once_when_retry_after_is_beyond_the_bound(env: Dict[str, str]) -> None:
    recorder = Recorder()
    # Waits of up to a second are taken: the daily limit's (until the day ends) is longer but a second before midnight.
    c = Hafatra(env["HAFATRA_URL"], env["HAFATRA_DAILY_LIMITED_KEY"], urlopen=recorder, max_delay=1)
    c.send_messages(to="+261340000100", body="one")
    before = len(recorder.attempts)
    with pytest.raises(RateLimitedError) as caught:
        c.send_messages(to="+261340000101", body="two")
    assert (caught.value.status, caught.value.code) == (429, "rate_limited")
    assert caught.value.retry_after is not None and caught.value.retry_after > 1
    assert len(recorder.attempts) - before == 1


def test_connection_failures_are_retried_a_bounded_number_of_times(env: Dict[str, str], closed_port: int) -> None:
    recorder = Recorder()
    c = Hafatra(f"http://127.0.0.1:{closed_port}", env["HAFATRA_API_KEY"], urlopen=recorder, max_retries=2, base_delay=0.005)
    with pytest.raises(HafatraConnectionError):
        c.send_messages(to="+261340000001", body="hi")
    assert len(recorder.attempts) == 3
    assert len({a["idempotency-key"] for a in recorder.attempts}) == 1
    once = Recorder()
    with pytest.raises(HafatraConnectionError):
        Hafatra(f"http://127.0.0.1:{closed_port}", env["HAFATRA_API_KEY"], urlopen=once).cancel_message("msg_1")
    assert len(once.attempts) == 1
