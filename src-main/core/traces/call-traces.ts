/**
 * Call traces, kept in memory: a ring of the last calls per server, and an index by chat call id for
 * the tool card. The ToolCaller runs every call through `record`, which hands the call path a
 * `CallRecording` to tell each step as it happens — so the chat, the tools panel, MCP Apps and the CLI
 * all get traces, from one place, without a copy of the call's request or hooks wrapped around it.
 * A trace holds sizes, never argument or result content: arguments may carry secrets.
 *
 * A call's reply goes out before its trace is completed: measuring sizes, the last step and the
 * export wait until the calls that ended in the last moment are completed together (COMPLETE_AFTER_MS,
 * or sooner once COMPLETE_AT calls wait), or until the next read, which completes them first
 * (bench/README.md, "Why the call path is shaped as it is").
 */
import type { CatalogTool, ToolRef } from '../../../src-preload/contract/tools';
import type { FailureClass } from '../../../src-preload/contract/common';
import type { CallProgress } from '../../../src-preload/contract/tasks';
import type { CallRoute, CallTrace, TraceStep } from '../../../src-preload/contract/traces';
import { diagnoseToolResult } from '../diagnosis/call-diagnosis';
import { systemClock, type Clock } from '../ports';
import type { CallOutcome, CallRecording, CallRequest } from '../mcp/call-vocabulary';

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
/** How long an ended call's trace may wait to be completed with others (unless something reads it first); short, since it holds the outcome. */
export const COMPLETE_AFTER_MS = 2;
/** So many ended calls waiting are completed on the next turn, whatever the time: what waits stays small. */
export const COMPLETE_AT = 64;
/** Progress notifications past this many steps are counted, not kept: a long task may send thousands. */
const MAX_STEPS = 100;
/** The ring for calls whose tool was found on no server. */
const NO_SERVER = '';

type WithoutAt<T> = T extends unknown ? Omit<T, 'at'> : never;
type Step = WithoutAt<TraceStep>;

/** A call that has ended and whose trace is not completed yet; it holds the outcome only until then. */
interface Ending {
  recording: Recording;
  endedAt: number;
  outcome: CallOutcome | 'threw';
}

export class CallTraces {
  private readonly rings = new Map<string, TraceRing>();
  private readonly byCall = new Map<string, CallTrace>();
  private readonly clock: Clock;
  private readonly perServer: number;
  /** Unique within this process: the renderer keys its list by it (traces are never stored). */
  private lastId = 0;
  private ending: Ending[] = [];
  /** One timer for every batch, re-armed (`refresh`) rather than made and unref'd anew: it is on every call's path. */
  private completion: NodeJS.Timeout | undefined;
  private completionArmed = false;
  /** Puts a trace in its server's ring; the oldest call falls out. */
  private readonly file = (trace: CallTrace, server: string | undefined): void => {
    const key = server ?? NO_SERVER;
    let ring = this.rings.get(key);
    if (!ring) this.rings.set(key, (ring = new TraceRing(this.perServer)));
    const dropped = ring.add(trace);
    if (dropped) this.forget(dropped);
  };

  constructor(private readonly deps: CallTracesDeps = {}) {
    this.clock = deps.clock ?? systemClock;
    this.perServer = deps.perServer ?? DEFAULT_PER_SERVER;
  }

  /** Runs one call (`run`), giving it the recording its steps go to. */
  async record(ref: ToolRef, args: Record<string, unknown>, request: CallRequest, run: (recording: CallRecording) => Promise<CallOutcome>): Promise<CallOutcome> {
    const trace: CallTrace = {
      id: String(++this.lastId),
      tool: 'qualifiedName' in ref ? ref.qualifiedName : ref.tool,
      origin: request.origin,
      startedAt: this.clock.now(),
      steps: [{ kind: 'asked', at: 0, origin: request.origin, argsBytes: byteSize(args) }],
      droppedSteps: 0,
    };
    if (request.conversationId !== undefined && request.callId !== undefined) {
      trace.conversationId = request.conversationId;
      trace.callId = request.callId;
      this.byCall.set(callKey(request.conversationId, request.callId), trace);
    }
    const recording = new Recording(trace, this.clock, this.file);
    try {
      const outcome = await run(recording);
      this.ended({ recording, endedAt: this.clock.now(), outcome });
      return outcome;
    } catch (error) {
      this.ended({ recording, endedAt: this.clock.now(), outcome: 'threw' });
      throw error;
    }
  }

