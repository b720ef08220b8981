import { describe, expect, it } from 'vitest';
import type { PromptView } from '../../../src-preload/contract';
import { commandOf, matchPrompts, promptArguments, promptText } from '../../../src-renderer/lib/chat/slash-commands';

const prompts: PromptView[] = [
  { server: 'everything', name: 'simple-prompt', arguments: [] },
  { server: 'everything', name: 'args-prompt', arguments: [{ name: 'city', required: true }, { name: 'state', required: false }] },
  { server: 'notes', name: 'summarize', arguments: [] },
];

describe('matchPrompts', () => {
  it('lists prompts whose command contains what was typed after the slash', () => {
    expect(matchPrompts('/', prompts).map(commandOf)).toEqual(['/everything:simple-prompt', '/everything:args-prompt', '/notes:summarize']);
    expect(matchPrompts('/ARGS', prompts).map(commandOf)).toEqual(['/everything:args-prompt']);
    expect(matchPrompts('/notes:', prompts).map(commandOf)).toEqual(['/notes:summarize']);
  });

  it('stays quiet for ordinary messages and once a space was typed', () => {
    expect(matchPrompts('hello /x', prompts)).toEqual([]);
    expect(matchPrompts('/everything hi', prompts)).toEqual([]);
  });
});

describe('promptArguments', () => {
  it('names the missing required arguments and drops empty optional ones', () => {
    expect(promptArguments(prompts[1]!, { state: ' ' })).toEqual({ ok: false, error: '/everything:args-prompt needs "city"' });
    expect(promptArguments(prompts[1]!, { city: 'Paris', state: '' })).toEqual({ ok: true, args: { city: 'Paris' } });
  });
});

describe('promptText', () => {
  it('uses a lone user message as is and labels several by role', () => {
    expect(promptText({ messages: [{ role: 'user', text: 'Say hi' }] })).toBe('Say hi');
    expect(promptText({ messages: [{ role: 'user', text: 'Q' }, { role: 'assistant', text: 'A' }, { role: 'user', text: '' }] })).toBe('User: Q\n\nAssistant: A');
  });
});
