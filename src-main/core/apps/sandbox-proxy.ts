import { APP_CONSOLE_MAX, appCspSchema, SANDBOX_APP_CONSOLE_ERROR, SANDBOX_APP_ERROR, type AppCsp } from '../../../src-preload/contract';
import { buildAppCsp } from './app-csp';

/**
 * The sandbox proxy page (MCP Apps spec, "Sandbox proxy"; SECURITY U1, U2, U4): an outer frame on an
 * origin of its own that loads the app's HTML into an inner iframe sandboxed with `allow-scripts` only
 * (an opaque origin: no top navigation, no popups, no forms, no access to this page or the host) and
 * relays JSON-RPC between that iframe and Switchboard's UI. The page's CSP is the app's CSP; the inner
 * srcdoc document inherits it. The web host and the Electron protocol both serve this page.
 */
export interface SandboxReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Browser features no app gets, whatever its resource asks for (SECURITY R4). */
const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), display-capture=(), clipboard-read=(), clipboard-write=(), payment=(), usb=(), serial=(), hid=()';

/** Messages per second an app may send before its proxy stops it (the UI's AppFrame has a guard of its own too). */
export const PROXY_MESSAGES_PER_SECOND = 200;

const plain = (status: number, text: string, extra: Record<string, string> = {}): SandboxReply => ({
  status,
  headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', "Content-Security-Policy": "default-src 'none'", ...extra },
  body: `${status}: ${text}\n`,
});

/** `cspParam` is the page's `?csp=` (JSON of the resource's `_meta.ui.csp`); `hostOrigin` is the one UI origin that may frame it. */
export function sandboxProxyReply(method: string, cspParam: string | null, hostOrigin: string): SandboxReply {
  if (method !== 'GET' && method !== 'HEAD') return plain(405, `method ${method} is not allowed`, { Allow: 'GET, HEAD' });
  const declared = parseDeclaredCsp(cspParam);
  if (!declared.ok) return plain(400, declared.reason);
  const { policy } = buildAppCsp(declared.csp, hostOrigin);
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': policy,
      'Permissions-Policy': PERMISSIONS_POLICY,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
    body: proxyPage(hostOrigin),
  };
}

