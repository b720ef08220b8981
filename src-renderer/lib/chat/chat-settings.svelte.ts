import type { AppError } from '../../../src-preload/contract';
import type { ChatSettings, ChatSettingsView, LocalProbe, ProviderKind } from '../../../src-preload/contract/chat';
import type { ChatApi } from './chat-api';
import { FleetingNote } from '../fleeting-note.svelte';

/** Model settings and the API key (sent once to the keychain, never read back). */
export class ChatSettingsStore {
  view = $state.raw<ChatSettingsView | undefined>(undefined);
  probe = $state.raw<LocalProbe | undefined>(undefined);
  probing = $state(false);
  error = $state.raw<AppError | undefined>(undefined);
  /** A short confirmation after a save: it clears itself (issue 23 item 10), or with the next action. */
  readonly notice = new FleetingNote();

  constructor(private readonly api: Pick<ChatApi, 'getChatSettings' | 'setChatSettings' | 'setChatApiKey' | 'probeLocalModel'>) {}

  async load(): Promise<void> {
    const result = await this.api.getChatSettings({});
    if (result.ok) this.view = result.value;
    else this.error = result.error;
  }

  async save(settings: ChatSettings): Promise<boolean> {
    this.notice.clear();
    const result = await this.api.setChatSettings(settings);
    if (!result.ok) {
      this.error = result.error;
      return false;
    }
    this.error = undefined;
    this.view = result.value;
    this.notice.show('Settings saved.');
    return true;
  }

  async saveKey(provider: ProviderKind, key: string): Promise<boolean> {
    this.notice.clear();
    const result = await this.api.setChatApiKey({ provider, key });
    if (!result.ok) {
      this.error = result.error;
      return false;
    }
    this.error = undefined;
    this.view = result.value;
    this.notice.show(`Key stored in the keychain as "${result.value.apiKeyName}".`);
    return true;
  }

  async probeLocal(): Promise<void> {
    this.probing = true;
    const result = await this.api.probeLocalModel({});
    this.probing = false;
    if (result.ok) this.probe = result.value;
    else this.error = result.error;
  }

  /** Point the chat at the local server the probe found, with its first model. */
  async useLocal(): Promise<void> {
    const probe = this.probe;
    if (!probe?.reachable || !this.view) return;
    await this.save({ ...this.view.settings, provider: 'openai-compatible', baseUrl: probe.baseUrl, model: probe.models[0] ?? this.view.settings.model });
  }
}
