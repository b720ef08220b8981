/** Running one tool by hand from the tools panel: the invoke and the result it returns. */
import { z } from 'zod';
import { out, serverName } from './common';

/** One content part of a tool result as main maps it; oversized text is already capped. */
export type ToolResultPart =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'audio'; mimeType: string; data: string }
  | { type: 'resource_link'; uri: string; name: string; title?: string; description?: string; mimeType?: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blob?: string };

export interface ToolRunResult {
  /** The tool itself reported an error (its content says why); the call went through. */
  isError: boolean;
  content: ToolResultPart[];
  structuredContent?: Record<string, unknown>;
  /** Characters cut from oversized text, summed over the parts. */
  truncatedChars: number;
}

/** A result part with its resource nested the way MCP carries it (what the chat and ToolContent read). */
export type NestedResultPart =
  | Exclude<ToolResultPart, { type: 'resource' }>
  | { type: 'resource'; resource: { uri: string; mimeType?: string } & ({ text: string } | { blob: string }) };

/** Main keeps a resource flat; MCP (the chat, the providers, ToolContent) reads it nested. */
export function nestResource(part: ToolResultPart): NestedResultPart {
  if (part.type !== 'resource') return part;
  const { uri, mimeType, text, blob } = part;
  const base = { uri, ...(mimeType !== undefined ? { mimeType } : {}) };
  return { type: 'resource', resource: text !== undefined ? { ...base, text } : { ...base, blob: blob ?? '' } };
}

export const toolRunInvokes = {
  /** Runs through the same checks and approval as the chat; a denial or a refused argument is an error. */
  runTool: {
    input: z
      .object({
        server: serverName,
        /** The server's own name for the tool, not the namespaced one. */
        tool: z.string().min(1, 'tool name is empty').max(200, 'tool name is over 200 characters'),
        args: z.record(z.string(), z.unknown()),
      })
      .strict(),
    output: out<ToolRunResult>(),
  },
} as const;
