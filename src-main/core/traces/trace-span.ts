/**
 * One finished call trace as one OpenTelemetry span, through the OpenTelemetry API: the span covers
 * the call from asked to its end, each step is an event at its own time. Names follow the
 * OpenTelemetry conventions for MCP and tool execution where they exist (`mcp.method.name`,
 * `gen_ai.tool.name`, `error.type`); the rest are `switchboard.*`. Only sizes, never content.
 */
import { SpanKind, SpanStatusCode, type Attributes, type Tracer } from '@opentelemetry/api';
import type { CallRoute, CallTrace, TraceStep } from '../../../src-preload/contract/traces';

export function emitSpan(tracer: Tracer, trace: CallTrace): void {
  const at = (ms: number) => new Date(trace.startedAt + ms);
  const sent = trace.steps.findLast((s): s is Extract<TraceStep, { kind: 'sent' }> => s.kind === 'sent');
  const last = trace.steps.at(-1);
  const span = tracer.startSpan(`tools/call ${trace.tool}`, {
    kind: SpanKind.CLIENT,
    startTime: at(0),
    attributes: {
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': trace.tool,
      'switchboard.call.origin': trace.origin,
      'switchboard.call.outcome': trace.outcome ?? 'unfinished',
      ...(trace.server !== undefined ? { 'switchboard.server': trace.server } : {}),
      ...(trace.conversationId !== undefined ? { 'gen_ai.conversation.id': trace.conversationId } : {}),
      ...(trace.callId !== undefined ? { 'gen_ai.tool.call.id': trace.callId } : {}),
      ...(sent ? routeAttributes(sent.route) : {}),
      ...(trace.droppedSteps > 0 ? { 'switchboard.call.dropped_steps': trace.droppedSteps } : {}),
    },
  });
  for (const step of trace.steps) span.addEvent(step.kind, stepAttributes(step), at(step.at));
  const failure = last && (last.kind === 'failed' || last.kind === 'refused' || (last.kind === 'answered' && last.isError)) ? last : undefined;
  if (failure) {
    const type = 'class' in failure && failure.class ? failure.class : 'code' in failure ? failure.code : 'tool_error';
    span.setAttribute('error.type', type);
    span.setStatus({ code: SpanStatusCode.ERROR, message: `${failure.kind}: ${type}` });
  }
  span.end(at(trace.durationMs ?? last?.at ?? 0));
}

function routeAttributes(route: CallRoute): Attributes {
  return {
    'network.transport': route.transport === 'stdio' ? 'pipe' : 'tcp',
    'switchboard.connection.sequence': route.connection,
    ...(route.pid !== undefined ? { 'switchboard.server.pid': route.pid } : {}),
    ...(route.url !== undefined ? { 'url.full': route.url } : {}),
    ...(route.session !== undefined ? { 'switchboard.session.tag': route.session } : {}),
  };
}

/** A step's own fields as event attributes (the route flattened); `kind` and `at` are the event's name and time. */
function stepAttributes(step: TraceStep): Attributes {
  if (step.kind === 'sent') return routeAttributes(step.route);
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(step)) {
    if (key === 'kind' || key === 'at') continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') attributes[`switchboard.${snake(key)}`] = value;
  }
  return attributes;
}

function snake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
