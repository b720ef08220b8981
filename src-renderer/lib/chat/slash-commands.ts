/**
 * Server prompts as slash commands in the composer: "/server:prompt". The prompt's messages come
 * back from the server and are folded into the message text, since sendMessage carries text only.
 */
import type { PromptResultView, PromptView, ResourceContentView } from '../../../src-preload/contract';

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

export interface Attachment {
  server: string;
  uri: string;
  name: string;
  contents: ResourceContentView[];
}

/** A fence longer than any backtick run inside, so the resource's text cannot close it early. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

/** The message text with each attached resource appended as a fenced block under its URI. */
export function withAttachments(text: string, attachments: readonly Attachment[]): string {
  const blocks = attachments.map((a) => {
    const parts = a.contents.map((c) => {
      if (c.text !== undefined) {
        const f = fence(c.text);
        return `${f}${c.mimeType ?? ''}\n${c.text}\n${f}`;
      }
      return `(binary ${c.mimeType ?? 'content'}, ${c.blob?.length ?? 0} base64 characters, not included)`;
    });
    return `Attached resource ${a.uri} from server "${a.server}":\n${parts.join('\n') || '(empty)'}`;
  });
  return [text, ...blocks].filter((part) => part.trim() !== '').join('\n\n');
}
