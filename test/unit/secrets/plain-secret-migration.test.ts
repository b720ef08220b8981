import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../../src-main/core/config/parse-config-file';
import {
  findPlainSecrets,
  findPlainSecretsInEntries,
  findPlainSecretsInText,
  looksSecret,
  movePlainSecrets,
  proposeSecretName,
} from '../../../src-main/core/secrets/plain-secret-migration';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';

describe('which keys look secret', () => {
  it.each([
    ['env', 'GITHUB_TOKEN', true],
    ['env', 'github_token', true],
    ['env', 'OPENAI_API_KEY', true],
    ['env', 'apiKey', true],
    ['env', 'CLIENT_SECRET', true],
    ['env', 'DB_PASSWORD', true],
    ['env', 'Password', true],
    ['env', 'PATH', false],
    ['env', 'DEBUG', false],
    ['env', 'USERNAME', false],
    ['env', 'PASSWD', false],
    ['headers', 'Authorization', true],
    ['headers', 'authorization', true],
    ['headers', 'Proxy-Authorization', true],
    ['headers', 'X-API-Key', true],
    ['headers', 'Accept', false],
    ['headers', 'User-Agent', false],
  ] as const)('%s %s -> %s', (field, key, expected) => {
    expect(looksSecret(field, key)).toBe(expected);
  });
});

describe('finding plain secrets', () => {
  it('lists exactly the literal secret-looking values, in file order, and skips every ${...} reference', () => {
    const found = findPlainSecretsInEntries({
      github: { command: 'npx', env: { GITHUB_TOKEN: 'ghp_literal', PATH: '/usr/bin', API_KEY: '${secret:github-key}' } },
      api: {
        url: 'https://example.com/mcp',
        headers: { Authorization: 'Bearer abc123', 'X-Api-Key': '${API_KEY}', Accept: 'application/json' },
      },
      db: { command: 'db', env: { DB_PASSWORD: 'hunter2', DB_SECRET: '${VAR:-fallback}', EMPTY_TOKEN: '', NUM_KEY: 42 } },
      half: { command: 'x', env: { MIXED_TOKEN: 'prefix-${secret:t}' } },
      broken: 'not an object',
      arrays: { command: 'x', env: ['TOKEN=1'] },
    });
    expect(found).toEqual([
      { server: 'github', field: 'env', key: 'GITHUB_TOKEN', value: 'ghp_literal' },
      { server: 'api', field: 'headers', key: 'Authorization', value: 'Bearer abc123' },
      { server: 'db', field: 'env', key: 'DB_PASSWORD', value: 'hunter2' },
    ]);
  });

  it('reads a Claude Desktop file, a VS Code file (its ${input:...} skipped) and a Cursor file', () => {
    const claude = JSON.stringify({ mcpServers: { brave: { command: 'npx', env: { BRAVE_API_KEY: 'brv-1' } } } });
    const vscode = `{
      // VS Code keeps servers under "servers" and prompts for inputs
      "inputs": [{ "type": "promptString", "id": "token", "password": true }],
      "servers": {
        "gh": { "type": "stdio", "command": "gh-mcp", "env": { "GH_TOKEN": "\${input:token}", "SLACK_BOT_TOKEN": "xoxb-2" } },
      },
    }`;
    const cursor = JSON.stringify({ mcpServers: { linear: { url: 'https://mcp.linear.app/sse', headers: { Authorization: 'lin_api_3' } } } });
    expect(findPlainSecretsInText(claude)).toEqual([{ server: 'brave', field: 'env', key: 'BRAVE_API_KEY', value: 'brv-1' }]);
    expect(findPlainSecretsInText(vscode)).toEqual([{ server: 'gh', field: 'env', key: 'SLACK_BOT_TOKEN', value: 'xoxb-2' }]);
    expect(findPlainSecretsInText(cursor)).toEqual([{ server: 'linear', field: 'headers', key: 'Authorization', value: 'lin_api_3' }]);
  });

  it('proposes <server>-<KEY> under the secret-name rule, unique against names already taken', () => {
    const taken = new Set(['github-GITHUB_TOKEN']);
    expect(proposeSecretName('github', 'GITHUB_TOKEN', taken)).toBe('github-GITHUB_TOKEN-2');
    expect(proposeSecretName('github', 'GITHUB_TOKEN', taken)).toBe('github-GITHUB_TOKEN-3');
    expect(proposeSecretName('my server', 'X Api/Key', taken)).toBe('my_server-X_Api_Key');
    const long = proposeSecretName('s'.repeat(100), 'K'.repeat(100), taken);
    expect(long).toHaveLength(128);
    expect(proposeSecretName('s'.repeat(100), 'K'.repeat(100), taken)).toMatch(/^s+-K+-2$/);
    expect(proposeSecretName('s'.repeat(100), 'K'.repeat(100), taken)).toHaveLength(128);
  });
});

