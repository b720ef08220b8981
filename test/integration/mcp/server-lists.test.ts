import { afterEach, beforeEach, expect, it } from 'vitest';
import type { McpManager } from '../../../src-main/core/mcp/mcp-manager';
import { schemaValidator } from '../../../src-main/core/mcp/schema-validator';
import { callByName, EVERYTHING, fixture, is, manager, stdio, tempHome, waitForState } from './helpers';

let home: string;
let cleanup: () => Promise<void>;
let m: McpManager | undefined;
beforeEach(async () => ({ home, cleanup } = await tempHome()));
afterEach(async () => {
  await m?.stop();
  m = undefined;
  await cleanup();
});

const textOf = (r: Awaited<ReturnType<typeof callByName>>) => r.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
const listsHeard = (mgr: McpManager, name: string) => mgr.logs(name).filter((line) => line.includes('heard tools/list')).length;

it('lists the tools once more for a burst of tools/list_changed, not once per notification, and ends with every tool', async () => {
  m = manager(home);
  await m.apply([stdio('burst', [fixture('toolbox.mjs'), '--name', 'burst', '--say-lists'])]);
  await waitForState(m, 'burst', is('connected'));
  await expect.poll(() => listsHeard(m!, 'burst')).toBe(1);

  // Five registrations in one go: the server sends five notifications back to back.
  await callByName(m, 'burst__add-tools', { n: 5 });
  const extras = ['burst__extra-1', 'burst__extra-2', 'burst__extra-3', 'burst__extra-4', 'burst__extra-5'];
  await expect.poll(() => extras.every((name) => m!.tools('burst').some((t) => t.qualifiedName === name)), { timeout: 5_000 }).toBe(true);
  // A notification that arrives while a list is under way needs one more; later ones wait for that one.
  await new Promise((done) => setTimeout(done, 300));
  const after = listsHeard(m, 'burst') - 1;
  expect(after).toBeGreaterThanOrEqual(1);
  expect(after).toBeLessThanOrEqual(2);

  // A change notified after the last list started is still listed.
  await callByName(m, 'burst__add-tools', { n: 1 });
  await expect.poll(() => m!.tools('burst').some((t) => t.qualifiedName === 'burst__extra-6'), { timeout: 5_000 }).toBe(true);
  expect(textOf(await callByName(m, 'burst__extra-6', {}))).toBe('extra 6');
});

it("two servers' clients check structured results with the one shared validator, which compiled their output schema once", async () => {
  const before = schemaValidator.size;
  m = manager(home);
  await m.apply([stdio('one', [EVERYTHING, 'stdio']), stdio('two', [EVERYTHING, 'stdio'])]);
  await waitForState(m, 'one', is('connected'));
  await waitForState(m, 'two', is('connected'));
  for (const server of ['one', 'two']) {
    const result = await callByName(m, `${server}__get-structured-content`, { location: 'Chicago' });
    expect(result.structuredContent).toEqual({ temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) });
  }
  // get-structured-content is the one tool with an output schema; both servers list it (each maybe twice).
  expect(schemaValidator.size - before).toBe(1);
});
