import { resolve } from 'node:path';
import type { App } from 'electron';

/**
 * switchboard:// links reach the app three ways: in the launch arguments (Windows, Linux), in a
 * second launch's arguments, which the single-instance lock forwards as 'second-instance' (Windows,
 * Linux), and as 'open-url' (macOS, possibly before ready). This only collects them and hands each
 * to the core's inbox once it exists; the core parses it (SECURITY B3) and the window shows the form.
 * https://www.electronjs.org/docs/latest/tutorial/launch-app-from-url-in-another-app
 */
export const INSTALL_LINK_SCHEME = 'switchboard';

type LinkApp = Pick<App, 'setAsDefaultProtocolClient' | 'on'>;
type Launch = { argv: string[]; execPath: string; defaultApp: boolean };

/** The first argument that is a switchboard: link; Chromium may add switches of its own around it. */
export function linkInArgv(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${INSTALL_LINK_SCHEME}:`));
}

export class InstallLinkReceiver {
  private readonly early: string[] = [];
  private deliver: ((link: string) => void) | undefined;

  /** Call once the single-instance lock is held and before ready: macOS sends open-url early. */
  constructor(app: LinkApp, launch: Launch = { argv: process.argv, execPath: process.execPath, defaultApp: Boolean(process.defaultApp) }) {
    // Run from source (`electron .`), the OS must start electron with the app's folder, as the link's handler.
    if (launch.defaultApp) {
      if (launch.argv.length >= 2) app.setAsDefaultProtocolClient(INSTALL_LINK_SCHEME, launch.execPath, [resolve(launch.argv[1]!)]);
    } else {
      app.setAsDefaultProtocolClient(INSTALL_LINK_SCHEME);
    }
    app.on('open-url', (event, url) => {
      event.preventDefault();
      this.receive(url);
    });
    app.on('second-instance', (_event, argv) => {
      const link = linkInArgv(argv);
      if (link) this.receive(link);
    });
    const first = linkInArgv(launch.argv);
    if (first) this.receive(first);
  }

  /** From now on links go to `deliver`, those that came before first. */
  deliverTo(deliver: (link: string) => void): void {
    this.deliver = deliver;
    for (const link of this.early.splice(0)) deliver(link);
  }

  private receive(link: string): void {
    if (this.deliver) this.deliver(link);
    else this.early.push(link);
  }
}
