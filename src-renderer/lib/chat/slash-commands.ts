/**
 * Server prompts as slash commands in the composer: "/server:prompt". The prompt's messages come
 * back from the server and are folded into the message text, since sendMessage carries text only.
 */
import type { PromptResultView, PromptView } from '../../../src-preload/contract';

export const commandOf = (prompt: Pick<PromptView, 'server' | 'name'>): string => `/${prompt.server}:${prompt.name}`;

/** While the composer holds only "/…" (no spaces), the prompts whose command contains what was typed. */
export function matchPrompts(text: string, prompts: readonly PromptView[], limit = 8): PromptView[] {
  if (!/^\/\S*$/.test(text)) return [];
  const query = text.slice(1).toLowerCase();
  return prompts.filter((p) => commandOf(p).slice(1).toLowerCase().includes(query)).slice(0, limit);
}

/** Missing required arguments, named; empty optional ones are dropped from what is sent. */
export function promptArguments(prompt: PromptView, values: Record<string, string>): { ok: true; args: Record<string, string> } | { ok: false; error: string } {
  const args: Record<string, string> = {};
  const missing: string[] = [];
  for (const arg of prompt.arguments) {
    const value = values[arg.name] ?? '';
    if (value.trim() === '') {
      if (arg.required) missing.push(arg.name);
    } else args[arg.name] = value;
  }
  if (missing.length > 0) return { ok: false, error: `${commandOf(prompt)} needs ${missing.map((m) => `"${m}"`).join(', ')}` };
  return { ok: true, args };
}

/** One user message from a prompt's messages: a single user message as is, several labelled by role. */
export function promptText(result: PromptResultView): string {
  const messages = result.messages.filter((m) => m.text.trim() !== '');
  if (messages.length === 1 && messages[0]!.role === 'user') return messages[0]!.text;
  return messages.map((m) => `${m.role === 'user' ? 'User' : 'Assistant'}: ${m.text}`).join('\n\n');
}
