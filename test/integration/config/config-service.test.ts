import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigService } from '../../../src-main/core/config/config-service';
import { McpManager } from '../../../src-main/core/mcp/mcp-manager';
import type { ServerState } from '../../../src-main/core/mcp/server-state';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';

const TOOLBOX = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/servers/toolbox.mjs');
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const keychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';

let root: string;
let home: string;
let proj: string;
let mcp: McpManager;
let service: ConfigService;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sb-service-'));
  home = join(root, 'home');
  proj = join(root, 'proj');
  await mkdir(home, { recursive: true });
  await mkdir(proj, { recursive: true });
});
afterEach(async () => {
  service?.stop();
  await mcp?.stop();
  await rm(root, { recursive: true, force: true });
});

/** The real manager, fed by the real config service: the wiring the core uses. */
async function startAll(vault = new KeytarVault(`switchboard-test-${randomUUID()}`)): Promise<void> {
  mcp = new McpManager({ home, logger: quiet, loginPath: async () => process.env.PATH ?? '', stopGraceMs: 500, expand: (c) => service.expand(c), trust: (c) => service.isTrusted(c) });
  service = new ConfigService({
    home,
    vault,
    projectDirs: [proj],
    apply: (loaded) => mcp.apply(loaded.servers, { mcpDisabled: loaded.mcpDisabled }),
    reconnect: (name) => mcp.reconnect(name),
  });
  await service.start();
}

/** Resolves when the server's state passes the test (checked on every manager change; the test timeout bounds it). */
function state(name: string, kind: ServerState['kind']): Promise<ServerState> {
  return new Promise((done) => {
    const check = () => {
      const s = mcp.status(name)?.state;
      if (s?.kind === kind) {
        off();
        done(s);
      }
    };
    const off = mcp.onChange(check);
    check();
  });
}

async function put(path: string, data: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(data));
}

describe('ConfigService with the real MCP manager', () => {
  it('holds a project stdio server until approved, and asks again when its args change in the file', async () => {
    await put(join(home, 'servers.json'), { servers: { own: { command: 'node', args: [TOOLBOX] } } });
    await put(join(proj, '.mcp.json'), { mcpServers: { tools: { command: 'node', args: [TOOLBOX] } } });
    await startAll();
    await state('own', 'connected');
    const held = await state('tools', 'trust_required');
    expect(held).toMatchObject({ reason: `defined in ${join(proj, '.mcp.json')}, which you did not write in Switchboard: approve "node" before it runs` });

    await service.handlers.approveTrust({ name: 'tools' });
    await state('tools', 'connected');

    // An outside edit of what runs: the watcher applies it, the manager restarts it, the gate holds it again.
    await put(join(proj, '.mcp.json'), { mcpServers: { tools: { command: 'node', args: [TOOLBOX, '--name', 'changed'] } } });
    await state('tools', 'trust_required');
    expect(mcp.status('own')?.state.kind).toBe('connected');

    await service.handlers.approveTrust({ name: 'tools' });
    await state('tools', 'connected');
    await service.handlers.revokeTrust({ name: 'tools' });
    await state('tools', 'trust_required');
  });

  it('applies a server added through the handlers, and keeps a running one when its file turns invalid', async () => {
    await startAll();
    await service.handlers.addServer({ name: 'added', entry: { command: 'node', args: [TOOLBOX] } });
    await state('added', 'connected');
    const broken = '{ "servers": { "added": ';
    await writeFile(join(home, 'servers.json'), broken);
    await expect.poll(() => service.current()?.problems.length).toBe(2);
    expect(mcp.status('added')?.state.kind).toBe('connected');
    expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(broken);
  });

  it('puts a server whose secret is not in the keychain in error, with no launch', async (ctx) => {
    if (!keychain) return ctx.skip('no test keychain: run under bash test/with-keychain.sh');
    await put(join(home, 'servers.json'), { servers: { gh: { command: 'node', args: [TOOLBOX], env: { TOKEN: '${secret:NOT_SET_ANYWHERE}' } } } });
    await startAll();
    expect(await state('gh', 'error')).toMatchObject({ reason: 'secret NOT_SET_ANYWHERE is not set' });
  });
});
