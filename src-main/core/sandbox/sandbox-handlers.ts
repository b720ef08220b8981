import type { Handlers } from '../../../src-preload/contract';
import { AppFailure } from '../app-error';
import type { ServerConfig } from '../config/server-config';
import { dataHome } from '../data-home';
import { writeBundleSandboxGrant, writeSandboxGrant, denialFromReason } from './sandbox-grant';
import { isInside } from './sandbox-plan';

export interface SandboxHandlerDeps {
  home: string;
  /** The server's config, its current state reason and a refusal a call met while it ran, as the manager knows them. */
  server: (name: string) => { config: ServerConfig; reason: string | undefined; denial?: string } | undefined;
  reload: () => Promise<void>;
}

/**
 * Allow (SECURITY X1): the renderer names only the server; main grants exactly the refusal that server's own
 * state reports (or its last failed call met), so a page cannot grant a path or host of its choosing.
 */
export function sandboxHandlers(deps: SandboxHandlerDeps): Pick<Handlers, 'allowSandboxDenial'> {
  return {
    allowSandboxDenial: async ({ name }) => {
      const server = deps.server(name);
      if (!server || server.config.kind !== 'stdio') throw new AppFailure('not_found', `no local server "${name}"`);
      const home = server.config.env.HOME ?? process.env.HOME ?? '';
      // The refusal that stopped it first, else the one its last failed call met (SECURITY X1).
      const denial = [server.reason, server.denial].map((text) => (text ? denialFromReason(text, home) : undefined)).find(Boolean);
      if (!denial) throw new AppFailure('invalid_input', `server "${name}" has no sandbox refusal to allow`);
      if (denial.kind !== 'connect' && isInside(denial.path, dataHome())) {
        throw new AppFailure('invalid_input', `${denial.path} is Switchboard's own data; no server is given it`);
      }
      // Into the file that holds its entry: the person's servers.json, or bundles.json for an installed bundle.
      if (server.config.source.origin === 'bundle') await writeBundleSandboxGrant(deps.home, name, denial);
      else await writeSandboxGrant(deps.home, name, denial);
      await deps.reload();
      return null;
    },
  };
}
