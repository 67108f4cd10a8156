// The HTTP ceiling: a bare uWebSockets.js server with no work at all. POST reads the whole body
// (the same 500-recipient JSON the API gets) and answers 202; GET answers a small JSON; the
// socket route accepts any upgrade and ignores frames (the idle-socket memory floor).
// Run as its own process: node --import tsx bench/ceilings/hello-uws.ts; prints "listening <port>".
import { nativeUws } from '../../src/http/uws.js';

const uWS = nativeUws();
const app = uWS.App();
const accepted = Buffer.from('{"batchId":"b","messages":[]}');
const found = Buffer.from('{"id":"msg_x","status":"queued"}');

app.post('/*', (res) => {
  let aborted = false;
  res.onAborted(() => {
    aborted = true;
  });
  // Reads the body to its end, as a real handler must, without looking at it.
  res.onData((_chunk, last) => {
    if (!last || aborted) return;
    res.cork(() => res.writeStatus('202 Accepted').writeHeader('content-type', 'application/json').end(accepted));
  });
});
app.get('/*', (res) => {
  res.writeHeader('content-type', 'application/json').end(found);
});
app.ws('/device/v1/socket', { idleTimeout: 120, sendPingsAutomatically: true, message: () => undefined });

app.listen('127.0.0.1', 0, (socket) => {
  if (!socket) throw new Error('hello-uws could not listen');
  process.stdout.write(`listening ${uWS.us_socket_local_port(socket)}\n`);
});
