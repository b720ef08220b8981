import type { BrowserWindow } from 'electron';
import { describe, expect, it } from 'vitest';
import type { Logger, UrlOpener } from '../../../src-main/core/ports';
import { hardenWindow, restorableBounds, windowOptions } from '../../../src-main/electron/window';
import { sandboxProxyUrl } from '../../../src-main/electron/sandbox-protocol';
import { TestEvent, TestWebContents } from './test-electron';

class TestOpener implements UrlOpener {
  readonly opened: string[] = [];
  async open(url: string): Promise<void> {
    this.opened.push(url);
  }
}

class TestLogger implements Logger {
  readonly lines: Array<[string, string, Record<string, unknown> | undefined]> = [];
  info(m: string, f?: Record<string, unknown>) {
    this.lines.push(['info', m, f]);
  }
  warn(m: string, f?: Record<string, unknown>) {
    this.lines.push(['warn', m, f]);
  }
  error(m: string, f?: Record<string, unknown>) {
    this.lines.push(['error', m, f]);
  }
}

/** The window's frames as Electron's WebFrameMain links them: the UI, an app's proxy, the app, a frame inside the app. */
const frames = (() => {
  const main = { parent: null };
  const proxy = { parent: main };
  const app = { parent: proxy };
  return { main, proxy, app, nested: { parent: app } };
})();

function hardened() {
  const contents = new TestWebContents();
  const opener = new TestOpener();
  const logger = new TestLogger();
  hardenWindow({ webContents: contents } as unknown as BrowserWindow, opener, logger);
  return { contents, opener, logger };
}

describe('windowOptions (SECURITY R1)', () => {
  it('sandboxes the renderer, isolates its context and gives it no Node, each set explicitly', () => {
    const prefs = windowOptions('/app/out/preload/index.cjs', undefined, '#fff').webPreferences!;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
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
    });
    // Explicit, not inherited from a default that a future Electron might change.
    for (const key of ['sandbox', 'contextIsolation', 'nodeIntegration', 'webSecurity', 'webviewTag'] as const) expect(Object.hasOwn(prefs, key)).toBe(true);
  });

  it('starts hidden and carries the icon only when given one', () => {
    expect(windowOptions('/p.cjs', undefined, '#fff').show).toBe(false);
    expect('icon' in windowOptions('/p.cjs', undefined, '#fff')).toBe(false);
    expect(windowOptions('/p.cjs', '/app/assets/icon.png', '#fff').icon).toBe('/app/assets/icon.png');
  });
});

