import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataHome } from '../../../src-main/core/data-home';
import type { Logger } from '../../../src-main/core/ports';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { SystemOpener, type SpawnFn } from '../../../src-main/host/system-opener';
import { startWebHost, type WebHost, type WebHostOptions } from '../../../src-main/host/web-host';

/** A real core on a temp SWITCHBOARD_HOME, a tiny renderer folder, and a real host on 127.0.0.1. */
export interface HostFixture {
  root: string;
  rendererDir: string;
  core: SwitchboardCore;
  host: WebHost;
  /** Every spawn the core's system opener attempted (none should happen in these tests). */
  spawned: Array<{ command: string; args: readonly string[] }>;
  cleanup(): Promise<void>;
}

export const SECRET_OUTSIDE = 'secret outside the renderer folder';

export const INDEX_HTML = '<!doctype html><html><head><title>Switchboard test page</title><link rel="stylesheet" href="/assets/style.css"><script type="module" src="/assets/app.js"></script></head><body><p id="state">loading</p></body></html>';

/** Real but harmless entries: disabled, so no process or network is touched whatever the core does. */
const SERVERS_JSON = JSON.stringify({
  servers: {
    alpha: { command: process.execPath, args: ['-e', ''], enabled: false },
    beta: { url: 'https://mcp.example.com/mcp', enabled: false },
  },
});

const quietLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

export async function startFixture(options: { appJs?: string; host?: Partial<WebHostOptions>; wrapHandlers?: (core: SwitchboardCore) => WebHostOptions['handlers'] } = {}): Promise<HostFixture> {
  const root = await mkdtemp(join(tmpdir(), 'switchboard-host-'));
  const home = join(root, 'home');
  const rendererDir = join(root, 'renderer');
  await mkdir(home);
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(join(home, 'servers.json'), SERVERS_JSON);
  await writeFile(join(rendererDir, 'index.html'), INDEX_HTML);
  await writeFile(join(rendererDir, 'assets', 'app.js'), options.appJs ?? 'document.getElementById("state").textContent = "ready";\n');
  await writeFile(join(rendererDir, 'assets', 'style.css'), 'body { font-family: sans-serif; }\n');
  await writeFile(join(rendererDir, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(root, 'secret.txt'), SECRET_OUTSIDE);
  await symlink(join(root, 'secret.txt'), join(rendererDir, 'assets', 'link-out.txt'));

  const spawned: HostFixture['spawned'] = [];
  const recordingSpawn: SpawnFn = (command: string, args: readonly string[], spawnOptions: SpawnOptions): ChildProcess => {
    spawned.push({ command, args });
    return spawn(process.execPath, ['-e', ''], spawnOptions);
  };
  let core: SwitchboardCore | undefined;
  try {
    core = new SwitchboardCore({
      home: dataHome({ SWITCHBOARD_HOME: home }),
      vault: new KeytarVault(),
      opener: new SystemOpener(recordingSpawn),
      logger: quietLogger,
    });
    await core.start();
    const handlers = options.wrapHandlers ? options.wrapHandlers(core) : core.handlers;
    const host = await startWebHost({ handlers, events: core.events, rendererDir, ...options.host });
    const started = core;
    return {
      root,
      rendererDir,
      core: started,
      host,
      spawned,
      cleanup: async () => {
        await host.close();
        await started.stop();
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await core?.stop();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

export interface HttpReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One raw HTTP request with exactly the headers given (Host included, when given). */
export function rawRequest(
  port: number,
  options: { path?: string; method?: string; headers?: Record<string, string>; omitHost?: boolean; address?: string } = {},
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: options.address ?? '127.0.0.1',
        port,
        path: options.path ?? '/',
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        setHost: !options.omitHost,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export const cookieFor = (host: WebHost, token = host.token): string => `switchboard_token_${host.port}=${token}`;
export const originOf = (host: WebHost): string => `http://127.0.0.1:${host.port}`;
