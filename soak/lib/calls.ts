import { AppFailure } from '../../src-main/core/app-error';
import type { McpManager } from '../../src-main/core/mcp/mcp-manager';
import { CONNECT_TIMEOUT_S, TOOL_TIMEOUT_S, type Role, type SoakServer } from './fleet';

/** One planned tool call and what its answer must say. */
export interface CallSpec {
  server: string;
  role: Role;
  tool: string;
  args: Record<string, unknown>;
  /** The text the result must hold, exactly. */
  expectText?: string;
  expectedError?: string;
}

export interface CallOutcome {
  spec: CallSpec;
  ms: number;
  ok: boolean;
  /** The error's message when the call failed. */
  error?: string;
  /** Set when the outcome breaks the soak's rules (a healthy call failed, an unclear error, a wrong answer…). */
  problem?: string;
}

/**
 * How many calls of each round a server gets: its share of the 100. The noisy fixture gets one at a
 * time: it splits each reply into pieces with pauses, so concurrent replies interleave on its stdout
 * and garble each other (a broken server, not a client fault).
 */
const WEIGHTS: Record<string, number> = { 'everything-0': 14, toolbox: 8, noisy: 1, stubborn: 5, crash: 2 };
const DEFAULT_WEIGHT = 10;

/** What McpManager.callServerTool resolves to (its result type is the manager's to name). */
type CallResult = Awaited<ReturnType<McpManager['callServerTool']>>;
const textOf = (result: CallResult) => result.content.map((p) => ('text' in p && p.type === 'text' ? p.text : `[${p.type}]`)).join('');

/** The calls a server gets, in turn: real tools, with answers that can be checked. */
function menu(server: SoakServer, round: number, k: number): Omit<CallSpec, 'server' | 'role'>[] {
  const tag = `soak ${round}.${k}`;
  switch (server.config.name) {
    case 'toolbox':
      return [
        { tool: 'echo', args: { message: tag }, expectText: tag },
        { tool: 'sleep', args: { ms: 300, tick: 100 }, expectText: 'slept 300' },
      ];
    case 'noisy':
      return [{ tool: 'hello', args: {}, expectText: 'hello from a noisy server' }];
    case 'stubborn':
      return [{ tool: 'ping', args: {}, expectText: 'pong' }];
    case 'crash':
      return [{ tool: 'echo', args: { message: tag }, ...(server.expectedError ? { expectedError: server.expectedError } : {}) }];
    default: // server-everything, over stdio or HTTP
      return [
        { tool: 'echo', args: { message: tag }, expectText: `Echo: ${tag}` },
        { tool: 'get-sum', args: { a: round, b: k }, expectText: `The sum of ${round} and ${k} is ${round + k}.` },
        { tool: 'echo', args: { message: `${tag}!` }, expectText: `Echo: ${tag}!` },
        // Keeps calls in flight for a second, so a SIGKILL lands in the middle of some.
        { tool: 'trigger-long-running-operation', args: { duration: 1, steps: 4 }, expectText: 'Long running operation completed. Duration: 1 seconds, Steps: 4.' },
      ];
  }
}

/**
 * `total` calls spread over the servers by weight, interleaved (so fewer calls than the weights add
 * up to still reach every server); each server's calls cycle through its menu.
 */
export function planRound(servers: SoakServer[], total: number, round: number): CallSpec[] {
  const weight = (s: SoakServer) => WEIGHTS[s.config.name] ?? DEFAULT_WEIGHT;
  const passes = Math.max(...servers.map(weight));
  const slots = Array.from({ length: passes }, (_, pass) => servers.filter((s) => weight(s) > pass)).flat();
  const taken = new Map<string, number>();
  const plan: CallSpec[] = [];
  for (let i = 0; i < total; i++) {
    const server = slots[i % slots.length]!;
    const k = taken.get(server.config.name) ?? 0;
    taken.set(server.config.name, k + 1);
    const options = menu(server, round, k);
    plan.push({ server: server.config.name, role: server.role, ...options[k % options.length]! });
  }
  return plan;
}

/** The longest a call may take to fail: waiting for a reconnect, then the call's own timeout, plus scheduling slack. */
export const FAILURE_DEADLINE_MS = (CONNECT_TIMEOUT_S + TOOL_TIMEOUT_S) * 1000 + 3000;

export async function runCall(manager: McpManager, spec: CallSpec): Promise<CallOutcome> {
  const started = performance.now();
  try {
    const result = await manager.callServerTool(spec.server, spec.tool, spec.args);
    const ms = performance.now() - started;
    const text = textOf(result);
    if (spec.expectedError) return { spec, ms, ok: true, problem: `expected "${spec.expectedError}" but the call succeeded: ${text.slice(0, 120)}` };
    if (result.isError) return { spec, ms, ok: false, error: `tool error: ${text.slice(0, 200)}`, problem: `tool ${spec.tool} on ${spec.server} returned an error: ${text.slice(0, 200)}` };
    if (spec.expectText !== undefined && text !== spec.expectText) {
      return { spec, ms, ok: true, problem: `tool ${spec.tool} on ${spec.server} answered ${JSON.stringify(text.slice(0, 120))}, expected ${JSON.stringify(spec.expectText)}` };
    }
    return { spec, ms, ok: true };
  } catch (error) {
    const ms = performance.now() - started;
    const message = error instanceof Error ? error.message : String(error);
    return { spec, ms, ok: false, error: message, ...judgeFailure(spec, error, message, ms) };
  }
}

function judgeFailure(spec: CallSpec, error: unknown, message: string, ms: number): { problem?: string } {
  const where = `${spec.tool} on ${spec.server}`;
  if (!(error instanceof AppFailure)) return { problem: `${where} threw a raw ${error instanceof Error ? error.name : typeof error}: ${message}` };
  if (spec.expectedError) return message === spec.expectedError ? {} : { problem: `${where} failed with "${message}", expected "${spec.expectedError}"` };
  if (spec.role === 'healthy') return { problem: `${where} (never disturbed) failed: ${message}` };
  if (!message.includes(`"${spec.server}"`)) return { problem: `${where}: the error does not name the server: ${message}` };
  if (ms > FAILURE_DEADLINE_MS) return { problem: `${where} took ${Math.round(ms)} ms to fail (limit ${FAILURE_DEADLINE_MS} ms): ${message}` };
  return {};
}

/** A failure's cause with the names and numbers taken out, so equal causes count together. */
export function causeOf(message: string): string {
  return message
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+(\.\d+)?/g, 'N')
    .slice(0, 140);
}

export function runRound(manager: McpManager, plan: CallSpec[]): Promise<CallOutcome[]> {
  return Promise.all(plan.map((spec) => runCall(manager, spec)));
}
