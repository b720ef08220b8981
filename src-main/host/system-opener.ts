import { spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { AppFailure } from '../core/app-error';
import type { UrlOpener } from '../core/ports';
import { checkExternalUrl } from '../core/url-policy';

/** The seam for starting the platform opener; Node's spawn in the app, a recorder in tests. */
export type SpawnFn = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/** The platform's "open this URL" program, always called with argv, never through a shell (SECURITY O8, P2). */
export function openerCommand(platform: NodeJS.Platform, url: string): { command: string; args: string[] } {
  switch (platform) {
    case 'darwin':
      return { command: 'open', args: [url] };
    case 'win32':
      return { command: 'explorer.exe', args: [url] };
    default:
      return { command: 'xdg-open', args: [url] };
  }
}

/** Web mode's UrlOpener: the URL policy first, then the system browser, detached from us. */
export class SystemOpener implements UrlOpener {
  constructor(
    private readonly spawn: SpawnFn = nodeSpawn,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  async open(url: string): Promise<void> {
    const verdict = checkExternalUrl(url);
    if (!verdict.ok) throw new AppFailure('invalid_input', `refused to open "${clip(url)}": ${verdict.reason}`);
    const { command, args } = openerCommand(this.platform, verdict.url);
    const child = this.spawn(command, args, { shell: false, detached: true, stdio: 'ignore', windowsHide: true });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => {
        child.unref();
        resolve();
      });
      child.once('error', (error: NodeJS.ErrnoException) => {
        const why = error.code === 'ENOENT' ? `${command} was not found` : error.message;
        reject(new AppFailure('unavailable', `could not open ${verdict.url} in the browser: ${why}`));
      });
    });
  }
}

const clip = (value: string): string => (value.length > 200 ? `${value.slice(0, 200)}…` : value);
