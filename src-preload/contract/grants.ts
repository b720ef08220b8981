/** The "always allow" grants: listed with when each was given, and revoked one by one. */
import { z } from 'zod';
import { empty, out, serverName } from './common';

export type GrantView =
  /** "Always allow this tool". */
  | { kind: 'tool'; server: string; tool: string; grantedAt?: number }
  /** "Always allow this server": the tools it vouched for (a new one still asks). */
  | { kind: 'server'; server: string; tools: string[]; grantedAt?: number }
  /** A glob rule with effect allow, from the chat settings. */
  | { kind: 'rule'; pattern: string; grantedAt?: number };

const toolName = z.string().min(1, 'tool name is empty').max(200, 'tool name is over 200 characters');

export const grantInvokes = {
  listGrants: { input: empty, output: out<GrantView[]>() },
  /** Takes effect on the next call: the policy reads grants and rules on every call. */
  revokeGrant: {
    input: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('tool'), server: serverName, tool: toolName }).strict(),
      z.object({ kind: z.literal('server'), server: serverName }).strict(),
      z.object({ kind: z.literal('rule'), pattern: z.string().min(1).max(200) }).strict(),
    ]),
    output: out<GrantView[]>(),
  },
} as const;
