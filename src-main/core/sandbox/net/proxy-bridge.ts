/** Where the bridge listens inside the server's own network namespace (nothing else is there to clash). */
export const BRIDGE_PORT = 3128;

/**
 * bridge.mjs (SECURITY X1), run inside the sandbox as the server's parent: it listens on 127.0.0.1:port in
 * the namespace and carries each connection to the filtering proxy's UNIX socket (the only way out), then
 * starts the real command with stdio inherited and ends as it ends (exit code, or the same signal); a stop
 * signal it gets goes on to the command. ELECTRON_RUN_AS_NODE is only there to let Electron's binary run
 * it as Node: the server does not inherit it (SECURITY P3). Kept as text rather than a function turned into
 * text: loaders and bundlers rewrite functions with helpers of their own (tsx adds `__name`) that the file
 * would not have. Plain JavaScript any Node since 12 runs; test/unit/sandbox/proxy-bridge.test.ts runs it.
 */
const BRIDGE_SOURCE = String.raw`import net from 'node:net';
import childProcess from 'node:child_process';

const [socketPath, port, command, ...args] = process.argv.slice(2);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  const cut = () => {
    client.destroy();
    upstream.destroy();
  };
  client.pipe(upstream).on('error', cut);
  upstream.pipe(client).on('error', cut);
  client.once('close', cut);
  upstream.once('close', cut);
});
server.once('error', (error) => {
  process.stderr.write('sandbox network bridge: ' + error.message + '\n');
  process.exit(70);
});
server.listen(Number(port), '127.0.0.1', () => {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = childProcess.spawn(command, args, { stdio: 'inherit', env });
  const forward = (signal) => child.kill(signal);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, forward);
  child.once('error', (error) => {
    process.stderr.write('cannot start ' + command + ': ' + error.message + '\n');
    process.exit(127);
  });
  child.once('exit', (code, signal) => {
    if (!signal) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
});
`;

/** The text of bridge.mjs. */
export function bridgeScript(): string {
  return BRIDGE_SOURCE;
}

/** What the bridge runs on: the executable and the variables it needs to act as Node. */
export type BridgeRuntime = { ok: true; command: string; env: Record<string, string> } | { ok: false; message: string };

export interface HostRuntime {
  execPath: string;
  /** Running inside Electron (process.versions.electron). */
  electron: boolean;
  /** A packaged Electron app (not `electron .`): its RunAsNode fuse is off (SECURITY R7). */
  packaged: boolean;
}

export function currentHostRuntime(): HostRuntime {
  const electron = Boolean(process.versions.electron);
  return { execPath: process.execPath, electron, packaged: electron && !(process as { defaultApp?: boolean }).defaultApp };
}

/**
 * The Node the bridge runs on. Plain Node (web mode, the CLI, tests): this very Node. Electron while
 * developing: its own binary with ELECTRON_RUN_AS_NODE=1. A packaged Electron app has that switch fused
 * off (SECURITY R7, so nobody can use our signed binary as a Node), so there it is the `node` on the
 * server's login PATH, and without one the server does not start, with the reason.
 */
export function bridgeRuntime(host: HostRuntime, loginNode: string | undefined): BridgeRuntime {
  if (!host.electron) return { ok: true, command: host.execPath, env: {} };
  if (!host.packaged) return { ok: true, command: host.execPath, env: { ELECTRON_RUN_AS_NODE: '1' } };
  if (loginNode) return { ok: true, command: loginNode, env: {} };
  return { ok: false, message: 'cannot start sandboxed with allowedDomains: its network filter needs Node (node on the PATH), which was not found' };
}
