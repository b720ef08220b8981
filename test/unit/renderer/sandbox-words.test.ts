import { describe, expect, it } from 'vitest';
import type { BundleFieldView } from '../../../src-preload/contract';
import { bundleSandboxBlock as writtenBlock } from '../../../src-main/core/install/bundle-sandbox';
import type { BundleManifest } from '../../../src-main/core/install/bundle-manifest';
import { formPayload, initialInputs } from '../../../src-renderer/lib/install/bundle-form';
import { bundleSandboxBlock, emptyLine, sandboxSummary } from '../../../src-renderer/lib/install/sandbox-words';

const field = (over: Partial<BundleFieldView>): BundleFieldView => ({ key: 'k', type: 'string', title: 'K', description: '', required: false, sensitive: false, multiple: false, ...over });

describe('the sandbox an install form shows', () => {
  it('says what it may write and reach, item by item as written, and "none" for no network', () => {
    const { headline, lines } = sandboxSummary({ filesystem: { allowWrite: ['~/notes'] }, network: { allowedDomains: ['api.github.com'] } }, true);
    expect(headline).toMatch(/^Runs sandboxed/);
    expect(lines.map((l) => [l.label, l.items])).toEqual([['Can write', ['~/notes']], ['Network', ['api.github.com']]]);
    const bare = sandboxSummary({}, true).lines;
    expect(bare.map((l) => [l.label, l.items.length ? l.items : emptyLine(l)])).toEqual([['Can write', 'only its own temporary folder'], ['Network', 'none (no network at all)']]);
  });

  it('switched off, says it runs with all the person\'s rights and lists no grants (none are written)', () => {
    expect(sandboxSummary({ network: { allowedDomains: ['x.example'] } }, false)).toEqual({ headline: expect.stringMatching(/^Runs unsandboxed, with all your rights/), lines: [] });
  });

  it('builds a bundle\'s block from the card\'s settings exactly as main writes it (SECURITY V2)', () => {
    const fields = [
      field({ key: 'token', sensitive: true }),
      field({ key: 'work', type: 'directory', multiple: true, grants: 'write' }),
      field({ key: 'notes', type: 'file', grants: 'read' }),
      field({ key: 'name' }),
    ];
    const manifest = {
      user_config: {
        token: { type: 'string', title: 'Token', description: '', sensitive: true },
        work: { type: 'directory', title: 'Work', description: '', multiple: true },
        notes: { type: 'file', title: 'Notes', description: '' },
        name: { type: 'string', title: 'Name', description: '' },
      },
    } as unknown as BundleManifest;
    const inputs = { ...initialInputs(fields), token: 'sk', work: '/srv/a\n~/b\n', notes: '/srv/notes.md', name: '/not/a/grant' };
    const shown = bundleSandboxBlock(fields, inputs);
    expect(shown).toEqual({ filesystem: { allowWrite: ['/srv/a', '~/b'], allowRead: ['/srv/notes.md'] } });
    expect(writtenBlock(manifest, formPayload(fields, inputs).values, {}, '/home/p', '/home/p/.config/Switchboard')).toEqual(shown);
    expect(bundleSandboxBlock(fields, { ...inputs, work: '', notes: '' })).toEqual({});
  });
});
