-- The dashboard's Messages page filters by recipient (GET /v1/messages?to=): one index range,
-- newest first, however many messages the organization holds.
CREATE INDEX messages_org_recipient ON messages (org_id, to_number, id DESC);
