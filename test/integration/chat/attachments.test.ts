/**
 * Attachments through the real core: an image uploaded in chunks and a resource of server-everything
 * (read by main over stdio) reach the fake OpenAI-compatible endpoint as content parts, are kept in
 * the stored conversation, and bad ones are refused with the exact reason before anything is sent.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src-main/core/dispatch';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { IMAGE_CHUNK_BYTES, type Conversation, type InvokeName, type Result } from '../../../src-preload/contract';
import { startFakeLlmServer, type FakeLlmServer } from '../../fixtures/llm/fake-llm-server';
import { EVERYTHING, is, quietLogger, tempHome, waitForState } from '../mcp/helpers';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const FEATURES = 'demo://resource/static/document/features.md';

let core: SwitchboardCore;
let llm: FakeLlmServer;
let home: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
  llm = await startFakeLlmServer();
  await writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
  core = new SwitchboardCore({ home, vault: new MemoryVault(), opener: { open: async () => {} }, logger: quietLogger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
  await core.start();
  await waitForState(core.mcp, 'everything', is('connected'));
  const view = await core.handlers.getChatSettings({});
  await core.handlers.setChatSettings({ ...view.settings, provider: 'openai-compatible', baseUrl: llm.openAiBaseUrl, model: 'fake-model-small' });
});
afterEach(async () => {
  await core.stop();
  await llm.close();
  await cleanup();
});

const invoke = (name: InvokeName, payload: unknown): Promise<Result<unknown>> => dispatch(core.handlers, name, payload);

async function upload(bytes: Buffer): Promise<string> {
  const begun = (await invoke('beginImageUpload', { size: bytes.length })) as Result<{ upload: string }>;
  if (!begun.ok) throw new Error(begun.error.message);
  for (let offset = 0; offset < bytes.length; offset += IMAGE_CHUNK_BYTES) {
    const sent = await invoke('appendImageUpload', { upload: begun.value.upload, offset, data: bytes.subarray(offset, offset + IMAGE_CHUNK_BYTES).toString('base64') });
    if (!sent.ok) throw new Error(sent.error.message);
  }
  return begun.value.upload;
}

async function turnDone(conversationId: string): Promise<Conversation> {
  for (let i = 0; i < 500 && core.chat.sessions.isRunning(conversationId); i++) await new Promise((d) => setTimeout(d, 20));
  return core.handlers.getConversation({ id: conversationId });
}

describe('attachments in a message', () => {
  it('sends an uploaded image and a server resource as content parts, and keeps them in the stored conversation', async () => {
    llm.script({ text: 'I see a dot and a features list.' });
    const image = await upload(PNG);
    const sent = (await invoke('sendMessage', {
      text: 'What are these?',
      attachments: [
        { kind: 'image', upload: image, name: 'dot.png', mimeType: 'image/png' },
        { kind: 'resource', server: 'everything', uri: FEATURES },
      ],
    })) as Result<{ conversationId: string }>;
    expect(sent.ok).toBe(true);
    const conversation = await turnDone(sent.ok ? sent.value.conversationId : '');

    const parts = llm.requests[0]!.body.messages.find((m: { role: string }) => m.role === 'user').content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts.map((p) => p.type)).toEqual(['text', 'text', 'image_url', 'text']);
    expect(parts[2]!.image_url!.url).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    const features = (await core.mcp.readResource('everything', FEATURES)).contents[0] as { text: string };
    expect(parts[3]!.text).toBe(`Attached resource ${FEATURES} from server "everything" (text/markdown):\n${features.text}`);

    expect(conversation.messages[0]).toMatchObject({
      role: 'user',
      text: 'What are these?',
      attachments: [
        { kind: 'image', name: 'dot.png', mimeType: 'image/png', data: PNG.toString('base64') },
        { kind: 'resource', server: 'everything', uri: FEATURES, name: 'features.md', mimeType: 'text/markdown', text: features.text },
      ],
    });
    // The upload is gone once it is in the message.
    expect(await invoke('discardImageUpload', { upload: image })).toEqual({ ok: true, value: null });
    expect(() => core.chat.imageUploads.pathOf(image)).toThrow(`no image upload ${image} (it was attached, discarded, or Switchboard restarted)`);
  });

  it('refuses an image whose bytes are not the type it claims, and sends nothing', async () => {
    const image = await upload(Buffer.from('GIF89a not really a png'));
    const sent = await invoke('sendMessage', { text: 'look', attachments: [{ kind: 'image', upload: image, name: 'fake.png', mimeType: 'image/png' }] });
    expect(sent).toEqual({ ok: false, error: { code: 'invalid_input', message: '"fake.png" says it is image/png but its bytes are image/gif' } });
    expect(llm.requests).toEqual([]);
    expect(await core.handlers.listConversations({})).toEqual([]);
  });

  it('refuses a type providers do not take, an image over the limit, and more than five attachments, with the exact reason', async () => {
    const tiff = await invoke('sendMessage', { text: 'x', attachments: [{ kind: 'image', upload: '0'.repeat(32), name: 'a.tiff', mimeType: 'image/tiff' }] });
    expect(tiff).toEqual({ ok: false, error: { code: 'invalid_input', message: 'sendMessage: invalid payload at "attachments.0.mimeType": images must be image/png, image/jpeg, image/gif, image/webp' } });
    const big = await invoke('beginImageUpload', { size: 4 * 1024 * 1024 });
    expect(big).toEqual({ ok: false, error: { code: 'invalid_input', message: 'the image is 4.0 MiB; images of at most 3.75 MiB can be attached' } });
    const six = Array.from({ length: 6 }, () => ({ kind: 'resource', server: 'everything', uri: FEATURES }));
    expect(await invoke('sendMessage', { text: 'x', attachments: six })).toEqual({ ok: false, error: { code: 'invalid_input', message: 'sendMessage: invalid payload at "attachments": at most 5 attachments per message' } });
    expect(await invoke('sendMessage', { text: '  ' })).toEqual({ ok: false, error: { code: 'invalid_input', message: 'sendMessage: invalid payload: the message is empty' } });
    expect(llm.requests).toEqual([]);
  });

  it('refuses an image for a model set as text-only, naming the provider, before any request and without saving', async () => {
    const view = await core.handlers.getChatSettings({});
    await core.handlers.setChatSettings({ ...view.settings, imageInput: false });
    const image = await upload(PNG);
    const sent = await invoke('sendMessage', { text: 'look', attachments: [{ kind: 'image', upload: image, name: 'dot.png', mimeType: 'image/png' }] });
    expect(sent).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: `fake-model-small at ${llm.openAiBaseUrl} takes text only (Chat settings: "the model accepts images" is off), so "dot.png" was not sent; remove the image or choose a model that takes images` },
    });
    expect(llm.requests).toEqual([]);
    expect(await core.handlers.listConversations({})).toEqual([]);
    // A resource is text: the same model still takes it.
    llm.script({ text: 'ok' });
    const text = (await invoke('sendMessage', { text: 'read this', attachments: [{ kind: 'resource', server: 'everything', uri: FEATURES }] })) as Result<{ conversationId: string }>;
    expect(text.ok).toBe(true);
  });

  it('names the resource that cannot be read', async () => {
    const sent = await invoke('sendMessage', { text: 'x', attachments: [{ kind: 'resource', server: 'everything', uri: 'demo://resource/nowhere' }] });
    expect(sent.ok).toBe(false);
    expect(sent.ok ? '' : sent.error.message).toMatch(/demo:\/\/resource\/nowhere/);
    expect(llm.requests).toEqual([]);
  });
});

describe('stored conversations', () => {
  it('reads a conversation saved before attachments existed, and sends it as before', async () => {
    const id = 'old-conversation-1';
    await mkdir(join(home, 'conversations'), { recursive: true });
    const old = { id, title: 'Old', createdAt: 1, updatedAt: 2, messageCount: 2, messages: [{ role: 'user', text: 'hello', at: 1 }, { role: 'assistant', text: 'hi', toolCalls: [], at: 2 }] };
    await writeFile(join(home, 'conversations', `${id}.json`), JSON.stringify(old));
    llm.script({ text: 'still here' });
    const sent = (await invoke('sendMessage', { conversationId: id, text: 'again' })) as Result<{ conversationId: string }>;
    expect(sent.ok).toBe(true);
    await turnDone(id);
    expect(llm.requests[0]!.body.messages.slice(1, 4)).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
      { role: 'user', content: 'again' },
    ]);
    const stored = JSON.parse(await readFile(join(home, 'conversations', `${id}.json`), 'utf8')) as Conversation;
    expect(stored.messages[0]).toEqual({ role: 'user', text: 'hello', at: 1 });
  });
});
