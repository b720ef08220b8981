/**
 * The Content-Security-Policy for the UI, shared by the Electron app:// protocol and the web host
 * (SECURITY R2): only our own scripts and styles, no inline code, no eval, no plugins, no framing.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');
