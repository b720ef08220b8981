import { describe, expect, it } from 'vitest';
import type { ToolBudgetView } from '../../../src-preload/contract';
import { loadingSentence, overBudgetWarning, tokensText } from '../../../src-renderer/lib/servers/tool-budget';

const view = (extra: Partial<ToolBudgetView>): ToolBudgetView => ({
  threshold: 10_000,
  mode: 'auto',
  enabledTokens: 4_000,
  enabledTools: 30,
  pinnedTools: 0,
  pinnedTokens: 0,
  overBudget: false,
  onDemand: false,
  tokenizer: 'o200k_base (gpt-tokenizer)',
  counting: false,
  ...extra,
});

describe('the tool budget texts', () => {
  it('counts tokens in words', () => {
    expect(tokensText(1)).toBe('1 token');
    expect(tokensText(12_345)).toBe('12,345 tokens');
  });

  it('warns only over the budget, saying what the chat does', () => {
    expect(overBudgetWarning(view({}))).toBeUndefined();
    expect(loadingSentence(view({}))).toBe('The chat sends all 30 enabled tools on every turn.');
    expect(loadingSentence(view({ enabledTools: 1 }))).toBe('The chat sends its one enabled tool on every turn.');
    expect(overBudgetWarning(view({ enabledTokens: 25_000, overBudget: true, onDemand: true, pinnedTools: 2, pinnedTokens: 300 }))).toBe(
      'The enabled tools take 25,000 tokens, over your budget of 10,000 tokens. The chat sends 2 always-loaded tools (300 tokens) and a search tool; the model loads the others when it needs them.',
    );
    expect(overBudgetWarning(view({ enabledTokens: 25_000, overBudget: true, mode: 'all' }))).toBe(
      'The enabled tools take 25,000 tokens, over your budget of 10,000 tokens. Every turn still sends them all: choose "On demand when over the budget" to load tools on demand, or turn some tools off.',
    );
  });
});