describe('hardenWindow (SECURITY R3, R4)', () => {
  it('prevents every navigation and sends an https link to the system browser', () => {
    const { contents, opener } = hardened();
    const inApp = new TestEvent();
    contents.emit('will-navigate', inApp, 'app://switchboard/other.html');
    const link = new TestEvent();
    contents.emit('will-navigate', link, 'https://modelcontextprotocol.io/docs');
    expect(inApp.defaultPrevented).toBe(true);
    expect(link.defaultPrevented).toBe(true);
    expect(opener.opened).toEqual(['https://modelcontextprotocol.io/docs']);
  });

  it('prevents a navigation to a refused URL without opening anything, and logs why', () => {
    const { contents, opener, logger } = hardened();
    const event = new TestEvent();
    contents.emit('will-navigate', event, 'file:///etc/passwd');
    expect(event.defaultPrevented).toBe(true);
    expect(opener.opened).toEqual([]);
    expect(logger.lines).toEqual([['warn', 'refused to open a link from the window', { reason: 'the scheme "file" is not allowed (only https, or http to loopback)' }]]);
  });

  it('denies every window.open; a valid link goes to the system browser, javascript: goes nowhere', () => {
    const { contents, opener } = hardened();
    expect(contents.windowOpenHandler!({ url: 'https://example.com/a' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'http://127.0.0.1:4000/cb' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'http://example.com/plain' })).toEqual({ action: 'deny' });
    expect(opener.opened).toEqual(['https://example.com/a', 'http://127.0.0.1:4000/cb']);
  });

  it('lets an app frame load only the sandbox proxy and its srcdoc app, never another address (SECURITY U4)', () => {
    const { contents, logger } = hardened();
    const navigate = (url: string, isMainFrame = false) => {
      const event = Object.assign(new TestEvent(), { url, isMainFrame, frame: isMainFrame ? frames.main : url === 'about:srcdoc' ? frames.app : frames.proxy });
      contents.emit('will-frame-navigate', event);
      return event.defaultPrevented;
    };
    const proxy = sandboxProxyUrl('pdf', 'ui://pdf/viewer');
    expect(navigate(`${proxy}?csp=%7B%7D`)).toBe(false);
    expect(navigate(proxy)).toBe(false);
    expect(navigate('about:srcdoc')).toBe(false);
    expect(navigate('https://exfiltrate.example/?data=secret')).toBe(true);
    expect(navigate('switchboard-sandbox://proxy/')).toBe(true);
    expect(navigate(`${proxy}elsewhere`)).toBe(true);
    expect(navigate(`switchboard-sandbox://${new URL(proxy).host}.evil/`)).toBe(true);
    expect(navigate('app://switchboard/index.html')).toBe(true);
    // The main frame is will-navigate's business (it allows nothing either).
    expect(navigate('app://switchboard/index.html', true)).toBe(false);
    expect(logger.lines[0]).toEqual(['warn', 'refused a navigation inside an app frame', { url: 'https://exfiltrate.example/?data=secret' }]);
  });

  it('refuses a srcdoc frame an app makes inside itself, a fresh window its WebRTC prelude never ran in (SECURITY U7)', () => {
    const { contents, logger } = hardened();
    const navigate = (frame: unknown) => {
      const event = Object.assign(new TestEvent(), { url: 'about:srcdoc', isMainFrame: false, frame });
      contents.emit('will-frame-navigate', event);
      return event.defaultPrevented;
    };
    expect(navigate(frames.app)).toBe(false);
    expect(navigate(frames.nested)).toBe(true);
    expect(navigate({ parent: frames.nested })).toBe(true);
    // Straight under the UI, or a frame already gone: not the app's own srcdoc either.
    expect(navigate(frames.proxy)).toBe(true);
    expect(navigate(null)).toBe(true);
    expect(logger.lines.map((l) => l[1])).toEqual(Array(4).fill('refused a navigation inside an app frame'));
  });

  it('lets no WebRTC packet out over UDP from any frame, and grants no camera or microphone (SECURITY U7)', () => {
    const { contents } = hardened();
    expect(contents.webRTCIPHandlingPolicy).toBe('disable_non_proxied_udp');
    for (const permission of ['media', 'mediaKeySystem', 'display-capture', 'speaker-selection']) {
      const answers: boolean[] = [];
      contents.session.permissionRequestHandler!(contents, permission, (granted: boolean) => answers.push(granted), { mediaTypes: ['audio', 'video'] });
      expect(answers).toEqual([false]);
      expect(contents.session.permissionCheckHandler!(contents, permission, 'switchboard-sandbox://app-0/', {})).toBe(false);
    }
  });

  it('refuses to attach a webview', () => {
    const { contents } = hardened();
    const event = new TestEvent();
    contents.emit('will-attach-webview', event, {}, {});
    expect(event.defaultPrevented).toBe(true);
  });

  it('denies every permission request and answers every permission check with no', () => {
    const { contents } = hardened();
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen']) {
      const answers: boolean[] = [];
      contents.session.permissionRequestHandler!(contents, permission, (granted: boolean) => answers.push(granted), {});
      expect(answers).toEqual([false]);
      expect(contents.session.permissionCheckHandler!(contents, permission, 'app://switchboard', {})).toBe(false);
    }
  });

  it('keeps the window safe when the system browser fails to open a link', async () => {
    const contents = new TestWebContents();
    const logger = new TestLogger();
    const failing: UrlOpener = { open: async () => Promise.reject(new Error('no browser')) };
    hardenWindow({ webContents: contents } as unknown as BrowserWindow, failing, logger);
    expect(contents.windowOpenHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    await new Promise((settle) => setImmediate(settle));
    expect(logger.lines).toEqual([['warn', 'could not open a link in the system browser', { error: 'Error: no browser' }]]);
  });
});

describe('restorableBounds', () => {
  const laptop = { x: 0, y: 0, width: 1440, height: 900 };
  const external = { x: 1440, y: 0, width: 2560, height: 1440 };

  it('puts the window back where it was when that is still on a screen', () => {
    expect(restorableBounds({ x: 1600, y: 100, width: 1200, height: 800 }, [laptop, external])).toEqual({ x: 1600, y: 100, width: 1200, height: 800 });
  });

  it('forgets a place on a screen that is gone', () => {
    expect(restorableBounds({ x: 1600, y: 100, width: 1200, height: 800 }, [laptop])).toBeUndefined();
    expect(restorableBounds({ x: 1400, y: 100, width: 1200, height: 800 }, [laptop])).toBeUndefined();
  });

  it('ignores saved bounds that are not whole numbers, too small, or not an object at all', () => {
    for (const saved of [undefined, null, 'x', { x: 0, y: 0, width: 900 }, { x: 0, y: 0, width: '900', height: 600 }, { x: 0.5, y: 0, width: 900, height: 600 }, { x: 0, y: 0, width: 300, height: 200 }]) {
      expect(restorableBounds(saved, [laptop]), JSON.stringify(saved)).toBeUndefined();
    }
  });
});
