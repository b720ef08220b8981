import type { Handlers } from '../../../src-preload/contract';
import { AppFailure } from '../app-error';
import type { ServerConfig } from '../config/server-config';
import { dataHome } from '../data-home';
import { writeSandboxGrant, denialFromReason } from './sandbox-grant';
import { isInside } from './sandbox-plan';

export interface SandboxHandlerDeps {
  home: string;
  /** The server's config and current state reason, as the manager knows them. */
  server: (name: string) => { config: ServerConfig; reason: string | undefined } | undefined;
  reload: () => Promise<void>;
}

/**
 * Allow (SECURITY X1): the renderer names only the server; main grants exactly the refusal that server's own
 * state reports, so a page cannot grant a path or host of its choosing.
 */
export function sandboxHandlers(deps: SandboxHandlerDeps): Pick<Handlers, 'allowSandboxDenial'> {
  return {
    allowSandboxDenial: async ({ name }) => {
      const server = deps.server(name);
      if (!server || server.config.kind !== 'stdio') throw new AppFailure('not_found', `no local server "${name}"`);
      const home = server.config.env.HOME ?? process.env.HOME ?? '';
      const denial = server.reason ? denialFromReason(server.reason, home) : undefined;
      if (!denial) throw new AppFailure('invalid_input', `server "${name}" has no sandbox refusal to allow`);
      if (denial.kind !== 'connect' && isInside(denial.path, dataHome())) {
        throw new AppFailure('invalid_input', `${denial.path} is Switchboard's own data; no server is given it`);
      }
      await writeSandboxGrant(deps.home, name, denial);
      await deps.reload();
      return null;
    },
  };
}