describe('moving plain secrets (memory vault)', () => {
  let home: string;
  const file = () => join(home, 'servers.json');
  const text = `{
  // my servers
  "servers": {
    "github": { "command": "npx", "args": ["-y", "gh"], "env": { "GITHUB_TOKEN": "ghp_plain1", "LOG": "debug" } },
    "api": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer tok_plain2" } }
  }
}
`;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'sb-migrate-'));
    await writeFile(file(), text);
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('proposes names without values', async () => {
    const vault = new MemoryVault();
    await vault.set('api-Authorization', 'someone else');
    const scan = await findPlainSecrets(home, vault);
    expect(scan).toEqual({
      path: file(),
      proposals: [
        { server: 'github', field: 'env', key: 'GITHUB_TOKEN', secretName: 'github-GITHUB_TOKEN' },
        { server: 'api', field: 'headers', key: 'Authorization', secretName: 'api-Authorization-2' },
      ],
    });
    expect(JSON.stringify(scan)).not.toMatch(/plain1|plain2/);
  });

  it('stores values, writes references (keeping the Bearer scheme and the comment), no backup unless asked', async () => {
    const vault = new MemoryVault();
    const { proposals } = await findPlainSecrets(home, vault);
    const result = await movePlainSecrets(home, vault, { items: proposals, backup: false });
    expect(result).toEqual({ moved: ['github-GITHUB_TOKEN', 'api-Authorization'] });
    expect(await vault.get('github-GITHUB_TOKEN')).toBe('ghp_plain1');
    expect(await vault.get('api-Authorization')).toBe('tok_plain2');
    const after = await readFile(file(), 'utf8');
    expect(after).toContain('// my servers');
    expect(after).not.toMatch(/plain1|plain2/);
    const parsed = parseConfigText(after, { path: file(), origin: 'switchboard', userWritten: true });
    expect(parsed.problems).toEqual([]);
    const byName = Object.fromEntries(parsed.servers.map((s) => [s.name, s]));
    expect(byName.github).toMatchObject({ env: { GITHUB_TOKEN: '${secret:github-GITHUB_TOKEN}', LOG: 'debug' } });
    expect(byName.api).toMatchObject({ headers: { Authorization: 'Bearer ${secret:api-Authorization}' } });
    expect(await readdir(home)).toEqual(['servers.json']);
  });

  it('keeps the old file as a 0600 backup when asked', async () => {
    const vault = new MemoryVault();
    const { proposals } = await findPlainSecrets(home, vault);
    const result = await movePlainSecrets(home, vault, { items: proposals.slice(0, 1), backup: true }, { now: () => Date.UTC(2026, 10, 21, 13, 5, 9, 7) });
    expect(result.backupPath).toBe(`${file()}.bak-2026-11-21T13-05-09-007Z`);
    expect(await readFile(result.backupPath!, 'utf8')).toBe(text);
    expect((await stat(result.backupPath!)).mode & 0o777).toBe(0o600);
    // Only the picked one moved; the other stays for a later decision.
    expect(await readFile(file(), 'utf8')).toContain('Bearer tok_plain2');
  });

  it.each([
    [{ server: 'github', field: 'env', key: 'LOG', secretName: 'x' }, 'server "github": env.LOG no longer holds a plain value in servers.json; look for plain secrets again'],
    [{ server: 'nope', field: 'env', key: 'GITHUB_TOKEN', secretName: 'x' }, 'server "nope": env.GITHUB_TOKEN no longer holds a plain value in servers.json; look for plain secrets again'],
    [{ server: 'github', field: 'env', key: 'GITHUB_TOKEN', secretName: 'taken' }, 'secret taken already exists in the OS keychain; pick another name'],
    [{ server: 'github', field: 'env', key: 'GITHUB_TOKEN', secretName: 'bad name' }, 'secret name "bad name" is not valid: a secret name is 1 to 128 letters, digits, "_", "." or "-"'],
  ] as const)('refuses %j with its reason and changes nothing', async (item, message) => {
    const vault = new MemoryVault();
    await vault.set('taken', 'old');
    await expect(movePlainSecrets(home, vault, { items: [item], backup: true })).rejects.toThrow(message);
    expect(await readFile(file(), 'utf8')).toBe(text);
    expect(await vault.list()).toEqual(['taken']);
    expect(await readdir(home)).toEqual(['servers.json']);
  });

  it('refuses one name for two values, and the same value picked twice', async () => {
    const vault = new MemoryVault();
    const twoValues = [
      { server: 'github', field: 'env', key: 'GITHUB_TOKEN', secretName: 'same' },
      { server: 'api', field: 'headers', key: 'Authorization', secretName: 'same' },
    ] as const;
    await expect(movePlainSecrets(home, vault, { items: [...twoValues], backup: false })).rejects.toThrow(
      'secret name same is given to two values; pick another name',
    );
    const twice = { server: 'github', field: 'env', key: 'GITHUB_TOKEN', secretName: 'a' } as const;
    await expect(movePlainSecrets(home, vault, { items: [twice, { ...twice, secretName: 'b' }], backup: false })).rejects.toThrow(
      'server "github": env.GITHUB_TOKEN is picked twice',
    );
    expect(await readFile(file(), 'utf8')).toBe(text);
    expect(await vault.list()).toEqual([]);
  });

  it('moves the value the file holds now when it changed after the scan (the place is what was picked)', async () => {
    const vault = new MemoryVault();
    const { proposals } = await findPlainSecrets(home, vault);
    const edited = text.replace('ghp_plain1', 'ghp_changed');
    await writeFile(file(), edited);
    await expect(movePlainSecrets(home, vault, { items: proposals, backup: false })).resolves.toEqual({ moved: ['github-GITHUB_TOKEN', 'api-Authorization'] });
    // A changed value is still a plain value at that place: it is the current one that moves.
    expect(await vault.get('github-GITHUB_TOKEN')).toBe('ghp_changed');
  });

  it('a server the writer refuses first: every stored secret is rolled back, no backup left, servers.json unchanged', async () => {
    const broken = text.replace('"github": { "command": "npx",', '"github": { "url": "https://x.example/mcp", "command": "npx",');
    await writeFile(file(), broken);
    const vault = new MemoryVault();
    const { proposals } = await findPlainSecrets(home, vault);
    await expect(movePlainSecrets(home, vault, { items: proposals, backup: true })).rejects.toThrow(
      'servers.json could not be rewritten: server "github": has both "command" and "url"; a server is either local (command) or remote (url); nothing was moved',
    );
    expect(await readFile(file(), 'utf8')).toBe(broken);
    expect(await vault.list()).toEqual([]);
    expect(await readdir(home)).toEqual(['servers.json']);
  });

  it('a later server the writer refuses: one write for all, so the earlier ones are not moved either', async () => {
    const broken = text.replace('"api": { "url"', '"api": { "command": "x", "url"');
    await writeFile(file(), broken);
    const vault = new MemoryVault();
    const { proposals } = await findPlainSecrets(home, vault);
    expect(new Set(proposals.map((p) => p.server))).toEqual(new Set(['github', 'api']));
    await expect(movePlainSecrets(home, vault, { items: proposals, backup: false })).rejects.toThrow(
      'servers.json could not be rewritten: server "api": has both "command" and "url"; a server is either local (command) or remote (url); nothing was moved',
    );
    expect(await vault.list()).toEqual([]);
    expect(await readFile(file(), 'utf8')).toBe(broken);
  });

  it('reports a missing servers.json by its path', async () => {
    await rm(file());
    const vault = new MemoryVault();
    expect(await findPlainSecrets(home, vault)).toEqual({ path: file(), proposals: [] });
    await expect(
      movePlainSecrets(home, vault, { items: [{ server: 'a', field: 'env', key: 'K', secretName: 'k' }], backup: false }),
    ).rejects.toThrow(`there is no servers.json at ${file()}`);
  });
});
