import type { z } from 'zod';
import type { authInvokes } from '../../../src-preload/contract/auth';
import { AppFailure } from '../app-error';
import type { RemoteServerConfig, ServerConfig } from '../config/server-config';
import type { SignInService } from './sign-in';

type AuthInvoke = 'signIn' | 'cancelSignIn' | 'signOut' | 'setOAuthClient' | 'deleteOAuthClient';
export type AuthHandlers = {
  [K in AuthInvoke]: (input: z.output<(typeof authInvokes)[K]['input']>) => Promise<(typeof authInvokes)[K]['output']>;
};

export interface AuthHandlerDeps {
  signIn: SignInService;
  /** The configured server by name, as the core currently knows it. */
  findServer(name: string): ServerConfig | undefined;
  /** After a sign-in or sign-out: reconnect that server so its state follows. */
  afterCredentialsChanged?(name: string): void | Promise<void>;
}

/** The sign-in buttons' calls. Tokens never leave main: results say only what happened (SECURITY R5, S3). */
export function authHandlers(deps: AuthHandlerDeps): AuthHandlers {
  const remote = (name: string): RemoteServerConfig => {
    const server = deps.findServer(name);
    if (!server) throw new AppFailure('not_found', `no server named "${name}"`);
    if (server.kind !== 'remote') throw new AppFailure('invalid_input', `${name} is a stdio server; only remote servers sign in`);
    return server;
  };
  return {
    signIn: async ({ name }) => {
      const outcome = await deps.signIn.signIn(remote(name));
      if (outcome.state === 'signed_in') await deps.afterCredentialsChanged?.(name);
      return outcome;
    },
    cancelSignIn: async ({ name }) => {
      remote(name);
      if (!deps.signIn.cancel(name)) throw new AppFailure('not_found', `no sign-in to ${name} is running`);
      return null;
    },
    signOut: async ({ name }) => {
      await deps.signIn.signOut(remote(name));
      await deps.afterCredentialsChanged?.(name);
      return null;
    },
    setOAuthClient: async ({ name, clientId, clientSecret }) => {
      remote(name);
      await deps.signIn.setPreRegisteredClient(name, { clientId, ...(clientSecret ? { clientSecret } : {}) });
      return null;
    },
    deleteOAuthClient: async ({ name }) => {
      remote(name);
      if (!(await deps.signIn.store.deletePreRegistered(name))) throw new AppFailure('not_found', `${name} has no client ID entered`);
      return null;
    },
  };
}
