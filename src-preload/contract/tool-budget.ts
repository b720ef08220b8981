/** The tool budget: schema tokens per tool and server, the threshold, pins, and tools on demand. */
import { z } from 'zod';
import { out, serverName } from './common';

/**
 * How the chat offers tools to the model. `auto`: every enabled tool while the catalog fits the
 * budget, tools on demand once it does not; `on_demand`: always on demand; `all`: always every tool.
 */
export type ToolLoadingMode = 'auto' | 'on_demand' | 'all';

export interface ToolBudget {
  /** Schema tokens of the enabled catalog above which `auto` switches to tools on demand. */
  threshold: number;
  mode: ToolLoadingMode;
}

/** About 5% of a 200K-token context window; Anthropic suggests tool search from roughly 10K tokens of tools. */
export const DEFAULT_TOOL_BUDGET: ToolBudget = { threshold: 10_000, mode: 'auto' };

/** The budget as the servers view shows it, sent with every servers snapshot. */
export interface ToolBudgetView extends ToolBudget {
  /** Schema tokens of every enabled tool the model may see (what "all tools" sends each turn). */
  enabledTokens: number;
  enabledTools: number;
  /** Tools always loaded (pinned by tool or by server), and their tokens. */
  pinnedTools: number;
  pinnedTokens: number;
  overBudget: boolean;
  /** What the chat does now: every tool, or pinned tools plus the search tool. */
  onDemand: boolean;
  /** The tokenizer the figures come from, e.g. "o200k_base (gpt-tokenizer)". */
  tokenizer: string;
  /** Tools just arrived are being counted: until then their figures are estimates. */
  counting: boolean;
}

const toolName = z.string().min(1).max(200);

export const toolBudgetInvokes = {
  setToolBudget: {
    input: z
      .object({
        threshold: z.number().int('the threshold must be a whole number of tokens').min(100, 'the threshold is under 100 tokens').max(2_000_000, 'the threshold is over 2,000,000 tokens'),
        mode: z.enum(['auto', 'on_demand', 'all']),
      })
      .strict(),
    output: out<null>(),
  },
  setToolPinned: { input: z.object({ qualifiedName: toolName, pinned: z.boolean() }).strict(), output: out<null>() },
  setServerPinned: { input: z.object({ name: serverName, pinned: z.boolean() }).strict(), output: out<null>() },
} as const;
