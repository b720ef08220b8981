import type { ToolBudgetView, ToolLoadingMode } from '../../../src-preload/contract';
import { countText } from '../numbers';

/** 12345 -> "12,345 tokens"; 1 -> "1 token". */
export function tokensText(count: number): string {
  return `${countText(count)} ${count === 1 ? 'token' : 'tokens'}`;
}

export const modeLabels: Record<ToolLoadingMode, string> = {
  auto: 'On demand when over the budget',
  on_demand: 'Always on demand',
  all: 'Always every tool',
};

/** What the chat does with the tools now, in one sentence. */
export function loadingSentence(view: ToolBudgetView): string {
  // One wording for one setting: the rows' and the tools panel's "always loaded" (issue 23 item 10).
  const pinned =
    view.pinnedTools === 0 ? 'no always-loaded tools' : `${view.pinnedTools} always-loaded ${view.pinnedTools === 1 ? 'tool' : 'tools'} (${tokensText(view.pinnedTokens)})`;
  if (view.onDemand) return `The chat sends ${pinned} and a search tool; the model loads the others when it needs them.`;
  if (view.enabledTools === 1) return 'The chat sends its one enabled tool on every turn.';
  return `The chat sends all ${view.enabledTools} enabled tools on every turn.`;
}

/** The warning when the enabled catalog passes the budget; none under it. */
export function overBudgetWarning(view: ToolBudgetView): string | undefined {
  if (!view.overBudget) return undefined;
  const over = `The enabled tools take ${tokensText(view.enabledTokens)}, over your budget of ${tokensText(view.threshold)}.`;
  return view.mode === 'all' ? `${over} Every turn still sends them all: choose "${modeLabels.auto}" to load tools on demand, or turn some tools off.` : `${over} ${loadingSentence(view)}`;
}
