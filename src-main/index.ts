// Electron composition root: app lifecycle, the core built with real adapters, one hardened window and the tray.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, protocol, screen } from 'electron';
import { dataHome } from './core/data-home';
import { consoleLogger } from './core/ports';
import { KeytarVault } from './core/secrets/keytar-vault';
import { SwitchboardCore, WINDOW_FIRST_MS } from './core/switchboard-core';
import { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME, appProtocolHandler, registerAppScheme } from './electron/app-protocol';
import { InstallLinkReceiver } from './electron/install-links';
import { bindIpc, forwardEvents } from './electron/ipc';
import { electronSettingsFile } from './electron/electron-settings-file';
import { FileSettingsStore } from './electron/settings-store';
import { SANDBOX_SCHEME, sandboxProtocolHandler, sandboxProxyUrl } from './electron/sandbox-protocol';
import { SystemBrowser } from './electron/system-browser';
import { followTheme, windowBackground } from './electron/theme';
import { StatusTray } from './electron/tray';
import { hardenWindow, restorableBounds, windowOptions } from './electron/window';

const here = fileURLToPath(new URL('.', import.meta.url));
const preloadPath = join(here, '../preload/index.cjs');
const rendererDir = join(here, '../renderer');
const logger = consoleLogger;

// Before anything else: one data home for Electron, web mode and the CLI (SWITCHBOARD_HOME overrides),
// which also keys the single-instance lock, so two profiles can run side by side.
const home = dataHome();
app.setPath('userData', home);
app.setAppUserModelId('dev.switchboard.app');
registerAppScheme(protocol);

if (!app.requestSingleInstanceLock()) {
  // The running instance gets this launch's arguments, an install link among them ('second-instance').
  app.quit();
} else {
  const links = new InstallLinkReceiver(app);
  main(links).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    logger.error('Switchboard could not start', { error: message });
    dialog.showErrorBox('Switchboard could not start', message);
    app.exit(1);
  });
}

async function main(links: InstallLinkReceiver): Promise<void> {
  await app.whenReady();
  protocol.handle(APP_SCHEME, appProtocolHandler(rendererDir));
  protocol.handle(SANDBOX_SCHEME, sandboxProtocolHandler(APP_ORIGIN));
  const assetsDir = join(app.getAppPath(), 'assets');
  const opener = new SystemBrowser();
  const settings = new FileSettingsStore(home, electronSettingsFile);
  const core = new SwitchboardCore({ home, vault: new KeytarVault(), opener, logger, holdServersForWindowMs: WINDOW_FIRST_MS });
  // MCP Apps load their sandbox proxy from the scheme registered above (SECURITY U1).
  bindIpc(ipcMain, { ...core.handlers, appSandbox: async ({ server, uri }) => ({ url: sandboxProxyUrl(server, uri) }) });

  let window: BrowserWindow | undefined;
  let quitting = false;
  forwardEvents(core.events, () => window?.webContents);

  const createWindow = (): BrowserWindow => {
    const win = new BrowserWindow(windowOptions(preloadPath, join(assetsDir, 'icon.png'), windowBackground()));
    hardenWindow(win, opener, logger);
    const bounds = restorableBounds(settings.get('window.bounds'), screen.getAllDisplays().map((d) => d.workArea));
    if (bounds) win.setBounds(bounds);
    win.once('ready-to-show', () => win.show());
    // Closing hides: Switchboard keeps its servers running in the tray until Quit.
    win.on('close', (event) => {
      settings.set('window.bounds', win.getBounds());
      if (quitting) return;
      event.preventDefault();
      win.hide();
    });
    void win.loadURL(APP_ENTRY_URL);
    return win;
  };
  const showWindow = () => {
    if (!window || window.isDestroyed()) {
      window = createWindow();
      return;
    }
    window.show();
    window.focus();
  };

  await core.start();
  // Before the window exists: its title bar and first paint already have the chosen theme.
  followTheme(core.events, core.appearance.get().theme, () => BrowserWindow.getAllWindows());
  const tray = new StatusTray(
    assetsDir,
    {
      open: showWindow,
      reconnectAll: () => {
        void core.handlers.reconnectAll({}).catch((error: unknown) => logger.warn('reconnect all failed', { error: String(error) }));
      },
      setTheme: (theme) => {
        void core.handlers.setAppearance({ theme }).catch((error: unknown) => logger.warn('could not store the theme', { error: String(error) }));
      },
      quit: () => app.quit(),
    },
    core.events,
    core.snapshot(),
    core.appearance.get().theme,
  );
  showWindow();
  // A link only opens the install form in the window; nothing is written or started (SECURITY B3).
  links.deliverTo((link) => {
    core.installLinks.offer(link);
    showWindow();
  });

  app.on('second-instance', showWindow);
  app.on('activate', showWindow);
  // The window only hides, so this fires only if it was destroyed; the tray keeps the app alive.
  app.on('window-all-closed', () => {});

  let stopped = false;
  app.on('before-quit', (event) => {
    quitting = true;
    if (stopped) return;
    // Stop every server (whole process groups) before Electron exits, then quit for real.
    event.preventDefault();
    core
      .stop()
      .catch((error: unknown) => logger.error('stopping servers failed', { error: String(error) }))
      .finally(() => {
        stopped = true;
        tray.destroy();
        app.quit();
      });
  });
}
