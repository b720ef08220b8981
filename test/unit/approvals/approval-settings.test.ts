import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalSettingsStore, approvalSettingsFile } from '../../../src-main/core/approvals/approval-settings';
import { ChatSettingsStore, chatSettingsFile, DEFAULT_CHAT_SETTINGS } from '../../../src-main/core/chat/providers/provider-settings';
import { tempHome } from '../../integration/chat/chat-test-kit';

let home: { home: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  home = await tempHome();
});
afterEach(() => home.cleanup());

const store = () => new ApprovalSettingsStore(approvalSettingsFile(home.home), { earlierFile: chatSettingsFile(home.home), clock: { now: () => 1000 } });
const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;

describe('ApprovalSettingsStore', () => {
  it('takes the rules, their dates and the read-only switch from chat-settings.json once, when it has no file yet', async () => {
    const earlier = { ...DEFAULT_CHAT_SETTINGS, autoAllowReadOnly: true, rules: [{ pattern: 'git__*', effect: 'allow' }], ruleAddedAt: { 'allow git__*': 42 } };
    await writeFile(chatSettingsFile(home.home), JSON.stringify(earlier));
    const rules = store();
    await rules.load();
    expect(rules.get()).toEqual({ autoAllowReadOnly: true, rules: [{ pattern: 'git__*', effect: 'allow' }] });
    expect(rules.addedAt({ pattern: 'git__*', effect: 'allow' })).toBe(42);
    expect(await readJson(approvalSettingsFile(home.home))).toEqual({ autoAllowReadOnly: true, rules: [{ pattern: 'git__*', effect: 'allow' }], ruleAddedAt: { 'allow git__*': 42 } });
  });

  it('reads rules from its own file only once it has one: an allow rule written into chat-settings.json later is not obeyed', async () => {
    await store().set({ autoAllowReadOnly: false, rules: [{ pattern: '*', effect: 'ask' }] });
    await writeFile(chatSettingsFile(home.home), JSON.stringify({ ...DEFAULT_CHAT_SETTINGS, autoAllowReadOnly: true, rules: [{ pattern: '*', effect: 'allow' }] }));
    const rules = store();
    await rules.load();
    expect(rules.peek()).toEqual({ autoAllowReadOnly: false, rules: [{ pattern: '*', effect: 'ask' }] });
  });

  it('keeps an unreadable file as it is and applies no rule meanwhile', async () => {
    await writeFile(approvalSettingsFile(home.home), '{"rules": [{"pattern": "*", "effect": "allow"}');
    await writeFile(chatSettingsFile(home.home), JSON.stringify({ ...DEFAULT_CHAT_SETTINGS, rules: [{ pattern: '*', effect: 'allow' }] }));
    const warnings: string[] = [];
    const rules = new ApprovalSettingsStore(approvalSettingsFile(home.home), { earlierFile: chatSettingsFile(home.home), logger: { info() {}, warn: (m) => warnings.push(m), error() {} } });
    await rules.load();
    expect(rules.peek()).toEqual({ autoAllowReadOnly: false, rules: [] });
    expect(warnings).toEqual([`ignoring unreadable approval settings ${approvalSettingsFile(home.home)}; no rules apply until it is fixed or saved again`]);
    expect(await readFile(approvalSettingsFile(home.home), 'utf8')).toBe('{"rules": [{"pattern": "*", "effect": "allow"}');
  });

  it("the chat's settings form saves the provider in chat-settings.json and the rules here, and reads both back", async () => {
    const chat = new ChatSettingsStore(chatSettingsFile(home.home));
    await chat.load();
    const next = { ...DEFAULT_CHAT_SETTINGS, model: 'm', autoAllowReadOnly: true, rules: [{ pattern: 'fs__read_*', effect: 'allow' as const }] };
    await chat.set(next);
    expect(await readJson(chatSettingsFile(home.home))).toEqual({ provider: 'anthropic', baseUrl: '', model: 'm' });
    expect(await readJson(approvalSettingsFile(home.home))).toMatchObject({ autoAllowReadOnly: true, rules: [{ pattern: 'fs__read_*', effect: 'allow' }] });
    const restarted = new ChatSettingsStore(join(home.home, 'chat-settings.json'));
    await restarted.load();
    expect(restarted.get()).toEqual(next);
  });
});
