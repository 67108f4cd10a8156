-- Presence that expires by itself. A phone's socket.connected was cleared only by the API process
-- holding the socket, so a process killed without closing it (kill -9, OOM, lost host, or a close
-- written while Postgres was down) left its phones online forever. Each API process now holds a
-- lease here, renewed every third of HAFATRA_PRESENCE_LEASE_SECONDS; a phone's row names the
-- process holding its socket, and the worker's sweep deletes lapsed leases and marks offline every
-- connected phone whose process has no lease left (docs/device-protocol.md, Presence).
CREATE TABLE api_processes (
  id          text PRIMARY KEY,
  started_at  timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz NOT NULL
);

ALTER TABLE devices ADD COLUMN socket_process_id text;

-- The sweep reads only the connected phones.
CREATE INDEX devices_connected_process ON devices (socket_process_id) WHERE socket_connected;
