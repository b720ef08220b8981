import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { rawRequest } from './host-fixture';

/** `npm run web`'s built entry; `npm test` builds before it runs the tests. */
const WEB_ENTRY = resolve('out/main/web.js');
const notBuilt = existsSync(WEB_ENTRY) && existsSync(resolve('out/renderer/index.html')) ? undefined : 'out/main/web.js or out/renderer is missing: run `npx electron-vite build` first';
if (notBuilt) console.warn(`web entry tests skipped: ${notBuilt}`);

interface Launched {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const homes: string[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});

async function launch(args: string[], env: Record<string, string> = {}): Promise<Launched> {
  const home = await mkdtemp(join(tmpdir(), 'switchboard-web-'));
  homes.push(home);
  await writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { alpha: { command: process.execPath, args: ['-e', ''], enabled: false } } }));
  const child = spawn(process.execPath, [WEB_ENTRY, ...args], { env: { ...process.env, SWITCHBOARD_HOME: home, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, output: () => output, exited };
}

function printedUrl(launched: Launched): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    const check = () => {
      const match = /^Switchboard is running at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43})$/m.exec(launched.output());
      if (match) resolveUrl(match[1]!);
    };
    launched.child.stdout!.on('data', check);
    void launched.exited.then((code) => reject(new Error(`web mode exited with ${code} before printing its URL:\n${launched.output()}`)));
  });
}

describe.skipIf(notBuilt !== undefined)('web mode entry (out/main/web.js)', () => {
  it('prints one line with its address, serves the built UI there, and stops cleanly on SIGTERM', async () => {
    const launched = await launch([]);
    const url = new URL(await printedUrl(launched));
    const port = Number(url.port);
    const token = url.searchParams.get('token')!;

    const redirect = await rawRequest(port, { path: `/?token=${token}` });
    expect(redirect.status).toBe(302);
    const page = await rawRequest(port, { headers: { Cookie: `switchboard_token_${port}=${token}` } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="app">');

    // An open browser tab is told goodbye, and the process exits 0.
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`, { origin: `http://127.0.0.1:${port}` });
    await new Promise((r, j) => socket.once('open', r).once('error', j));
    const closed = new Promise<number>((r) => socket.once('close', (code) => r(code)));
    launched.child.kill('SIGTERM');
    expect(await closed).toBe(1001);
    expect(await launched.exited).toBe(0);
  });

  it('listens on the port given with --port', async () => {
    const taken = await launch([]);
    const first = Number(new URL(await printedUrl(taken)).port);
    taken.child.kill('SIGTERM');
    expect(await taken.exited).toBe(0);

    const launched = await launch(['--port', String(first)]);
    expect(new URL(await printedUrl(launched)).port).toBe(String(first));
    launched.child.kill('SIGINT');
    expect(await launched.exited).toBe(0);
  });

  it.runIf(process.platform === 'linux')('with --open hands the printed address to xdg-open as one argument', async () => {
    // A stand-in xdg-open first on PATH records its argv instead of starting a browser.
    const bin = await mkdtemp(join(tmpdir(), 'switchboard-web-'));
    homes.push(bin);
    const log = join(bin, 'opened.txt');
    await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$#" "$@" > "${log}.part" && mv "${log}.part" "${log}"\n`, { mode: 0o755 });
    const launched = await launch(['--open'], { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` });
    const url = await printedUrl(launched);
    while (!existsSync(log)) await new Promise((r) => setTimeout(r, 50));
    expect(await readFile(log, 'utf8')).toBe(`1\n${url}\n`);
    launched.child.kill('SIGTERM');
    expect(await launched.exited).toBe(0);
  });

  it.each([
    [['--port', 'abc'], 'switchboard web: --port must be a whole number from 0 to 65535, got "abc"\nusage: node out/main/web.js [--port N] [--open] [switchboard://install?…]\n'],
    [['--port', '70000'], 'switchboard web: --port must be a whole number from 0 to 65535, got "70000"\nusage: node out/main/web.js [--port N] [--open] [switchboard://install?…]\n'],
    [['--bogus'], "switchboard web: Unknown option '--bogus'\nusage: node out/main/web.js [--port N] [--open] [switchboard://install?…]\n"],
    [
      ['servers.json'],
      'switchboard web: the only argument web mode takes is one switchboard://install?… link, got "servers.json"\nusage: node out/main/web.js [--port N] [--open] [switchboard://install?…]\n',
    ],
  ])('refuses %j with exit code 2 and says why', async (args, message) => {
    const launched = await launch(args);
    expect(await launched.exited).toBe(2);
    expect(launched.output()).toBe(message);
  });
});
