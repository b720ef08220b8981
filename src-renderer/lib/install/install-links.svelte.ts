import type { Api, AppError, InstallLinkView, Result } from '../../../src-preload/contract';
import { installLinkFromLocation } from './install-link';

/**
 * The install link the app was opened with: web mode's /install?… page, or a switchboard:// link
 * the desktop shell was handed (taken from main when the window loads and whenever main says one
 * came). Main parses both with one parser; the servers page shows the link in the Browse form.
 */
export class InstallLinks {
  opened = $state.raw<InstallLinkView | undefined>(undefined);
  error = $state.raw<AppError | undefined>(undefined);

  constructor(private readonly api: Api) {}

  /** Once, when the app loads. `onArrived` runs for every link that arrives later, to show the servers page. */
  start(location: Pick<Location, 'pathname' | 'search'>, history: Pick<History, 'replaceState'>, onArrived: () => void): void {
    const fromPage = installLinkFromLocation(location);
    if (fromPage) {
      // Back to the plain address: a reload must not open the link again.
      history.replaceState(null, '', '/');
      void this.api.readInstallLink({ link: fromPage }).then((result) => this.show(result));
    }
    void this.take();
    this.api.onInstallLinkOffered(() => {
      onArrived();
      void this.take();
    });
  }

  dismiss(): void {
    this.opened = undefined;
    this.error = undefined;
  }

  private async take(): Promise<void> {
    this.show(await this.api.takeInstallLink({}));
  }

  private show(result: Result<InstallLinkView | null>): void {
    if (!result.ok) {
      this.opened = undefined;
      this.error = result.error;
    } else if (result.value) {
      this.opened = result.value;
      this.error = undefined;
    }
  }
}