/** Fail closed: a `csp` that is not the declared shape refuses the page rather than guessing. */
export function parseDeclaredCsp(raw: string | null): { ok: true; csp: AppCsp | undefined } | { ok: false; reason: string } {
  if (raw === null || raw === '') return { ok: true, csp: undefined };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'the csp parameter is not JSON' };
  }
  const parsed = appCspSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `the csp parameter is not a UI resource CSP: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  return { ok: true, csp: parsed.data };
}

/**
 * Runs in the app's own document before any of its code (SECURITY U7): the WebRTC constructors become
 * undefined, for good (non-configurable, non-writable), because no CSP directive governs WebRTC in
 * Chromium (`webrtc 'block'` is unrecognized) and a TURN server's USERNAME carries data past an app CSP
 * that declared nothing. It removes its own element so the app's DOM is as the author wrote it.
 * What it cannot reach: a child frame the app makes itself (a srcdoc iframe) gets a fresh window with
 * fresh constructors; Electron refuses such frames, a browser has no switch for it (docs/mcp-apps.md).
 */
export const NO_WEBRTC_PRELUDE =
  '<script>(() => {' +
  "for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCIceTransport', 'RTCDataChannel', 'RTCRtpSender', 'RTCRtpReceiver', 'RTCRtpTransceiver']) {" +
  'Object.defineProperty(window, name, { value: undefined, writable: false, configurable: false, enumerable: false });' +
  '}' +
  'document.currentScript.remove();' +
  '})();</script>';

/**
 * Also in the app's document before its code: its first errors (console.error, an uncaught error or rejection, a
 * resource its CSP refused) go to the proxy, so a card whose app never starts can say what its console said. The
 * app can send the same message itself: it is the app's text either way, shown as text, bounded.
 */
export const APP_ERRORS_PRELUDE =
  '<script>(() => {' +
  'let left = 3;' +
  `const report = (text) => { if (left-- > 0) try { parent.postMessage({ jsonrpc: '2.0', method: '${SANDBOX_APP_CONSOLE_ERROR}', params: { text: String(text).slice(0, ${APP_CONSOLE_MAX}) } }, '*'); } catch {} };` +
  "const words = (v) => { try { return v instanceof Error ? v.name + ': ' + v.message : typeof v === 'string' ? v : JSON.stringify(v) ?? String(v); } catch { return String(v); } };" +
  "addEventListener('error', (e) => report(e.error !== undefined && e.error !== null ? words(e.error) : e.message));" +
  "addEventListener('unhandledrejection', (e) => report('unhandled rejection: ' + words(e.reason)));" +
  "document.addEventListener('securitypolicyviolation', (e) => report('refused by its content security policy (' + e.effectiveDirective + '): ' + (e.blockedURI || 'inline')));" +
  'const original = console.error;' +
  "console.error = function (...args) { report(args.map(words).join(' ')); return original.apply(this, args); };" +
  'document.currentScript.remove();' +
  '})();</script>';

function proxyPage(hostOrigin: string): string {
  // JSON.stringify plus escaping "<" keeps the origin a string literal inside the script element.
  const host = JSON.stringify(hostOrigin).replace(/</g, '\\u003c');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>MCP App sandbox</title>
<style>html,body{margin:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body><script>
(() => {
  const HOST = ${host};
  const PRELUDE = ${JSON.stringify(NO_WEBRTC_PRELUDE + APP_ERRORS_PRELUDE).replace(/</g, '\\u003c')};
  // The prelude goes after a doctype (which must stay first, or the page is in quirks mode), else at the very start.
  const withPrelude = (html) => {
    const doctype = /^\\s*<!doctype[^>]*>/i.exec(html);
    return doctype ? doctype[0] + PRELUDE + html.slice(doctype[0].length) : PRELUDE + html;
  };
  const PREFIX = 'ui/notifications/sandbox-';
  if (window.top === window.self) {
    document.body.textContent = 'This page only runs inside Switchboard.';
    return;
  }
  let inner = null;
  let loads = 0;
  let consoleSeen = false;
  // The first flood guard sits here, in the app's own process: a flood is cut off before it crosses to the UI.
  const LIMIT = ${PROXY_MESSAGES_PER_SECOND};
  const stamps = [];
  const flooding = () => {
    const now = performance.now();
    stamps.push(now);
    while (now - stamps[0] >= 1000) stamps.shift();
    return stamps.length > LIMIT;
  };
  const toHost = (message) => window.parent.postMessage(message, HOST);
  const fail = (reason) => {
    if (inner) inner.remove();
    inner = null;
    toHost({ jsonrpc: '2.0', method: '${SANDBOX_APP_ERROR}', params: { reason } });
  };
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source === window.parent) {
      if (event.origin !== HOST) return;
      if (data && data.method === PREFIX + 'resource-ready') {
        // One app per proxy page; the host's sandbox and permission overrides are ignored (never loosened).
        if (inner || loads > 0) return;
        const html = data.params && data.params.html;
        if (typeof html !== 'string') return fail('the host sent no HTML');
        inner = document.createElement('iframe');
        inner.setAttribute('sandbox', 'allow-scripts');
        inner.setAttribute('title', 'MCP App');
        inner.addEventListener('load', () => {
          if (++loads > 1) fail('the app navigated away from its own page');
        });
        inner.srcdoc = withPrelude(html);
        document.body.appendChild(inner);
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(data, '*');
      return;
    }
    // The app's document has an opaque origin ("null"); anything else is not the app we loaded.
    if (inner && event.source === inner.contentWindow && event.origin === 'null') {
      if (flooding()) return fail('the app sent more than ' + LIMIT + ' messages in a second and was stopped');
      if (data && data.method === '${SANDBOX_APP_CONSOLE_ERROR}') {
        // Only the first, as a bounded string: the card shows one line of what the app's console said.
        const text = data.params && data.params.text;
        if (!consoleSeen && typeof text === 'string') toHost({ jsonrpc: '2.0', method: data.method, params: { text: text.slice(0, ${APP_CONSOLE_MAX}) } });
        consoleSeen = true;
        return;
      }
      if (data && typeof data.method === 'string' && data.method.startsWith(PREFIX)) return;
      toHost(data);
    }
  });
  toHost({ jsonrpc: '2.0', method: PREFIX + 'proxy-ready', params: {} });
})();
</script></body></html>
`;
}
