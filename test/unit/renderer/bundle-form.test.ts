import { describe, expect, it } from 'vitest';
import type { BundleFieldView } from '../../../src-preload/contract';
import { KEYCHAIN_MARK, defaultHint, filledCommandLine, formPayload, initialInputs } from '../../../src-renderer/lib/install/bundle-form';
import { toBase64 } from '../../../src-renderer/lib/upload-chunks';

const field = (over: Partial<BundleFieldView>): BundleFieldView => ({ key: 'k', type: 'string', title: 'K', description: '', required: false, sensitive: false, multiple: false, ...over });
const fields = [
  field({ key: 'token', sensitive: true, required: true }),
  field({ key: 'dirs', type: 'directory', multiple: true, default: ['${HOME}'] }),
  field({ key: 'limit', type: 'number', default: 5 }),
  field({ key: 'verbose', type: 'boolean', default: true }),
  field({ key: 'name' }),
];

describe('the bundle install form', () => {
  it('starts each field with its default as a value the person sees and can change, a list one per line', () => {
    const resolved = [...fields.slice(0, 1), field({ key: 'dirs', type: 'directory', multiple: true, default: ['/home/a', '/home/b'] }), ...fields.slice(2)];
    expect(initialInputs(resolved)).toEqual({ token: '', dirs: '/home/a\n/home/b', limit: '5', verbose: true, name: '' });
    expect(fields.map(defaultHint)).toEqual(['', 'one per line', '', '', '']);
  });

  it('sends sensitive values as secrets only, lists one per line, numbers as numbers, and a cleared field as cleared', () => {
    expect(formPayload(fields, { token: 'sk-1', dirs: ' /a \n\n/b c\n', limit: '7', verbose: false, name: '' })).toEqual({
      values: { dirs: ['/a', '/b c'], limit: 7, verbose: false, name: '' },
      secrets: { token: 'sk-1' },
    });
    expect(formPayload(fields, { token: '', dirs: '', limit: '', verbose: true, name: 'x' }).values).toEqual({ dirs: [], limit: '', verbose: true, name: 'x' });
  });

  it('shows the command line with the settings as typed, a list as one argument per item, a secret only as where it is kept (SECURITY V2)', () => {
    const preview = { args: ['${__dirname}/index.js', '--dirs', '${user_config.dirs}', '--limit=${user_config.limit}', '${user_config.name}'], env: { TOKEN: '${user_config.token}', NAME: 'n-${user_config.name}' } };
    expect(filledCommandLine(preview, fields, { token: 'sk-1', dirs: '/a\n/b c', limit: '7', verbose: true, name: '' })).toEqual({
      args: ['${__dirname}/index.js', '--dirs', '/a', '/b c', '--limit=7', ''],
      env: { TOKEN: KEYCHAIN_MARK, NAME: 'n-' },
    });
    expect(filledCommandLine(preview, fields, { token: '', dirs: '', limit: '', verbose: true, name: 'x' }).env).toEqual({ TOKEN: '', NAME: 'n-x' });
  });

  it('encodes chunks as base64 exactly, past the 32 KiB slice boundary', () => {
    const bytes = new Uint8Array(70_000).map((_, i) => i % 251);
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });
});
