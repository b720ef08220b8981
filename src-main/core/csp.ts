/**
 * The Content-Security-Policy for the UI, shared by the Electron app:// protocol and the web host
 * (SECURITY R2): only our own scripts and styles, no inline code, no eval, no plugins, no framing of us.
 * The only frame the UI may hold is the MCP Apps sandbox proxy, on its own origin (SECURITY U1).
 */
export function rendererCsp(sandboxOrigin?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${sandboxOrigin ?? "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The policy of a page that frames nothing (error replies, the test harness). */
export const CONTENT_SECURITY_POLICY = rendererCsp();