  /** The trace of one chat call, while it is kept. */
  forCall(conversationId: string, callId: string): CallTrace | undefined {
    this.completeEnded();
    return this.byCall.get(callKey(conversationId, callId));
  }

  /** A server's recent calls, newest first. */
  forServer(server: string): CallTrace[] {
    this.completeEnded();
    return this.rings.get(server)?.newestFirst() ?? [];
  }

  shutdown(): Promise<void> {
    this.completeEnded();
    return this.deps.sink?.shutdown() ?? Promise.resolve();
  }

  private ended(ending: Ending): void {
    const waiting = this.ending.push(ending);
    if (waiting === COMPLETE_AT) {
      setTimeout(this.completeEnded, 0).unref();
    } else if (!this.completionArmed) {
      this.completionArmed = true;
      if (this.completion) this.completion.refresh();
      else this.completion = setTimeout(this.completeEnded, COMPLETE_AFTER_MS).unref();
    }
  }

  /** Completes the traces of calls that have ended: where each is filed, its last step with the result's size, the export. */
  private readonly completeEnded = (): void => {
    // A timer still running after an early completion (a read) finds nothing to do; the next call re-arms it.
    this.completionArmed = false;
    const ending = this.ending;
    if (ending.length === 0) return;
    this.ending = [];
    for (const { recording, endedAt, outcome } of ending) {
      const { trace } = recording;
      if (outcome === 'threw') {
        this.finish(recording, endedAt, { kind: 'failed', code: 'internal' }, 'failed');
        continue;
      }
      // Unresolved names share one ring: a ring per name asked for would let any caller grow memory.
      recording.place(outcome.tool?.server, outcome.tool?.name ?? trace.tool);
      this.finish(recording, endedAt, ...lastStep(outcome));
    }
  };

  private finish(recording: Recording, endedAt: number, last: Step, outcome: NonNullable<CallTrace['outcome']>): void {
    const { trace } = recording;
    recording.step(last, endedAt);
    trace.outcome = outcome;
    trace.durationMs = endedAt - trace.startedAt;
    this.deps.sink?.export(trace);
  }

  private forget(trace: CallTrace): void {
    if (trace.conversationId === undefined || trace.callId === undefined) return;
    const key = callKey(trace.conversationId, trace.callId);
    if (this.byCall.get(key) === trace) this.byCall.delete(key);
  }
}

/** A server's last calls: a fixed array written round, so the oldest falls out without moving the others. */
class TraceRing {
  private readonly traces: CallTrace[] = [];
  /** Where the next trace goes once the ring is full: the oldest. */
  private next = 0;

  constructor(private readonly size: number) {}

  /** Keeps `trace`; returns the oldest when it fell out to make room. */
  add(trace: CallTrace): CallTrace | undefined {
    if (this.traces.length < this.size) {
      this.traces.push(trace);
      return undefined;
    }
    const oldest = this.traces[this.next];
    this.traces[this.next] = trace;
    this.next = (this.next + 1) % this.size;
    return oldest;
  }

  newestFirst(): CallTrace[] {
    return [...this.traces.slice(0, this.next).reverse(), ...this.traces.slice(this.next).reverse()];
  }
}

class Recording implements CallRecording {
  private placed = false;

  constructor(
    readonly trace: CallTrace,
    private readonly clock: Clock,
    private readonly file: (trace: CallTrace, server: string | undefined) => void,
  ) {}

  resolved(tool: CatalogTool): void {
    this.place(tool.server, tool.name);
  }

  approved(by: 'user' | 'policy', because: string): void {
    this.step({ kind: 'approved', by, because });
  }

  sent(route: CallRoute): void {
    this.step({ kind: 'sent', route });
  }

  progress(progress: CallProgress): void {
    if (this.trace.steps.length >= MAX_STEPS) {
      this.trace.droppedSteps++;
      return;
    }
    this.step(progress.total !== undefined ? { kind: 'progress', progress: progress.progress, total: progress.total } : { kind: 'progress', progress: progress.progress });
  }

  /** Files the trace under its server once the server is known (once only). */
  place(server: string | undefined, tool: string): void {
    if (this.placed) return;
    this.placed = true;
    this.trace.tool = tool;
    if (server !== undefined) this.trace.server = server;
    this.file(this.trace, server);
  }

  /** Every step is a fresh object of this file's: it takes its time in place rather than being copied. */
  step(step: Step, now = this.clock.now()): void {
    (step as { at?: number }).at = now - this.trace.startedAt;
    this.trace.steps.push(step as TraceStep);
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
