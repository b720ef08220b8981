/** A call trace as lines a person reads: "+1.5 s  approved by you — you allowed it once". Pure, so tested directly. */
import type { CallOrigin } from '../../../src-preload/contract/tools';
import type { CallRoute, CallTrace, TraceStep } from '../../../src-preload/contract/traces';
import { formatElapsed } from '../chat/chat-rows';
import { countText } from '../numbers';

export interface TraceLine {
  /** "+0 ms", "+1,532 ms": time since the call was asked. */
  offset: string;
  kind: TraceStep['kind'];
  text: string;
  tone: 'plain' | 'good' | 'bad';
}

const ASKER: Record<CallOrigin, string> = { model: 'the model', person: 'you (tools panel)', app: 'an app', cli: 'the command line' };

export function traceLines(trace: CallTrace): TraceLine[] {
  const lines: TraceLine[] = trace.steps.map((step) => ({ offset: `+${countText(step.at)} ms`, kind: step.kind, ...describe(step) }));
  if (trace.droppedSteps > 0) lines.push({ offset: '', kind: 'progress', text: `${countText(trace.droppedSteps)} more progress updates not kept`, tone: 'plain' });
  return lines;
}

/** One line for a list of calls: "sleep — done in 2.0 s, asked by the model at 23:14:05". */
export function traceSummary(trace: CallTrace): string {
  const when = new Date(trace.startedAt).toLocaleTimeString('en-GB', { hour12: false });
  const how = trace.outcome === undefined ? 'under way' : `${trace.outcome} in ${formatElapsed(trace.durationMs ?? 0)}`;
  return `${trace.tool} — ${how}, asked by ${ASKER[trace.origin]} at ${when}`;
}

export function routeText(route: CallRoute): string {
  const where = route.pid !== undefined ? `process ${route.pid}` : route.url !== undefined ? `${route.url}${route.session ? ` (session #${route.session})` : ''}` : route.transport;
  return `${where}, connection ${route.connection}`;
}

function describe(step: TraceStep): Pick<TraceLine, 'text' | 'tone'> {
  switch (step.kind) {
    case 'asked':
      return { text: `asked by ${ASKER[step.origin]} (arguments: ${bytes(step.argsBytes)})`, tone: 'plain' };
    case 'refused':
      return { text: `refused before running: ${step.code}${classed(step.class)}`, tone: 'bad' };
    case 'approved':
      return { text: `${step.by === 'user' ? 'approved by you' : 'allowed without asking'} — ${step.because}`, tone: 'good' };
    case 'denied':
      return { text: `${step.by === 'user' ? 'denied by you' : 'denied without asking'} — ${step.because}`, tone: 'bad' };
    case 'sent':
      return { text: `sent to ${routeText(step.route)}`, tone: 'plain' };
    case 'progress':
      return { text: `progress ${step.progress}${step.total !== undefined ? ` of ${step.total}` : ''}`, tone: 'plain' };
    case 'answered':
      return { text: `answered${step.isError ? ' with a tool error' : ''}: ${step.parts} ${step.parts === 1 ? 'part' : 'parts'}, ${bytes(step.resultBytes)}${classed(step.class)}`, tone: step.isError ? 'bad' : 'good' };
    case 'failed':
      return { text: `failed: ${step.code}${classed(step.class)}`, tone: 'bad' };
    case 'cancelled':
      return { text: step.stage === 'approval' ? 'cancelled before it ran' : 'cancelled while it ran', tone: 'bad' };
    default:
      return step satisfies never;
  }
}

function classed(cls: string | undefined): string {
  return cls ? ` [${cls}]` : '';
}

function bytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

