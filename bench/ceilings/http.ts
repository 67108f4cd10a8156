import { runLoad, type LoadResult } from '../lib/load.js';
import { sendBody } from '../lib/recipients.js';
import type { RunSettings } from '../lib/settings.js';
import { startScript } from '../target/processes.js';

export interface HelloSweep {
  post: LoadResult[];
  get: LoadResult[];
}

/** The bare uWebSockets.js server under exactly the sweep bulk-send and read use, on the API's CPU. */
export async function measureHelloWorld(s: RunSettings): Promise<HelloSweep> {
  const { child, port } = await startScript('ceilings/hello-uws.ts', [], s.apiCpu, 'hello-uws');
  const url = `http://127.0.0.1:${port}`;
  try {
    const post: LoadResult[] = [];
    const get: LoadResult[] = [];
    const body = sendBody();
    for (const connections of s.sweep) {
      post.push(
        await runLoad({
          label: 'ceiling hello POST',
          url: `${url}/v1/messages`,
          method: 'POST',
          connections,
          seconds: s.seconds,
          body,
          headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
        }),
      );
      get.push(
        await runLoad({
          label: 'ceiling hello GET',
          url: `${url}/v1/messages/msg_x`,
          method: 'GET',
          connections,
          seconds: s.seconds,
          headers: { authorization: 'Bearer x' },
        }),
      );
    }
    return { post, get };
  } finally {
    await child.stop();
  }
}
