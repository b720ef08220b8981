import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { ChatSettings, ChatSettingsView, LocalProbe, ProviderKind } from '../../../../src-preload/contract/chat';
import { AppFailure } from '../../app-error';
import { isLoopbackHost, transportOf } from '../../url-policy';
import { systemClock, type Clock, type Logger, type SecretVault } from '../../ports';
import { readJsonFile, writeFileAtomic } from '../../config/atomic-file';
import { ApprovalSettingsStore, approvalSettingsFile } from '../../approvals/approval-settings';
import type { ChatProvider } from './chat-provider';

/** Ollama's OpenAI-compatible endpoint: the local default offered when no key is set. */
export const LOCAL_OPENAI_COMPATIBLE_URL = 'http://127.0.0.1:11434/v1';
export const OPENAI_DEFAULT_URL = 'https://api.openai.com/v1';

export const DEFAULT_CHAT_SETTINGS: ChatSettings = {
  provider: 'anthropic',
  baseUrl: '',
  model: 'claude-sonnet-4-5',
  autoAllowReadOnly: false,
  rules: [],
};

/** The model a provider starts with when the person picks it (the form shows it at once, before saving). */
export const DEFAULT_MODEL: Record<ProviderKind, string> = { anthropic: DEFAULT_CHAT_SETTINGS.model, 'openai-compatible': 'gpt-4.1-mini' };

const PROVIDERS: ProviderKind[] = ['anthropic', 'openai-compatible'];

/** The provider's part; the approval fields are the ApprovalSettingsStore's (an older file still holds them: ignored here). */
const settingsSchema = z.object({
  provider: z.enum(['anthropic', 'openai-compatible']),
  baseUrl: z.string(),
  model: z.string().min(1),
  imageInput: z.boolean().optional(),
});
type ProviderSettings = z.infer<typeof settingsSchema>;

export const chatSettingsFile = (home: string): string => join(home, 'chat-settings.json');

/** Keychain secret each provider reads its API key from (SECURITY S1: never in settings files). */
export function apiKeyName(provider: ProviderKind): string {
  switch (provider) {
    case 'anthropic':
      return 'anthropic-api-key';
    case 'openai-compatible':
      return 'openai-api-key';
    default:
      return provider satisfies never;
  }
}

const providerTitle = (provider: ProviderKind) => (provider === 'anthropic' ? 'Anthropic' : 'the OpenAI-compatible endpoint');

const isLoopbackUrl = (raw: string): boolean => URL.canParse(raw) && isLoopbackHost(new URL(raw).hostname);

/** Checks a base URL; empty means the provider's default. Returns the message naming the fault, or undefined. */
export function baseUrlProblem(raw: string): string | undefined {
  if (raw === '') return undefined;
  if (!URL.canParse(raw)) return `base URL "${raw}" cannot be parsed`;
  const url = new URL(raw);
  const transport = transportOf(url);
  if (transport === 'other-scheme') return `base URL "${raw}" must use https (or http to this computer)`;
  if (transport === 'plain-http') return `base URL "${raw}" uses plain http to another computer; use https so the API key is not sent in the clear`;
  if (url.username || url.password) return `base URL "${raw}" carries a user name or password; put the key in the keychain instead`;
  return undefined;
}

/**
 * The chat's settings form as one object: the provider's part kept in chat-settings.json, the
 * approval rules and read-only switch in the approval settings (their owner; the broker reads them there).
 */
export class ChatSettingsStore {
  private current: ProviderSettings = providerPart(DEFAULT_CHAT_SETTINGS);
  private readonly approvals: ApprovalSettingsStore;

  constructor(
    private readonly file: string,
    private readonly logger?: Logger,
    clock: Clock = systemClock,
    approvals?: ApprovalSettingsStore,
  ) {
    this.approvals = approvals ?? new ApprovalSettingsStore(approvalSettingsFile(dirname(file)), { earlierFile: file, ...(logger ? { logger } : {}), clock });
  }

  async load(): Promise<void> {
    const [read] = await Promise.all([readJsonFile(this.file, settingsSchema), this.approvals.load()]);
    if (read.kind === 'ok') this.current = read.value;
    else if (read.kind === 'invalid') this.logger?.warn(`ignoring unreadable chat settings ${this.file}; using defaults`, { error: read.error });
  }

  get(): ChatSettings {
    return { ...structuredClone(this.current), ...this.approvals.get() };
  }

  async set(next: ChatSettings): Promise<void> {
    const problem = baseUrlProblem(next.baseUrl);
    if (problem) throw new AppFailure('invalid_input', problem);
    const provider = providerPart(next);
    await this.approvals.set({ autoAllowReadOnly: next.autoAllowReadOnly, rules: next.rules });
    await writeFileAtomic(this.file, JSON.stringify(provider, null, 2));
    this.current = provider;
  }
}

