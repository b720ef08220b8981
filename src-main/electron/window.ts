import type { BrowserWindow, BrowserWindowConstructorOptions, Rectangle } from 'electron';
import type { Logger, UrlOpener } from '../core/ports';
import { checkExternalUrl } from '../core/url-policy';
import { APP_ORIGIN_LABEL } from '../core/apps/app-origin';
import { SANDBOX_SCHEME } from './sandbox-protocol';

/**
 * The main window's options (SECURITY R1): a sandboxed renderer with context isolation and no Node,
 * every security-relevant preference set explicitly so a changed Electron default cannot loosen it.
 */
const MIN_WIDTH = 720;
const MIN_HEIGHT = 480;

/** `backgroundColor` is the current theme's page background (see theme.ts), shown before the first paint. */
export function windowOptions(preloadPath: string, icon: string | undefined, backgroundColor: string): BrowserWindowConstructorOptions {
  return {
    width: 1100,
    height: 760,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    show: false,
    title: 'Switchboard',
    backgroundColor,
    ...(icon ? { icon } : {}),
    webPreferences: {
      preload: preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    },
  };
}

/**
 * Locks the window down (SECURITY R3, R4): it never navigates away from the app, opens no
 * windows, attaches no webviews and is granted no permission. http(s) links the user follows go
 * to the system browser, and only through the URL policy (O8).
 */
export function hardenWindow(win: BrowserWindow, opener: UrlOpener, logger: Logger): void {
  const contents = win.webContents;
  const openOutside = (url: string) => {
    const verdict = checkExternalUrl(url);
    if (!verdict.ok) {
      logger.warn('refused to open a link from the window', { reason: verdict.reason });
      return;
    }
    opener.open(verdict.url).catch((error: unknown) => logger.warn('could not open a link in the system browser', { error: String(error) }));
  };
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    openOutside(url);
  });
  // The only frames are MCP App sandboxes: the proxy page and the app's srcdoc document inside it. An app
  // that tries to take its frame elsewhere (to carry data off in the URL) is stopped here (SECURITY U4).
  contents.on('will-frame-navigate', (details) => {
    if (details.isMainFrame || subframeMayLoad(details.url, frameDepth(details.frame))) return;
    details.preventDefault();
    logger.warn('refused a navigation inside an app frame', { url: details.url.slice(0, 200) });
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
  contents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  contents.session.setPermissionCheckHandler(() => false);
  // No WebRTC over UDP from any frame (SECURITY U7): no STUN or TURN/UDP packet leaves, whatever an app's
  // CSP says (CSP does not govern WebRTC). TURN over TCP is not covered by this policy: the proxy page's
  // prelude and the refusal of nested frames above stop an app from constructing a peer connection at all.
  contents.setWebRTCIPHandlingPolicy('disable_non_proxied_udp');
}

/** How many frames up to the window's own: the sandbox proxy is 1, the app inside it 2; unknown is Infinity. */
function frameDepth(frame: { parent: unknown } | null | undefined): number {
  let depth = 0;
  for (let f = frame; f; f = f.parent as typeof frame) depth += 1;
  return frame ? depth - 1 : Number.POSITIVE_INFINITY;
}

/**
 * An app's sandbox proxy page (any query: its csp), or the app's own srcdoc inside it — never a srcdoc
 * frame the app makes inside itself: that would be a fresh window, out of reach of the proxy's WebRTC
 * prelude (SECURITY U7).
 */
function subframeMayLoad(url: string, depth: number): boolean {
  if (url === 'about:srcdoc') return depth === 2;
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.protocol === `${SANDBOX_SCHEME}:` && APP_ORIGIN_LABEL.test(parsed.host) && parsed.pathname === '/' && parsed.username === '' && parsed.port === '';
}

/** How much of a saved window must still be on some screen for us to put it back there. */
const VISIBLE_MARGIN = 64;

/**
 * The saved window bounds, if they are whole numbers, no smaller than the window allows and still
 * on one of today's screens (a monitor may have been unplugged); otherwise undefined, and the
 * window opens at its default place.
 */
export function restorableBounds(saved: unknown, workAreas: readonly Rectangle[]): Rectangle | undefined {
  if (typeof saved !== 'object' || saved === null) return undefined;
  const { x, y, width, height } = saved as Record<string, unknown>;
  if (![x, y, width, height].every((n) => typeof n === 'number' && Number.isInteger(n))) return undefined;
  const bounds = { x, y, width, height } as Rectangle;
  if (bounds.width < MIN_WIDTH || bounds.height < MIN_HEIGHT) return undefined;
  const onScreen = workAreas.some((area) => {
    const overlapX = Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
    const overlapY = Math.min(bounds.y + bounds.height, area.y + area.height) - Math.max(bounds.y, area.y);
    return overlapX >= VISIBLE_MARGIN && overlapY >= VISIBLE_MARGIN;
  });
  return onScreen ? bounds : undefined;
}
