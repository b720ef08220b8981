import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

/** Variables that would change how a Node or Electron child runs; never inherited, never passed on. */
const STRIPPED = [/^ELECTRON_/i, /^NODE_OPTIONS$/i];

/**
 * How this machine reaches the network: the certificate authorities a TLS-inspecting network adds
 * (without them `npx` fails with SELF_SIGNED_CERT_IN_CHAIN) and its proxies. Paths and addresses, not
 * secrets — except a proxy URL with a user name or password in it, which stays here.
 */
const NETWORK_SETUP = /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|PIP_CERT|(HTTPS?|ALL|NO)_PROXY)$/i;

function networkSetup(from: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(from)) {
    if (value === undefined || !NETWORK_SETUP.test(key)) continue;
    if (/_PROXY$/i.test(key) && /^[a-z][a-z0-9+.-]*:\/\/[^/@]*@/i.test(value)) continue;
    out[key] = value;
  }
  return out;
}

/**
 * A stdio server's environment (SECURITY P3): the SDK's small allowlist (HOME, PATH, USER …) and the
 * machine's network set-up (CA bundles, proxies without credentials), plus that server's own configured
 * env — never this app's whole environment and never another server's variables. PATH is the login-shell
 * PATH so child tools resolve the way they do in the user's terminal, unless the server sets its own.
 */
export function childEnvironment(serverEnv: Record<string, string>, loginPath: string, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = { ...getDefaultEnvironment(), ...networkSetup(from), PATH: loginPath, ...serverEnv };
  for (const key of Object.keys(env)) if (STRIPPED.some((pattern) => pattern.test(key))) delete env[key];
  return env;
}
