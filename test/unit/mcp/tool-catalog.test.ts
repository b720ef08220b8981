import { describe, expect, it } from 'vitest';
import { buildCatalog, patchObjectSchema } from '../../../src-main/core/mcp/tool-catalog';

describe('patchObjectSchema', () => {
  it('adds empty properties to an object schema without them, and the type when missing', () => {
    expect(patchObjectSchema({ type: 'object' })).toEqual({ type: 'object', properties: {} });
    expect(patchObjectSchema(undefined)).toEqual({ type: 'object', properties: {} });
    const full = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(patchObjectSchema(full)).toEqual(full);
  });
});

describe('buildCatalog', () => {
  it('keeps the same tool name on two servers as two tools, each with its owner, and applies toggles', () => {
    const tool = { name: 'search', inputSchema: { type: 'object' as const } };
    const catalog = buildCatalog(
      [
        { server: 'web', tools: [tool], pending: false },
        { server: 'docs', tools: [tool, tool], pending: true },
      ],
      (server) => server !== 'docs',
    );
    expect(catalog.tools.map((t) => [t.name, t.server, t.tool, t.enabled, t.pending])).toEqual([
      ['docs__search', 'docs', 'search', false, true],
      ['web__search', 'web', 'search', true, false],
    ]);
    expect(catalog.collisions).toEqual([]);
  });
});