function providerPart(settings: ChatSettings): ProviderSettings {
  return { provider: settings.provider, baseUrl: settings.baseUrl, model: settings.model, ...(settings.imageInput !== undefined ? { imageInput: settings.imageInput } : {}) };
}

export function effectiveBaseUrl(settings: ChatSettings): string {
  if (settings.baseUrl) return settings.baseUrl;
  return settings.provider === 'openai-compatible' ? OPENAI_DEFAULT_URL : '';
}

/** A key is optional only for an OpenAI-compatible server on this computer (Ollama, LM Studio). */
const keyOptional = (settings: ChatSettings) => settings.provider === 'openai-compatible' && isLoopbackUrl(effectiveBaseUrl(settings));

export async function settingsView(settings: ChatSettings, vault: SecretVault): Promise<ChatSettingsView> {
  let keychainProblem: string | undefined;
  const stored = async (provider: ProviderKind): Promise<boolean> => {
    try {
      return (await vault.get(apiKeyName(provider))) !== undefined;
    } catch (error) {
      keychainProblem ??= error instanceof Error ? error.message : String(error);
      return false;
    }
  };
  const configured = Object.fromEntries(await Promise.all(PROVIDERS.map(async (p) => [p, await stored(p)] as const))) as Record<ProviderKind, boolean>;
  const providers = Object.fromEntries(PROVIDERS.map((p) => [p, { defaultModel: DEFAULT_MODEL[p], apiKeyName: apiKeyName(p), apiKeyConfigured: configured[p] }])) as ChatSettingsView['providers'];
  const view: ChatSettingsView = { settings, apiKeyName: apiKeyName(settings.provider), apiKeyConfigured: configured[settings.provider], providers };
  if (!view.apiKeyConfigured && !keyOptional(settings)) view.setupHint = keychainProblem ?? missingKeyHint(settings.provider);
  return view;
}

function missingKeyHint(provider: ProviderKind): string {
  // The model settings are a panel inside Chat, opened by its "Model settings" button (there is no Settings → Model).
  return `no API key for ${providerTitle(provider)}: open Model settings (the button at the top of Chat) and store the key there (it goes to the OS keychain as "${apiKeyName(provider)}"), or use a local OpenAI-compatible server such as Ollama at ${LOCAL_OPENAI_COMPATIBLE_URL}`;
}

/** Asks an OpenAI-compatible endpoint for its models; says whether it answers and why not. */
export async function probeLocalModel(baseUrl = LOCAL_OPENAI_COMPATIBLE_URL): Promise<LocalProbe> {
  // The provider SDKs load on first use, not at start (main-process memory).
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({ apiKey: 'local', baseURL: baseUrl, maxRetries: 0, timeout: 3000 });
  try {
    const models: string[] = [];
    for await (const model of client.models.list()) models.push(model.id);
    return { baseUrl, reachable: true, models };
  } catch (error) {
    return { baseUrl, reachable: false, reason: describeError(error) };
  }
}

/** The error's message plus its deepest cause ("connect ECONNREFUSED …"), which says what actually happened. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let root: Error = error;
  while (root.cause instanceof Error) root = root.cause;
  return root === error ? error.message : `${error.message} (${root.message})`;
}

function describeProbe(probe: LocalProbe): string {
  return probe.reachable
    ? `${probe.baseUrl} answers (models: ${probe.models.join(', ') || 'none listed'}); choose "openai-compatible" with that base URL to use it`
    : `nothing answers at ${probe.baseUrl} (${probe.reason})`;
}

/**
 * The provider the settings describe, with its key from the keychain. With no key, the error says
 * which secret to set and reports whether the local default answers.
 */
export async function createProvider(settings: ChatSettings, vault: SecretVault, probeUrl = LOCAL_OPENAI_COMPATIBLE_URL): Promise<ChatProvider> {
  const problem = baseUrlProblem(settings.baseUrl);
  if (problem) throw new AppFailure('invalid_input', problem);
  const optional = keyOptional(settings);
  let key: string | undefined;
  try {
    key = await vault.get(apiKeyName(settings.provider));
  } catch (error) {
    if (!optional) throw error;
  }
  if (!key && !optional) {
    throw new AppFailure('unavailable', `${missingKeyHint(settings.provider)}; probed just now: ${describeProbe(await probeLocalModel(probeUrl))}`);
  }
  switch (settings.provider) {
    case 'anthropic': {
      const { AnthropicProvider } = await import('./anthropic-provider');
      return new AnthropicProvider({ apiKey: key!, model: settings.model, baseUrl: settings.baseUrl });
    }
    case 'openai-compatible': {
      const { OpenAiCompatibleProvider } = await import('./openai-provider');
      return new OpenAiCompatibleProvider({ apiKey: key ?? 'local', model: settings.model, baseUrl: effectiveBaseUrl(settings), imageInput: settings.imageInput ?? true });
    }
    default:
      return settings.provider satisfies never;
  }
}
