import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DomainRules } from './domain-rules';
import type { FilteringProxy, Refusal, Resolve } from './filtering-proxy';
import { bridgeScript } from './proxy-bridge';

/**
 * The proxy variables a sandboxed server gets (SECURITY X1), all naming its one proxy (`127.0.0.1:port`):
 * curl, pip, npm, Python and Go read the HTTP(S)_PROXY family, npm its own `npm_config_*proxy`, Node's own
 * fetch and http (≥ 24.5) read them once NODE_USE_ENV_PROXY is set; ALL_PROXY is the same port spoken as
 * SOCKS5 with names resolved by the proxy (`socks5h`), for tools that take only that. NO_PROXY is empty:
 * nothing bypasses the proxy (nothing could, it is the only way out; a tool that tries fails plainly).
 */
export function proxyEnvironment(address: string): Record<string, string> {
  const http = `http://${address}`;
  const socks = `socks5h://${address}`;
  const env: Record<string, string> = { NODE_USE_ENV_PROXY: '1', npm_config_proxy: http, npm_config_https_proxy: http, NO_PROXY: '', no_proxy: '' };
  for (const [name, url] of [['HTTP_PROXY', http], ['HTTPS_PROXY', http], ['ALL_PROXY', socks]] as const) {
    env[name] = url;
    env[name.toLowerCase()] = url;
  }
  return env;
}

export interface SandboxNetworkOptions {
  rules: DomainRules;
  /** Names resolved another way than the system's (tests point made-up names at their own listeners). */
  resolve?: Resolve;
}

/**
 * One sandboxed server's way out: its filtering proxy and the private folder (0700, removed on close)
 * that holds the proxy's UNIX socket and the bridge script, bound read-only into the sandbox. Opened when
 * the server starts, closed when it ends; refusals go to whoever `onRefused` names (its transport).
 */
export class SandboxNetwork {
  onRefused: (refusal: Refusal) => void = () => {};
  private proxy: FilteringProxy | undefined;
  private opening: Promise<string | number> | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    readonly folder: string,
    private readonly options: SandboxNetworkOptions,
  ) {}

  /** Makes the private folder and writes the bridge into it; nothing listens until `open`. */
  static async create(options: SandboxNetworkOptions): Promise<SandboxNetwork> {
    const folder = await mkdtemp(join(tmpdir(), 'switchboard-net-'));
    await chmod(folder, 0o700);
    await writeFile(join(folder, 'bridge.mjs'), bridgeScript(), { mode: 0o600 });
    return new SandboxNetwork(folder, options);
  }

  get socketPath(): string {
    return join(this.folder, 'proxy.sock');
  }

  get bridgePath(): string {
    return join(this.folder, 'bridge.mjs');
  }

  /** Starts the proxy: on the folder's socket (Linux) or, with `{ port: 0 }`, a loopback port (macOS). Once. */
  open(target: { path: string } | { port: 0 } = { path: this.socketPath }): Promise<string | number> {
    if (this.closing) return Promise.reject(new Error('the sandbox network is closed'));
    this.opening ??= (async () => {
      // Loaded with the first proxy: on Node 24, node:http brings undici, http2, tls and zlib (~12 MB resident).
      const { FilteringProxy } = await import('./filtering-proxy');
      this.proxy = new FilteringProxy({ rules: this.options.rules, onRefused: (refusal) => this.onRefused(refusal), ...(this.options.resolve ? { resolve: this.options.resolve } : {}) });
      return this.proxy.listen(target);
    })();
    return this.opening;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.opening?.catch(() => {});
      await this.proxy?.close();
      await rm(this.folder, { recursive: true, force: true });
    })();
    return this.closing;
  }
}
