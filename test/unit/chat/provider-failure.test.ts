import { createServer as createHttpServer, type Server } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerFailure } from '../../../src-main/core/chat/provider-failure';
import { closedPort } from '../../fixtures/net/closed-port';

/** The errors the real SDKs throw, against a port nothing listens on and a server that answers 401 / 503. */
async function thrown(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

let status = 401;
let http: Server;
let httpUrl: string;
beforeAll(async () => {
  http = createHttpServer((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end('{"error":{"message":"nope","type":"x"}}'));
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  httpUrl = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((done) => http.close(() => done())));

const openai = (baseURL: string) => new OpenAI({ apiKey: 'k', baseURL, maxRetries: 0 });
const ask = (client: OpenAI) => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });

describe('providerFailure', () => {
  it('classes an endpoint that does not answer as transient, with its errno, for both SDKs', async () => {
    const port = await closedPort();
    const fromOpenAi = providerFailure(await thrown(() => ask(openai(`http://127.0.0.1:${port}/v1`))), 'm at here');
    expect(fromOpenAi).toEqual({
      message: 'm at here: cannot reach the endpoint (ECONNREFUSED)',
      diagnosis: { class: 'transient', fix: 'check the endpoint URL in Model settings (the button at the top of Chat) and your network, then retry' },
    });
    const anthropic = new Anthropic({ apiKey: 'k', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
    const fromAnthropic = providerFailure(await thrown(() => anthropic.messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] })), 'Anthropic m');
    expect(fromAnthropic.message).toBe('Anthropic m: cannot reach the endpoint (ECONNREFUSED)');
    expect(fromAnthropic.diagnosis?.class).toBe('transient');
  });

  it('classes a refused key as terminal and a failing provider as transient', async () => {
    status = 401;
    expect(providerFailure(await thrown(() => ask(openai(`${httpUrl}/v1`))), 'm').diagnosis).toEqual({ class: 'terminal', fix: 'the provider refused the API key: store a valid one in Model settings (the button at the top of Chat)' });
    status = 503;
    expect(providerFailure(await thrown(() => ask(openai(`${httpUrl}/v1`))), 'm').diagnosis?.class).toBe('transient');
  });

  it('leaves an error it does not know unclassed, with the provider named', () => {
    expect(providerFailure(new Error('stream ended early'), 'm at here')).toEqual({ message: 'm at here: stream ended early' });
  });
});
