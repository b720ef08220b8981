import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CommandSecrets, splitCommand } from '../../../src-main/core/secrets/command-secrets';

const PM = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/commands/password-manager.mjs');
const node = process.execPath;
let dir: string;
let runsFile: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sb-cmd-'));
  runsFile = join(dir, 'runs');
  vi.stubEnv('RUNS_FILE', runsFile);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

const commands = (timeoutMs?: number) => new CommandSecrets({ loginPath: async () => process.env.PATH ?? '', ...(timeoutMs ? { timeoutMs } : {}) });
const runs = async () => (existsSync(runsFile) ? (await readFile(runsFile, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as string[]) : []);

describe('splitCommand', () => {
  it('splits on whitespace and groups quoted words, with nothing else special', () => {
    expect(splitCommand(`op read  "op://Private/My Item/token" '$(whoami)' a|b`)).toEqual(['op', 'read', 'op://Private/My Item/token', '$(whoami)', 'a|b']);
    expect(splitCommand(`printf ""`)).toEqual(['printf', '']);
  });

  it('refuses an unclosed quote and an empty command, saying which', () => {
    expect(() => splitCommand('op read "op://x')).toThrow('${cmd:op read "op://x} has an unclosed "');
    expect(() => splitCommand('   ')).toThrow('${cmd:} names no command');
  });
});

describe('CommandSecrets (SECURITY S4)', () => {
  it('reads what the command prints, without its trailing newline, and runs it once for the session', async () => {
    const secrets = commands();
    const text = `${node} ${PM} read op://vault/github`;
    const [a, b] = await Promise.all([secrets.read(text), secrets.read(text)]);
    expect([a, b]).toEqual(['value-of op://vault/github', 'value-of op://vault/github']);
    expect(await secrets.read(text)).toBe('value-of op://vault/github');
    expect(await runs()).toEqual([['read', 'op://vault/github']]);
  });

  it('runs no shell: shell syntax reaches the command as plain words', async () => {
    const marker = join(dir, 'pwned');
    expect(await commands().read(`${node} ${PM} read "op://vault/a;touch ${marker}" $(touch${marker})`)).toBe(`value-of op://vault/a;touch ${marker}`);
    expect(await runs()).toEqual([['read', `op://vault/a;touch ${marker}`, `$(touch${marker})`]]);
    expect(existsSync(marker)).toBe(false);
  });

  it('says the command failed, with its exit code but never what it printed, and tries again next time', async () => {
    const secrets = commands();
    const text = `${node} ${PM} read op://vault/locked`;
    const failure = await secrets.read(text).then(() => undefined, (error: Error) => error.message);
    expect(failure).toBe(`\${cmd:${text}} failed (exit code 1); run it in a terminal to see why`);
    expect(failure).not.toContain('sk-live-123');
    await expect(secrets.read(text)).rejects.toThrow('failed (exit code 1)');
    expect(await runs()).toHaveLength(2);
  });

  it('stops a command that does not finish within its time limit', async () => {
    const text = `${node} ${PM} read op://vault/slow`;
    const started = Date.now();
    await expect(commands(500).read(text)).rejects.toThrow(`\${cmd:${text}} did not finish within 0.5 s; it was stopped`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it.each([
    ['prints nothing', 'op://vault/empty', 'printed nothing'],
    ['floods its output', 'op://vault/huge', 'printed more than 64 KiB; it was stopped'],
  ])('refuses a command that %s', async (_what, item, why) => {
    const text = `${node} ${PM} read ${item}`;
    await expect(commands().read(text)).rejects.toThrow(`\${cmd:${text}} ${why}`);
  });

  it('names a command that is not on the PATH', async () => {
    await expect(commands().read('no-such-password-manager read x')).rejects.toThrow(/^\$\{cmd:no-such-password-manager read x\}: command not found: no-such-password-manager \(PATH searched: /);
  });
});
