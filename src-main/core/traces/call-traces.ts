/**
 * Call traces, kept in memory: a ring of the last calls per server, and an index by chat call id for
 * the tool card. The ToolCaller runs every call through `record`, which wraps the call's hooks to
 * note each step — so the chat, the tools panel, MCP Apps and the CLI all get traces, from one place.
 * A trace holds sizes, never argument or result content: arguments may carry secrets.
 */
import { randomUUID } from 'node:crypto';
import type { ToolRef } from '../../../src-preload/contract/tools';
import type { FailureClass } from '../../../src-preload/contract/common';
import type { CallTrace, TraceStep } from '../../../src-preload/contract/traces';
import { diagnoseToolResult } from '../diagnosis/call-diagnosis';
import { systemClock, type Clock } from '../ports';
import type { CallOutcome, CallRequest } from '../tools/tool-caller';

/** Where finished traces go besides memory (OpenTelemetry, when it is switched on). */
export interface TraceSink {
  export(trace: CallTrace): void;
  /** Sends what is still buffered; called when the app stops. */
  shutdown(): Promise<void>;
}

export interface CallTracesDeps {
  clock?: Clock;
  /** Calls kept per server (default 200). */
  perServer?: number;
  sink?: TraceSink;
}

const DEFAULT_PER_SERVER = 200;
/** Progress notifications past this many steps are counted, not kept: a long task may send thousands. */
const MAX_STEPS = 100;
/** The ring for calls whose tool was found on no server. */
const NO_SERVER = '';

type WithoutAt<T> = T extends unknown ? Omit<T, 'at'> : never;
type Step = WithoutAt<TraceStep>;

export class CallTraces {
  private readonly rings = new Map<string, CallTrace[]>();
  private readonly byCall = new Map<string, CallTrace>();
  private readonly placed = new WeakSet<CallTrace>();
  private readonly clock: Clock;
  private readonly perServer: number;

  constructor(private readonly deps: CallTracesDeps = {}) {
    this.clock = deps.clock ?? systemClock;
    this.perServer = deps.perServer ?? DEFAULT_PER_SERVER;
  }

  /** Runs one call (`run`) with its hooks wrapped, so each step it takes lands in the call's trace. */
  async record(ref: ToolRef, args: Record<string, unknown>, request: CallRequest, run: (request: CallRequest) => Promise<CallOutcome>): Promise<CallOutcome> {
    const startedAt = this.clock.now();
    const trace: CallTrace = {
      id: randomUUID(),
      tool: 'qualifiedName' in ref ? ref.qualifiedName : ref.tool,
      origin: request.origin,
      ...(request.conversationId !== undefined ? { conversationId: request.conversationId } : {}),
      ...(request.callId !== undefined ? { callId: request.callId } : {}),
      startedAt,
      steps: [{ kind: 'asked', at: 0, origin: request.origin, argsBytes: byteSize(args) }],
      droppedSteps: 0,
    };
    const step = (s: Step) => this.step(trace, s);
    this.index(trace);
    const traced: CallRequest = {
      ...request,
      onResolved: (tool) => {
        this.place(trace, tool.server, tool.name);
        request.onResolved?.(tool);
      },
      onApproved: (approved) => {
        step({ kind: 'approved', by: approved.by, because: approved.because });
        request.onApproved?.(approved);
      },
      onSent: (route) => {
        step({ kind: 'sent', route });
        request.onSent?.(route);
      },
      onProgress: (progress) => {
        step({ kind: 'progress', progress: progress.progress, ...(progress.total !== undefined ? { total: progress.total } : {}) });
        request.onProgress?.(progress);
      },
    };
    let outcome: CallOutcome;
    try {
      outcome = await run(traced);
    } catch (error) {
      this.finish(trace, { kind: 'failed', code: 'internal' }, 'failed');
      throw error;
    }
    // Unresolved names share one ring: a ring per name asked for would let any caller grow memory.
    this.place(trace, outcome.tool?.server, outcome.tool?.name ?? trace.tool);
    this.finish(trace, ...lastStep(outcome));
    return outcome;
  }

  /** The trace of one chat call, while it is kept. */
  forCall(conversationId: string, callId: string): CallTrace | undefined {
    return this.byCall.get(callKey(conversationId, callId));
  }

  /** A server's recent calls, newest first. */
  forServer(server: string): CallTrace[] {
    return [...(this.rings.get(server) ?? [])].reverse();
  }

  shutdown(): Promise<void> {
    return this.deps.sink?.shutdown() ?? Promise.resolve();
  }

  private step(trace: CallTrace, step: Step): void {
    if (step.kind === 'progress' && trace.steps.length >= MAX_STEPS) {
      trace.droppedSteps++;
      return;
    }
    // Every step is a fresh object of this file's: it takes its time in place rather than being copied on the call path.
    (step as { at?: number }).at = this.clock.now() - trace.startedAt;
    trace.steps.push(step as TraceStep);
  }

  private finish(trace: CallTrace, last: Step, outcome: NonNullable<CallTrace['outcome']>): void {
    this.step(trace, last);
    trace.outcome = outcome;
    trace.durationMs = this.clock.now() - trace.startedAt;
    this.deps.sink?.export(trace);
  }

  private index(trace: CallTrace): void {
    if (trace.conversationId !== undefined && trace.callId !== undefined) this.byCall.set(callKey(trace.conversationId, trace.callId), trace);
  }

  /** Puts the trace in its server's ring once the server is known (once only); the oldest call falls out. */
  private place(trace: CallTrace, server: string | undefined, tool: string): void {
    if (this.placed.has(trace)) return;
    this.placed.add(trace);
    trace.tool = tool;
    if (server !== undefined) trace.server = server;
    const key = server ?? NO_SERVER;
    let ring = this.rings.get(key);
    if (!ring) this.rings.set(key, (ring = []));
    ring.push(trace);
    if (ring.length > this.perServer) this.forget(ring.shift()!);
  }

  private forget(trace: CallTrace): void {
    if (trace.conversationId === undefined || trace.callId === undefined) return;
    const key = callKey(trace.conversationId, trace.callId);
    if (this.byCall.get(key) === trace) this.byCall.delete(key);
  }
}

function lastStep(outcome: CallOutcome): [Step, NonNullable<CallTrace['outcome']>] {
  switch (outcome.kind) {
    case 'refused':
      return [{ kind: 'refused', code: outcome.error.code, ...classOf(outcome.error.diagnosis) }, 'refused'];
    case 'denied':
      return [{ kind: 'denied', by: outcome.by, because: outcome.because }, 'denied'];
    case 'cancelled':
      return [{ kind: 'cancelled', stage: outcome.stage }, 'cancelled'];
    case 'failed':
      return [{ kind: 'failed', code: outcome.error.code, ...classOf(outcome.error.diagnosis) }, 'failed'];
    case 'done': {
      const { result } = outcome;
      const answered: Step = { kind: 'answered', resultBytes: byteSize({ content: result.content, structuredContent: result.structuredContent }), parts: result.content.length, isError: result.isError === true, ...classOf(diagnoseToolResult(result)) };
      return [answered, result.isError ? 'failed' : 'done'];
    }
    default:
      return outcome satisfies never;
  }
}

function classOf(diagnosis: { class: FailureClass } | undefined): { class?: FailureClass } {
  return diagnosis ? { class: diagnosis.class } : {};
}

function byteSize(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

function callKey(conversationId: string, callId: string): string {
  return `${conversationId}\0${callId}`;
}
