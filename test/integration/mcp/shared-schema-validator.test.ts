import { afterEach, beforeEach, expect, it } from 'vitest';
import type { McpManager } from '../../../src-main/core/mcp/mcp-manager';
import { schemaValidator } from '../../../src-main/core/mcp/schema-validator';
import { callByName, EVERYTHING, is, manager, stdio, tempHome, waitForState } from './helpers';

let home: string;
let cleanup: () => Promise<void>;
let m: McpManager | undefined;
beforeEach(async () => ({ home, cleanup } = await tempHome()));
afterEach(async () => {
  await m?.stop();
  m = undefined;
  await cleanup();
});

it("two servers' clients check structured results with the one shared validator, which compiled their output schema once", async () => {
  expect(schemaValidator.size).toBe(0);
  m = manager(home);
  await m.apply([stdio('one', [EVERYTHING, 'stdio']), stdio('two', [EVERYTHING, 'stdio'])]);
  await waitForState(m, 'one', is('connected'));
  await waitForState(m, 'two', is('connected'));
  for (const server of ['one', 'two']) {
    const result = await callByName(m, `${server}__get-structured-content`, { location: 'Chicago' });
    expect(result.structuredContent).toEqual({ temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) });
  }
  // get-structured-content is the one tool with an output schema; both servers list it (each maybe twice).
  expect(schemaValidator.size).toBe(1);
});
