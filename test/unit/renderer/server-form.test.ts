import { describe, expect, it } from 'vitest';
import { MASKED_VALUE } from '../../../src-preload/contract';
import { emptyForm, entryFromForm, formFromEntry } from '../../../src-renderer/lib/servers/server-form';

describe('server form model', () => {
  it('writes a local entry with only the fields that were filled', () => {
    const form = { ...emptyForm(), name: 'files', command: ' npx ', args: ['-y', 'a b'], cwd: '', timeout: '', toolTimeout: '45' };
    expect(entryFromForm(form)).toEqual({ ok: true, entry: { command: 'npx', args: ['-y', 'a b'], toolTimeout: 45 } });
  });

  it('writes a remote entry with its transport, headers, approval and enabled flag', () => {
    const form = {
      ...emptyForm('remote'),
      url: 'https://mcp.example.com/mcp',
      transport: 'sse' as const,
      headers: [{ key: 'Authorization', value: 'Bearer ${secret:TOKEN}', stored: false }],
      approval: 'auto' as const,
      enabled: false,
    };
    expect(entryFromForm(form)).toEqual({
      ok: true,
      entry: { url: 'https://mcp.example.com/mcp', transport: 'sse', headers: { Authorization: 'Bearer ${secret:TOKEN}' }, enabled: false, approval: 'auto' },
    });
  });

  it('round-trips an entry, keeping fields it does not edit and sending the mask back for values left empty', () => {
    const entry = { command: 'node', args: ['server.js'], env: { API_KEY: MASKED_VALUE, REF: '${secret:X}' }, prefix: 'gh', timeout: 10 };
    const form = formFromEntry('gh', entry);
    expect(form.env).toEqual([
      { key: 'API_KEY', value: '', stored: true },
      { key: 'REF', value: '${secret:X}', stored: false },
    ]);
    expect(entryFromForm(form)).toEqual({ ok: true, entry: { prefix: 'gh', command: 'node', args: ['server.js'], env: { API_KEY: MASKED_VALUE, REF: '${secret:X}' }, timeout: 10 } });
    form.env[0]!.value = 'typed-anew';
    expect(entryFromForm(form)).toMatchObject({ ok: true, entry: { env: { API_KEY: 'typed-anew' } } });
  });

  it('reads "disabled" and a remote "type" the way the core does', () => {
    const form = formFromEntry('r', { type: 'http', url: 'https://x.example/mcp', disabled: true });
    expect(form).toMatchObject({ kind: 'remote', transport: 'streamable-http', enabled: false, extra: {} });
    expect(entryFromForm(form)).toEqual({ ok: true, entry: { url: 'https://x.example/mcp', transport: 'streamable-http', enabled: false } });
  });

  it('names what the form can already tell is wrong', () => {
    expect(entryFromForm(emptyForm())).toEqual({ ok: false, field: 'command', message: 'the command is empty' });
    expect(entryFromForm(emptyForm('remote'))).toEqual({ ok: false, field: 'url', message: 'the URL is empty' });
    expect(entryFromForm({ ...emptyForm(), command: 'x', timeout: 'soon' })).toEqual({
      ok: false,
      field: 'timeout',
      message: 'the connect timeout must be a number of seconds above 0',
    });
    expect(entryFromForm({ ...emptyForm(), command: 'x', toolTimeout: '0' })).toMatchObject({ ok: false, message: 'the tool timeout must be a number of seconds above 0' });
    const twice = [
      { key: 'A', value: '1', stored: false },
      { key: 'A', value: '2', stored: false },
    ];
    expect(entryFromForm({ ...emptyForm(), command: 'x', env: twice })).toMatchObject({ ok: false, message: 'environment variable "A" is given twice' });
    expect(entryFromForm({ ...emptyForm('remote'), url: 'https://x', headers: [{ key: ' ', value: 'v', stored: false }] })).toMatchObject({
      ok: false,
      message: 'a header has a value but no name',
    });
  });

  it('drops rows left empty', () => {
    expect(entryFromForm({ ...emptyForm(), command: 'x', env: [{ key: '', value: '', stored: false }] })).toEqual({ ok: true, entry: { command: 'x' } });
  });
});
