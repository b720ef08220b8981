import { ApprovalsStore } from './approvals-store.svelte';
import type { ChatApi } from './chat-api';
import { ChatSettingsStore } from './chat-settings.svelte';
import { ChatStore } from './chat-store.svelte';
import { ServerExtras } from './server-extras.svelte';

export interface ChatStores {
  chat: ChatStore;
  approvals: ApprovalsStore;
  settings: ChatSettingsStore;
  extras: ServerExtras;
}

const byApi = new WeakMap<ChatApi, ChatStores>();

/**
 * One set of chat stores per Api for the app's life: they stay subscribed while another page is
 * shown, so a turn streaming in the background and approvals raised meanwhile are there on return.
 */
export function chatStores(api: ChatApi): ChatStores {
  let stores = byApi.get(api);
  if (!stores) {
    let created: ChatStores | undefined;
    // Built under a root of their own: deriveds made inside the first ChatView would be owned by
    // it and stop updating once it unmounts. The root lives as long as the app.
    $effect.root(() => {
      created = { chat: new ChatStore(api), approvals: new ApprovalsStore(api), settings: new ChatSettingsStore(api), extras: new ServerExtras(api) };
    });
    stores = created!;
    byApi.set(api, stores);
  }
  return stores;
}
