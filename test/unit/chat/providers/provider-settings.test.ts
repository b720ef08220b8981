import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../../../src-main/core/chat/providers/anthropic-provider';
import { OpenAiCompatibleProvider } from '../../../../src-main/core/chat/providers/openai-provider';
import {
  baseUrlProblem,
  ChatSettingsStore,
  chatSettingsFile,
  createProvider,
  DEFAULT_CHAT_SETTINGS,
  probeLocalModel,
  settingsView,
} from '../../../../src-main/core/chat/providers/provider-settings';
import { KeytarVault } from '../../../../src-main/core/secrets/keytar-vault';
import { startFakeLlmServer, type FakeLlmServer } from '../../../fixtures/llm/fake-llm-server';
import { tempHome } from '../../../integration/chat/chat-test-kit';

const hasKeychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
const skipReason = hasKeychain ? '' : ' [skipped: SWITCHBOARD_TEST_KEYCHAIN is unset; run under bash test/with-keychain.sh]';
const service = `Switchboard-test-${randomBytes(4).toString('hex')}`;

/** A port nothing listens on: bind, note it, close. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

let llm: FakeLlmServer;
let home: { home: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  llm = await startFakeLlmServer();
});
afterAll(async () => {
  await llm.close();
});
beforeEach(async () => {
  home = await tempHome();
});
afterEach(async () => {
  await home.cleanup();
});

describe('baseUrlProblem', () => {
  it.each([
    ['', undefined],
    ['https://api.openai.com/v1', undefined],
    ['http://127.0.0.1:11434/v1', undefined],
    ['http://localhost:1234/v1', undefined],
    ['http://10.0.0.5:8000/v1', 'base URL "http://10.0.0.5:8000/v1" uses plain http to another computer; use https so the API key is not sent in the clear'],
    ['ftp://example.com/', 'base URL "ftp://example.com/" must use https (or http to this computer)'],
    ['not a url', 'base URL "not a url" cannot be parsed'],
    ['https://u:p@example.com/v1', 'base URL "https://u:p@example.com/v1" carries a user name or password; put the key in the keychain instead'],
  ])('%j -> %s', (url, problem) => {
    expect(baseUrlProblem(url)).toBe(problem);
  });
});

describe('ChatSettingsStore', () => {
  it('starts from defaults, saves, and reads back after a restart', async () => {
    const store = new ChatSettingsStore(chatSettingsFile(home.home));
    await store.load();
    expect(store.get()).toEqual(DEFAULT_CHAT_SETTINGS);
    const next = { provider: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2', autoAllowReadOnly: true, rules: [{ pattern: 'github__*', effect: 'allow' as const }] };
    await store.set(next);
    const restarted = new ChatSettingsStore(chatSettingsFile(home.home));
    await restarted.load();
    expect(restarted.get()).toEqual(next);
  });

  it('refuses a bad base URL with the exact reason and keeps what was saved', async () => {
    const store = new ChatSettingsStore(chatSettingsFile(home.home));
    await store.set({ ...DEFAULT_CHAT_SETTINGS, model: 'kept' });
    const before = await readFile(chatSettingsFile(home.home), 'utf8');
    await expect(store.set({ ...DEFAULT_CHAT_SETTINGS, baseUrl: 'javascript:alert(1)' })).rejects.toThrow('base URL "javascript:alert(1)" must use https (or http to this computer)');
    expect(store.get().model).toBe('kept');
    expect(await readFile(chatSettingsFile(home.home), 'utf8')).toBe(before);
  });
});

describe('probeLocalModel', () => {
  it('lists the models of an OpenAI-compatible server that answers', async () => {
    expect(await probeLocalModel(llm.openAiBaseUrl)).toEqual({ baseUrl: llm.openAiBaseUrl, reachable: true, models: ['fake-model-small', 'fake-model-large'] });
  });
  it('says nothing answers, and why, when the port is closed', async () => {
    const url = await closedPortUrl();
    const probe = await probeLocalModel(url);
    expect(probe).toMatchObject({ baseUrl: url, reachable: false });
    expect(probe.reachable === false && probe.reason).toBe(`Connection error. (connect ECONNREFUSED ${url.slice('http://'.length, -'/v1'.length)})`);
  });
});

describe('createProvider without a key for a local OpenAI-compatible server', () => {
  it('needs no key for a loopback base URL, with or without a keychain', async () => {
    const provider = await createProvider({ ...DEFAULT_CHAT_SETTINGS, provider: 'openai-compatible', baseUrl: llm.openAiBaseUrl, model: 'fake-model-small' }, new KeytarVault(service));
    expect(provider).toBeInstanceOf(OpenAiCompatibleProvider);
    expect(provider.label).toBe(`fake-model-small at ${llm.openAiBaseUrl}`);
  });
});

describe.skipIf(!hasKeychain)(`provider keys in the real OS keychain${skipReason}`, () => {
  const vault = new KeytarVault(service);
  afterAll(async () => {
    for (const name of await vault.list()) await vault.delete(name);
  });

  it('with no key, says which secret to set and whether the local default answers', async () => {
    const expected = `no API key for Anthropic: open Model settings (the button at the top of Chat) and store the key there (it goes to the OS keychain as "anthropic-api-key"), or use a local OpenAI-compatible server such as Ollama at http://127.0.0.1:11434/v1; probed just now: ${llm.openAiBaseUrl} answers (models: fake-model-small, fake-model-large); choose "openai-compatible" with that base URL to use it`;
    await expect(createProvider(DEFAULT_CHAT_SETTINGS, vault, llm.openAiBaseUrl)).rejects.toThrow(expected);
    const closed = await closedPortUrl();
    await expect(createProvider(DEFAULT_CHAT_SETTINGS, vault, closed)).rejects.toThrow(`; probed just now: nothing answers at ${closed} (Connection error.`);
    expect(await settingsView(DEFAULT_CHAT_SETTINGS, vault)).toEqual({
      settings: DEFAULT_CHAT_SETTINGS,
      apiKeyName: 'anthropic-api-key',
      apiKeyConfigured: false,
      providers: {
        anthropic: { defaultModel: 'claude-sonnet-4-5', apiKeyName: 'anthropic-api-key', apiKeyConfigured: false },
        'openai-compatible': { defaultModel: 'gpt-4.1-mini', apiKeyName: 'openai-api-key', apiKeyConfigured: false },
      },
      setupHint: 'no API key for Anthropic: open Model settings (the button at the top of Chat) and store the key there (it goes to the OS keychain as "anthropic-api-key"), or use a local OpenAI-compatible server such as Ollama at http://127.0.0.1:11434/v1',
    });
  });

  it('reads the key from the keychain and sends it to the provider', async () => {
    await vault.set('anthropic-api-key', 'sk-ant-from-keychain');
    const provider = await createProvider({ ...DEFAULT_CHAT_SETTINGS, baseUrl: llm.url, model: 'fake-model' }, vault);
    expect(provider).toBeInstanceOf(AnthropicProvider);
    llm.script({ text: 'hi' });
    for await (const _event of provider.streamTurn({ messages: [{ role: 'user', text: 'hello', at: 1 }], tools: [], signal: new AbortController().signal })) {
      // drain
    }
    const sent = llm.requests.at(-1)!.headers;
    expect(sent.authorization ?? sent['x-api-key']).toMatch(/^(Bearer )?sk-ant-from-keychain$/);
    expect((await settingsView(DEFAULT_CHAT_SETTINGS, vault)).apiKeyConfigured).toBe(true);
  });
});

describe.skipIf(hasKeychain)('provider keys with no OS keychain', () => {
  it('refuses with the keychain error instead of falling back to plain text', async () => {
    await expect(createProvider(DEFAULT_CHAT_SETTINGS, new KeytarVault(service))).rejects.toThrow(/^the OS keychain is not available/);
    expect((await settingsView(DEFAULT_CHAT_SETTINGS, new KeytarVault(service))).setupHint).toMatch(/^the OS keychain is not available/);
  });
});
