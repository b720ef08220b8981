import { createContext } from 'svelte';
import type { Api } from '../../src-preload/contract';
import type { ApiConnection } from './api';
import { ApprovalsStore } from './chat/approvals-store.svelte';
import { ChatSettingsStore } from './chat/chat-settings.svelte';
import { ChatStore } from './chat/chat-store.svelte';
import { ServerExtras } from './chat/server-extras.svelte';
import { ConnectionStore } from './connection-state.svelte';
import { InstallLinks } from './install/install-links.svelte';
import { PolicyStore } from './policy.svelte';
import { keychainStoreFor, type StoreValueInKeychain } from './secrets/keychain-value';
import { SecretsStore } from './secrets-store.svelte';
import { ServersStore } from './servers-store.svelte';
import { ToolRuns } from './servers/tool-runs.svelte';
import { ThemeStore, type SchemeQuery } from './theme.svelte';

/**
 * Everything the pages share, built once for the app's life and handed down through one typed
 * context (useApp), never through module globals or prop chains. The stores stay subscribed while
 * another page is shown, so a turn streaming in the background, approvals raised meanwhile and a
 * tool run's result are there on return.
 */
export interface AppContext {
  api: Api;
  connection: ConnectionStore;
  theme: ThemeStore;
  servers: ServersStore;
  secrets: SecretsStore;
  chat: ChatStore;
  approvals: ApprovalsStore;
  chatSettings: ChatSettingsStore;
  /** What the administrator's policy locks, for the pages that show it. */
  policy: PolicyStore;
  extras: ServerExtras;
  toolRuns: ToolRuns;
  /** An install link the app was opened with, shown in the servers page's Browse form. */
  installLinks: InstallLinks;
  /** "Store in keychain" for literal env and header values. */
  storeInKeychain: StoreValueInKeychain;
}

const [getApp, setApp, hasApp] = createContext<AppContext>();

/** The app's shared state, in any component below App. */
export const useApp = getApp;
export const provideApp = setApp;
/** False for a component rendered on its own (a test harness), outside the app. */
export const insideApp = hasApp;

export function createAppContext(api: Api, connection: ApiConnection, scheme: SchemeQuery): AppContext {
  let context: AppContext | undefined;
  // Under a root of their own: deriveds made inside the first page would be owned by it and stop
  // updating once it unmounts. The root lives as long as the app.
  $effect.root(() => {
    context = {
      api,
      connection: new ConnectionStore(connection),
      theme: new ThemeStore(api, scheme),
      servers: new ServersStore(api),
      secrets: new SecretsStore(api),
      chat: new ChatStore(api),
      approvals: new ApprovalsStore(api),
      chatSettings: new ChatSettingsStore(api),
      policy: new PolicyStore(api),
      extras: new ServerExtras(api),
      toolRuns: new ToolRuns(api),
      installLinks: new InstallLinks(api),
      storeInKeychain: keychainStoreFor(api),
    };
  });
  return context!;
}
