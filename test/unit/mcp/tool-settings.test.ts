import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolSettings } from '../../../src-main/core/mcp/tool-settings';

describe('ToolSettings: disabled tools, pins and the token budget in tool-settings.json', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'sb-tool-settings-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('persists every choice and reads it back in a new instance', async () => {
    const settings = new ToolSettings(home);
    await settings.set('files', 'write_file', false);
    await settings.setToolPinned('files', 'read_file', true);
    await settings.setServerPinned('memory', true);
    await settings.setBudget({ threshold: 2500, mode: 'on_demand' });
    const again = new ToolSettings(home);
    await again.load();
    expect(again.isEnabled('files', 'write_file')).toBe(false);
    expect(again.isEnabled('files', 'read_file')).toBe(true);
    expect(again.isPinned('files', 'read_file')).toBe(true);
    expect(again.isToolPinned('files', 'write_file')).toBe(false);
    expect(again.isPinned('memory', 'anything')).toBe(true);
    expect(again.isServerPinned('memory')).toBe(true);
    expect(again.budget()).toEqual({ threshold: 2500, mode: 'on_demand' });
    await again.setServerPinned('memory', false);
    await again.setToolPinned('files', 'read_file', false);
    expect(JSON.parse(await readFile(join(home, 'tool-settings.json'), 'utf8'))).toEqual({
      disabled: { files: ['write_file'] },
      pinned: { servers: [], tools: {} },
      budget: { threshold: 2500, mode: 'on_demand' },
    });
  });

  it('reads a file written before pins existed, and falls back to the default budget for bad values', async () => {
    await writeFile(join(home, 'tool-settings.json'), JSON.stringify({ disabled: { a: ['x'] }, budget: { threshold: -5, mode: 'sometimes' }, pinned: { servers: [3, 'b'] } }));
    const settings = new ToolSettings(home);
    await settings.load();
    expect(settings.isEnabled('a', 'x')).toBe(false);
    expect(settings.isServerPinned('b')).toBe(true);
    expect(settings.budget()).toEqual({ threshold: 10_000, mode: 'auto' });
  });
});
