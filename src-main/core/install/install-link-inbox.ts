import type { InstallLinkView } from '../../../src-preload/contract/install';
import { AppFailure } from '../app-error';
import { parseInstallLink } from './install-link';

/**
 * switchboard://install links the desktop shell was handed (launch arguments, a second launch,
 * macOS open-url), held until the window takes them. Only the newest is kept: a link only opens the
 * install form, and a form nobody saw is no loss. Taking one parses it with the same parser as web
 * mode's /install page (SECURITY B3), so the window opens the same form or shows the same reason.
 */
export class InstallLinkInbox {
  private pending: string | undefined;

  /** @param announce tells the window a link is waiting (it may not exist yet: it takes one when it loads). */
  constructor(private readonly announce: () => void) {}

  offer(link: string): void {
    this.pending = link;
    this.announce();
  }

  /** The waiting link, read and forgotten; null when there is none. */
  take(): InstallLinkView | null {
    const link = this.pending;
    this.pending = undefined;
    if (link === undefined) return null;
    const parsed = parseInstallLink(link);
    if (!parsed.ok) throw new AppFailure('invalid_input', parsed.message);
    return parsed.link;
  }
}
