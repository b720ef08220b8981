import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

/** Variables that would change how a Node or Electron child runs; never inherited, never passed on. */
const STRIPPED = [/^ELECTRON_/i, /^NODE_OPTIONS$/i];

/**
 * A stdio server's environment (SECURITY P3): the SDK's small allowlist (HOME, PATH, USER …)
 * plus that server's own configured env — never this app's whole environment and never
 * another server's variables. PATH is the login-shell PATH so child tools resolve the way
 * they do in the user's terminal, unless the server sets its own.
 */
export function childEnvironment(serverEnv: Record<string, string>, loginPath: string): Record<string, string> {
  const env: Record<string, string> = { ...getDefaultEnvironment(), PATH: loginPath, ...serverEnv };
  for (const key of Object.keys(env)) if (STRIPPED.some((pattern) => pattern.test(key))) delete env[key];
  return env;
}
