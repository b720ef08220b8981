import { shell } from 'electron';
import { AppFailure } from '../core/app-error';
import type { UrlOpener } from '../core/ports';
import { checkExternalUrl } from '../core/url-policy';

/** The UrlOpener port on the system browser; nothing reaches shell.openExternal without passing the URL policy (O8). */
export class SystemBrowser implements UrlOpener {
  async open(url: string): Promise<void> {
    const verdict = checkExternalUrl(url);
    if (!verdict.ok) throw new AppFailure('invalid_input', `refused to open ${url}: ${verdict.reason}`);
    await shell.openExternal(verdict.url);
  }
}
