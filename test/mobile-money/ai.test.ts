import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAiCompatibleReader, initialAiState, runAiReader } from '../../src/mobile-money/ai/index.js';
import { readMobileMoney, type MobileMoneyReading } from '../../src/mobile-money/reading/index.js';

type Handler = (body: any, req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
const requests: Array<{ url: string | undefined; authorization: string | undefined; body: any }> = [];

function chatAnswer(res: ServerResponse, content: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : null;
      requests.push({ url: req.url, authorization: req.headers.authorization, body });
      handler(body, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests.length = 0;
});

// A drifted MVola wording no template reads: the case the fallback exists for.
const drifted: MobileMoneyReading = readMobileMoney({
  from: 'MVola',
  body: 'Transaction reussie, 2 000 Ar recu de RAKOTO (0341234567) le 03/03/26. Solde: 4 000 Ar. Ref: 123456789',
})!;

describe('ai status', () => {
  const reader = new OpenAiCompatibleReader({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' });

  it('is not_needed when a template read the SMS', () => {
    const matched = readMobileMoney({ from: 'MVola', body: '7 000 Ar envoye a RAKOTOBE 0340000003 le 27/08/26 a 10:32. Frais: 150 Ar. Solde: 300 919 Ar. Ref: 1000000006' })!;
    expect(matched.classification).toBe('matched');
    expect(initialAiState(matched, { consented: true, reader }).status).toBe('not_needed');
  });

  it('is not_consented unless the organization opted in, even with a reader configured', () => {
    expect(drifted.classification).toBe('ambiguous');
    expect(initialAiState(drifted, { consented: false, reader })).toEqual({ status: 'not_consented', provider: null, model: null, confidence: null });
  });

  it('is ai_unavailable when consented but no reader is configured (the default)', () => {
    expect(initialAiState(drifted, { consented: true, reader: null }).status).toBe('ai_unavailable');
  });

  it('is pending with provider and model when consented and configured', () => {
    expect(initialAiState(drifted, { consented: true, reader })).toEqual({ status: 'pending', provider: 'openai-compatible', model: 'm', confidence: null });
  });
});

describe('OpenAI-compatible reader against a local chat-completions server', () => {
  it('sends a chat completion request asking for JSON and reads the answer into minor units and a masked phone', async () => {
    handler = (_body, _req, res) =>
      chatAnswer(
        res,
        JSON.stringify({
          direction: 'incoming',
          amount: '2 000 Ar',
          balance: '4 000 Ar',
          fees: null,
          reference: '123456789',
          counterpartyName: 'RAKOTO',
          counterpartyPhone: '0341234567',
          providerTimestamp: '03/03/26',
          confidence: 0.7,
        }),
      );
    const reader = new OpenAiCompatibleReader({ baseUrl, apiKey: 'sk-test', model: 'tiny-model' });
    const outcome = await runAiReader(reader, drifted, 'the raw body');

    expect(requests).toHaveLength(1);
    expect(requests[0]!.url).toBe('/v1/chat/completions');
    expect(requests[0]!.authorization).toBe('Bearer sk-test');
    expect(requests[0]!.body).toMatchObject({ model: 'tiny-model', response_format: { type: 'json_object' } });
    expect(requests[0]!.body.messages.at(-1).content).toContain('the raw body');
    expect(outcome.ai).toEqual({ status: 'completed', provider: 'openai-compatible', model: 'tiny-model', confidence: 0.7 });
    expect(outcome.fields).toMatchObject({ direction: 'incoming', amountMinor: 200000, currency: 'MGA', balanceMinor: 400000, reference: '123456789', counterpartyPhoneMasked: '+26134****567' });
  });

  it('never stores a full phone number or an out-of-range confidence from the model', async () => {
    handler = (_body, _req, res) => chatAnswer(res, '```json\n{"counterpartyPhone":"+261 34 12 345 67","amount":"1 50 100 Ar","confidence":7}\n```');
    const outcome = await runAiReader(new OpenAiCompatibleReader({ baseUrl, model: 'm' }), drifted, 'x');
    expect(requests[0]!.authorization).toBeUndefined();
    expect(outcome.fields?.counterpartyPhoneMasked).toBe('+26134****567');
    expect(outcome.fields?.amountMinor).toBeNull();
    expect(outcome.ai.confidence).toBe(1);
  });

  it('ends as failed when the endpoint answers an HTTP error', async () => {
    handler = (_body, _req, res) => {
      res.writeHead(500);
      res.end('boom');
    };
    const outcome = await runAiReader(new OpenAiCompatibleReader({ baseUrl, model: 'm' }), drifted, 'x');
    expect(outcome.ai.status).toBe('failed');
    expect(outcome.fields).toBeNull();
    expect(outcome.error).toContain('HTTP 500');
  });

  it('ends as failed when the model answers prose instead of JSON', async () => {
    handler = (_body, _req, res) => chatAnswer(res, 'Sure! The amount is 2000 Ar.');
    const outcome = await runAiReader(new OpenAiCompatibleReader({ baseUrl, model: 'm' }), drifted, 'x');
    expect(outcome.ai.status).toBe('failed');
    expect(outcome.error).toContain('not JSON');
  });

  it('ends as failed when the response has no message content', async () => {
    handler = (_body, _req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [] }));
    };
    const outcome = await runAiReader(new OpenAiCompatibleReader({ baseUrl, model: 'm' }), drifted, 'x');
    expect(outcome.ai.status).toBe('failed');
  });

  it('ends as failed when the endpoint does not answer within the timeout', async () => {
    handler = () => {}; // never answers
    const started = Date.now();
    const outcome = await runAiReader(new OpenAiCompatibleReader({ baseUrl, model: 'm', timeoutMs: 200 }), drifted, 'x');
    expect(outcome.ai.status).toBe('failed');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
