import { describe, expect, it } from 'vitest';
import type { InstallInputView } from '../../../src-preload/contract';
import { KEYCHAIN_MARK, filledRuns } from '../../../src-renderer/lib/install/install-preview';

const input = (key: string, over: Partial<InstallInputView> = {}): InstallInputView => ({ key, label: key, required: false, secret: false, ...over });

describe('the install preview follows the form', () => {
  it('shows each value where main will write it, a typed secret as a keychain mark, and leaves out what an empty input empties (SECURITY V2)', () => {
    const inputs = [input('var.tenant'), input('header.X-Level'), input('header.X-Key', { secret: true }), input('env.LOG')];
    const remote = { url: 'https://a.example/{var.tenant}/mcp', headers: { 'X-Level': '{header.X-Level}', 'X-Key': 'Bearer {header.X-Key}' }, transport: 'streamable-http' as const };
    expect(filledRuns(remote, inputs, { 'var.tenant': 'globex', 'header.X-Level': '', 'header.X-Key': 'k-1' })).toEqual({
      url: 'https://a.example/globex/mcp',
      headers: { 'X-Key': `Bearer ${KEYCHAIN_MARK}` },
      transport: 'streamable-http',
    });
    expect(filledRuns(remote, inputs, { 'var.tenant': 'acme', 'header.X-Level': 'info' }).headers).toEqual({ 'X-Level': 'info', 'X-Key': 'Bearer {header.X-Key}' });
    const local = { command: 'npx', args: ['-y', 'pkg', '--log', '{env.LOG}'], env: { LOG: '{env.LOG}', FIXED: '' } };
    expect(filledRuns(local, inputs, { 'env.LOG': 'debug' })).toEqual({ command: 'npx', args: ['-y', 'pkg', '--log', 'debug'], env: { LOG: 'debug', FIXED: '' } });
  });
});
