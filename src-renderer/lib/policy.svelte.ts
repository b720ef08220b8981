import type { Api, PolicyView } from '../../src-preload/contract';

/** The words every lock of the administrator's policy carries on screen (the core's SET_BY_ORGANIZATION). */
export const SET_BY_ORGANIZATION = 'set by your organization';
/** What a page says where approvals are locked. */
export const EVERY_CALL_ASKS = `Every tool call asks — ${SET_BY_ORGANIZATION}`;

/**
 * The administrator's policy as the pages show it (SECURITY X2). The core decides and enforces; this only
 * says what is locked. Read when a page that shows it opens, and again whenever the servers change (a
 * Reconnect after the file was fixed, a start the policy refused), one read at a time.
 */
export class PolicyStore {
  view = $state.raw<PolicyView | undefined>(undefined);
  private reading: Promise<void> | undefined;
  private again = false;

  constructor(private readonly api: Pick<Api, 'getPolicy' | 'onServersChanged'>) {
    api.onServersChanged(() => void this.load());
  }

  get approvalsLocked(): boolean {
    return this.view?.approvalsLocked ?? false;
  }

  /** Why nothing can be installed from `source` now, or undefined when it can. */
  installBlocked(source: 'registry' | 'catalog' | 'link' | 'bundle'): string | undefined {
    const installs = this.view?.installs;
    if (installs === 'off') return `Installing servers is turned off — ${SET_BY_ORGANIZATION}.`;
    if (installs === 'registry-only' && (source === 'link' || source === 'bundle')) {
      return `Only servers from the MCP Registry or the catalog may be installed — ${SET_BY_ORGANIZATION}.`;
    }
    return undefined;
  }

  load(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = this.read().finally(() => {
      this.reading = undefined;
      if (this.again) {
        this.again = false;
        void this.load();
      }
    });
    return this.reading;
  }

  private async read(): Promise<void> {
    const result = await this.api.getPolicy({});
    // A failed read keeps what was shown: the core enforces the policy either way.
    if (result.ok) this.view = result.value;
  }
}
