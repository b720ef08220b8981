import { createHash } from 'node:crypto';
import { sortedEntries as sorted, type ServerConfig } from '../config/server-config';

/**
 * A hash of everything that decides how a server is launched or reached: change any of
 * these and the server must restart (and, for the trust gate, be approved again).
 * Name, timeouts, approval and the enabled flag are not part of it.
 */
export function launchHash(config: ServerConfig): string {
  const fields =
    config.kind === 'stdio'
      ? { kind: 'stdio', command: config.command, args: config.args, env: sorted(config.env), cwd: config.cwd ?? null }
      : { kind: 'remote', url: config.url, headers: sorted(config.headers), transport: config.transport };
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}
