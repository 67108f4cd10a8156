-- A message's page links to the webhook events about it (issue 33): the message events of an
-- organization by the message id their payload carries. Partial: other events (received SMS,
-- mobile money, tests) are not in it. Its cost on the event writes was measured with the webhooks
-- bench (docs/webhooks.md, "How Hafatra delivers").
CREATE INDEX events_by_message ON events (org_id, ((payload -> 'data' ->> 'id'))) WHERE type LIKE 'message.%';
