/**
 * Call traces: the timeline of one tool call — asked, approved (by whom), sent (to which process or
 * session), progress, answered or failed — kept in memory for the tool card and the server's Logs.
 * A trace never holds argument or result content, only sizes: arguments may carry secrets.
 */
import { z } from 'zod';
import { out, serverName, type ErrorCode, type FailureClass } from './common';
import { conversationId } from './chat';
import type { CallOrigin } from './tools';
import type { TransportKind } from './servers';

/** Where a call went: the server process (stdio) or the remote endpoint and session, and which connection of it (its sequence number). */
export interface CallRoute {
  transport: TransportKind;
  /** Counts this server's connections: a different number from an earlier call means it reconnected in between. */
  connection: number;
  /** The server process, for a stdio server. */
  pid?: number;
  /** The remote endpoint without query or user info (those may hold secrets). */
  url?: string;
  /** The first hex digits of a hash of the HTTP session id: tells sessions apart without showing the id (SECURITY S3). */
  session?: string;
}

/** One step of a call; `at` is milliseconds since the call was asked. */
export type TraceStep =
  | { kind: 'asked'; at: number; origin: CallOrigin; argsBytes: number }
  | { kind: 'refused'; at: number; code: ErrorCode; class?: FailureClass }
  | { kind: 'approved'; at: number; by: 'user' | 'policy'; because: string }
  | { kind: 'denied'; at: number; by: 'user' | 'policy'; because: string }
  | { kind: 'sent'; at: number; route: CallRoute }
  | { kind: 'progress'; at: number; progress: number; total?: number }
  | { kind: 'answered'; at: number; resultBytes: number; parts: number; isError: boolean; class?: FailureClass }
  | { kind: 'failed'; at: number; code: ErrorCode; class?: FailureClass }
  | { kind: 'cancelled'; at: number; stage: 'approval' | 'running' };

export type TraceOutcome = 'done' | 'failed' | 'denied' | 'cancelled' | 'refused';

export interface CallTrace {
  id: string;
  /** Absent only when the tool named could not be found on any server. */
  server?: string;
  tool: string;
  origin: CallOrigin;
  conversationId?: string;
  callId?: string;
  /** Epoch ms when it was asked. */
  startedAt: number;
  /** Absent while the call is still under way. */
  outcome?: TraceOutcome;
  durationMs?: number;
  steps: TraceStep[];
  /** Progress notifications past the trace's limit, counted but not kept. */
  droppedSteps: number;
}

const callId = z.string().min(1).max(200);

export const traceInvokes = {
  /** The trace of one chat tool call, or null once it fell out of memory (traces are not stored). */
  callTrace: { input: z.object({ conversationId, callId }).strict(), output: out<CallTrace | null>() },
  /** A server's recent calls, newest first. */
  serverCallTraces: { input: z.object({ name: serverName }).strict(), output: out<CallTrace[]>() },
} as const;
