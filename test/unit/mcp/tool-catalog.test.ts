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
    expect(catalog.tools.map((t) => [t.qualifiedName, t.server, t.name, t.enabled, t.pending])).toEqual([
      ['docs__search', 'docs', 'search', false, true],
      ['web__search', 'web', 'search', true, false],
    ]);
    expect(catalog.collisions).toEqual([]);
  });

  it('keeps every field the server listed (_meta, icons, title, annotations, outputSchema) beside its own', () => {
    const listed = {
      name: 'show',
      title: 'Show it',
      description: 'Shows',
      inputSchema: { type: 'object' as const, properties: { q: { type: 'string' } } },
      outputSchema: { type: 'object' as const, properties: { n: { type: 'number' } } },
      annotations: { readOnlyHint: true },
      icons: [{ src: 'https://example.com/i.png', mimeType: 'image/png' }],
      _meta: { ui: { resourceUri: 'ui://show/app.html', visibility: ['model', 'app'] } },
    };
    const [tool] = buildCatalog([{ server: 'apps', tools: [listed], pending: false }], () => true).tools;
    expect(tool).toEqual({ ...listed, server: 'apps', qualifiedName: 'apps__show', enabled: true, pending: false });
  });
});
