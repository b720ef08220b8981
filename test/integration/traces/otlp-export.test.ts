/**
 * Exporting call traces over OTLP/HTTP: a real OpenTelemetry SDK and exporter in the real core,
 * sending to a receiver on 127.0.0.1 written here (a loopback stand-in for a collector). What
 * arrives is parsed and checked: one span per call, an event per step, attributes, and no argument.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resultOrThrow } from '../../../src-main/core/tools/tool-caller';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { otlpSinkFromEnv, otlpTracesEndpoint } from '../../../src-main/core/traces/otlp-export';
import { fixture, is, quietLogger, tempHome, waitForState } from '../mcp/helpers';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpSpan {
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: OtlpValue }[];
  events: { name: string; timeUnixNano: string; attributes: { key: string; value: OtlpValue }[] }[];
  status?: { code?: number };
}
interface Received {
  path: string;
  contentType: string;
  body: string;
}

let receiver: Server;
let received: Received[];
let endpoint: string;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  received = [];
  receiver = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  await new Promise<void>((done) => receiver.close(() => done()));
});

/** The core over the toolbox fixture; `stop` is the core's own stop (it flushes the export), run once. */
async function coreWithToolbox(): Promise<{ core: SwitchboardCore; stop: () => Promise<void> }> {
  const { home, cleanup } = await tempHome();
  await writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { box: { command: 'node', args: [fixture('toolbox.mjs')] } } }));
  const core = new SwitchboardCore({ home, vault: new MemoryVault(), opener: { open: async () => {} }, logger: quietLogger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= core.stop());
  cleanups.push(async () => {
    await stop();
    await cleanup();
  });
  await core.start();
  await waitForState(core.mcp, 'box', is('connected'));
  return { core, stop };
}

const attr = (list: { key: string; value: OtlpValue }[], key: string) => {
  const value = list.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : (value?.boolValue ?? value?.doubleValue));
};

describe('OTLP export of call traces', () => {
  it('sends one span per call to the collector named by OTEL_EXPORTER_OTLP_ENDPOINT, with an event per step and no argument value', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
    const { core, stop } = await coreWithToolbox();
    const secret = 'sk-live-OTLP-CANARY-51d2';
    const pid = resultOrThrow(await core.chat.caller.call({ server: 'box', tool: 'pid' }, {}, { origin: 'cli' })).content[0];
    await core.chat.caller.call({ server: 'box', tool: 'echo' }, { message: secret }, { origin: 'cli', conversationId: 'conv-9', callId: 'call-9' });
    await core.chat.caller.call({ server: 'box', tool: 'echo' }, { message: 7, also: secret }, { origin: 'cli' });
    await stop(); // flushes the batch

    expect(received.length).toBeGreaterThan(0);
    expect(received.every((r) => r.path === '/v1/traces' && r.contentType.startsWith('application/json'))).toBe(true);
    const all = received.map((r) => r.body).join('\n');
    expect(all).not.toContain('CANARY');
    const payloads = received.map((r) => JSON.parse(r.body) as { resourceSpans: { resource: { attributes: { key: string; value: OtlpValue }[] }; scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[] });
    const resource = payloads[0]!.resourceSpans[0]!.resource;
    expect(attr(resource.attributes, 'service.name')).toBe('switchboard');
    const spans = payloads.flatMap((p) => p.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    expect(spans.map((s) => s.name)).toEqual(['tools/call pid', 'tools/call echo', 'tools/call echo']);

    const echo = spans[1]!;
    expect(echo.kind).toBe(3); // SPAN_KIND_CLIENT
    expect(echo.events.map((e) => e.name)).toEqual(['asked', 'approved', 'sent', 'answered']);
    expect(attr(echo.attributes, 'mcp.method.name')).toBe('tools/call');
    expect(attr(echo.attributes, 'gen_ai.tool.name')).toBe('echo');
    expect(attr(echo.attributes, 'switchboard.server')).toBe('box');
    expect(attr(echo.attributes, 'switchboard.call.outcome')).toBe('done');
    expect(attr(echo.attributes, 'gen_ai.tool.call.id')).toBe('call-9');
    expect(attr(echo.attributes, 'network.transport')).toBe('pipe');
    expect(attr(echo.attributes, 'switchboard.server.pid')).toBe(Number(pid?.type === 'text' ? pid.text : NaN));
    const asked = echo.events[0]!;
    expect(attr(asked.attributes, 'switchboard.args_bytes')).toBe(Buffer.byteLength(JSON.stringify({ message: secret })));
    expect(attr(echo.events[1]!.attributes, 'switchboard.because')).toBe('you ran it yourself with switchboard call');
    expect(BigInt(asked.timeUnixNano)).toBe(BigInt(echo.startTimeUnixNano));
    expect(BigInt(echo.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(echo.events.at(-1)!.timeUnixNano));

    const refused = spans[2]!;
    expect(refused.events.map((e) => e.name)).toEqual(['asked', 'refused']);
    expect(refused.status?.code).toBe(2); // STATUS_CODE_ERROR
    expect(attr(refused.attributes, 'error.type')).toBe('misuse');
  });

  it('is off unless an endpoint is set, and OTEL_SDK_DISABLED=true turns it off', () => {
    expect(otlpSinkFromEnv({}, quietLogger, '0')).toBeUndefined();
    expect(otlpSinkFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SDK_DISABLED: 'true' }, quietLogger, '0')).toBeUndefined();
    expect(otlpTracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe('http://collector:4318/v1/traces');
    expect(otlpTracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:9999/traces' })).toBe('http://b:9999/traces');
  });

  it('sends nothing when off: calls still get their in-memory traces', async () => {
    const { core, stop } = await coreWithToolbox();
    await core.chat.caller.call({ server: 'box', tool: 'pid' }, {}, { origin: 'cli' });
    expect(await core.handlers.serverCallTraces({ name: 'box' })).toHaveLength(1);
    await stop();
    expect(received).toEqual([]);
  });
});
