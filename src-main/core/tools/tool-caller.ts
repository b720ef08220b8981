/**
 * The one way to call a tool, whoever asks: the model in the chat, the person in the tools panel,
 * an MCP App, the CLI. Every call takes the same steps in the same order — find the tool, enabled,
 * visible to this caller, arguments match the schema, approval — and only then reaches the server.
 * Main runs its own copy of the approved arguments (SECURITY A1); tools stay namespaced (A4).
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { visibleTo, type CatalogTool, type ToolRef, type ToolResult } from '../../../src-preload/contract/tools';
import { AppFailure } from '../app-error';
import type { ApprovalBroker, PolicyAsk, PolicyDecision, ToolCallVerdict } from '../approvals/approval-broker';
import { CallCancel } from '../mcp/call-cancel';
import type { McpManager } from '../mcp/mcp-manager';
import type { CallOutcome, CallRecording, CallRequest } from '../mcp/call-vocabulary';
import { ARGUMENTS_FIX } from '../diagnosis/call-diagnosis';
import { misuse, terminal, withDiagnosis } from '../diagnosis/diagnosis';
import type { CallTraces } from '../traces/call-traces';
import { memoLast } from '../memo-last';
import { checkArguments } from './tool-arguments';

/** What the caller needs of the MCP manager (a test may give it SDK clients of its own). */
export type ToolSource = Pick<McpManager, 'tools' | 'findTool' | 'resolveTool' | 'callServerTool'>;

/** The CLI's rule: typing `switchboard call` is the person's consent; a deny rule and a disabled tool still refuse. */
const CLI_CONSENT = 'you ran it yourself with switchboard call';

export class ToolCaller {
  private readonly forModel = memoLast((all: CatalogTool[]) => all.filter((t) => t.enabled && visibleTo(t, 'model')));

  constructor(private readonly deps: { source: ToolSource; broker: Pick<ApprovalBroker, 'requestToolCall' | 'policyDecision'>; traces?: Pick<CallTraces, 'record'> }) {}

  /** The tools offered to a model: enabled, and not marked app-only (MCP Apps visibility). Rebuilt only when the catalog changes. */
  modelTools(): CatalogTool[] {
    return this.forModel(this.deps.source.tools());
  }

  call(ref: ToolRef, args: Record<string, unknown>, request: CallRequest): Promise<CallOutcome> {
    const { traces } = this.deps;
    return traces ? traces.record(ref, args, request, (recording) => this.callOnce(ref, args, request, recording)) : this.callOnce(ref, args, request);
  }

  private async callOnce(ref: ToolRef, args: Record<string, unknown>, request: CallRequest, recording?: CallRecording): Promise<CallOutcome> {
    let tool: CatalogTool;
    try {
      // Most calls name a tool already in the catalog: no wait, no promise.
      tool = this.deps.source.findTool(ref) ?? (await this.deps.source.resolveTool(ref));
    } catch (error) {
      return { kind: 'refused', error: asFailure(error) };
    }
    recording?.resolved(tool);
    const refusal = this.refusal(tool, args, request);
    if (refusal) return { kind: 'refused', tool, error: refusal };

    const policy = this.policyFirst(tool, args, request);
    const verdict = policy.kind === 'ask' ? await this.askPerson(tool, args, request, policy) : policy;
    if (verdict.kind === 'cancelled') return { kind: 'cancelled', tool, stage: 'approval' };
    if (verdict.kind === 'deny') return { kind: 'denied', tool, by: verdict.by, because: verdict.because, ...(verdict.reason ? { reason: verdict.reason } : {}) };

    const { because } = verdict;
    const approvedArgs = verdict.args;
    recording?.approved(verdict.by, because);
    request.onApproved?.({ args: approvedArgs, because, by: verdict.by });
    try {
      const result = await this.deps.source.callServerTool(tool.server, tool.name, approvedArgs, request, recording);
      return { kind: 'done', tool, args: approvedArgs, because, result };
    } catch (error) {
      // The manager aborts the controller itself at a call's hard maximum (with the SDK's McpError): that is a failure, not a cancel.
      const signal = request.controller?.signal;
      if (signal?.aborted && !(signal.reason instanceof McpError)) return { kind: 'cancelled', tool, stage: 'running', args: approvedArgs, because };
      return { kind: 'failed', tool, args: approvedArgs, because, error: asFailure(error) };
    }
  }

  /** Enabled → visible to this caller → arguments match: the first that fails, with its exact reason. */
  private refusal(tool: CatalogTool, args: Record<string, unknown>, request: CallRequest): AppFailure | undefined {
    if (!tool.enabled) return new AppFailure('conflict', `${toolWhat(tool)} is disabled; turn it on in the tools list to use it`, misuse(`turn it on in ${tool.server}'s tools list, or call another tool`));
    if (!visibleTo(tool, request.origin)) {
      return new AppFailure('conflict', request.origin === 'app' ? `${toolWhat(tool)} is not available to apps (its server did not make it visible to apps)` : `${toolWhat(tool)} is only for apps; the model cannot call it`, onlyWhatWasOffered());
    }
    if (request.origin === 'app' && request.appServer !== tool.server) {
      return new AppFailure('conflict', `an app of server "${request.appServer ?? '?'}" cannot call ${toolWhat(tool)}: apps call only their own server's tools`, onlyWhatWasOffered());
    }
    try {
      checkArguments(tool, args, argumentsOf);
    } catch (error) {
      // The schema itself may be broken (the server's fault); that error carries no class of its own.
      const failure = asFailure(error);
      return failure.code === 'invalid_input' ? withDiagnosis(failure, misuse(ARGUMENTS_FIX)) : withDiagnosis(failure, terminal(`the server's input schema for "${tool.name}" is broken; report it to its author`));
    }
    return undefined;
  }

  /**
   * The approval policy's answer when it decides alone (allow or deny): no dialog could change the
   * arguments, so they run as given; otherwise what to ask the person. The CLI's own rule: typing
   * the command is consent, so only a deny refuses.
   */
  private policyFirst(tool: CatalogTool, args: Record<string, unknown>, request: CallRequest): PolicyDecision | PolicyAsk {
    const decided = this.deps.broker.policyDecision(tool, args);
    if (request.origin !== 'cli' || decided.kind === 'deny') return decided;
    return { kind: 'run', args, by: 'user', because: decided.kind === 'run' ? decided.because : CLI_CONSENT };
  }

  private askPerson(tool: CatalogTool, args: Record<string, unknown>, request: CallRequest, ask: PolicyAsk): Promise<ToolCallVerdict> {
    return this.deps.broker.requestToolCall({
      tool,
      args,
      ask,
      origin: request.origin,
      catalog: () => this.deps.source.tools().filter((t) => t.enabled),
      signal: request.controller?.signal ?? NEVER_CANCELLED,
      ...(request.conversationId !== undefined ? { conversationId: request.conversationId } : {}),
      ...(request.callId !== undefined ? { callId: request.callId } : {}),
    });
  }
}

/** For callers that only want a result: every outcome but `done` becomes an AppFailure that says what happened. */
export function resultOrThrow(outcome: CallOutcome): ToolResult {
  if (outcome.kind === 'done') return outcome.result;
  const what = outcome.tool ? toolWhat(outcome.tool) : 'the tool';
  switch (outcome.kind) {
    case 'refused':
    case 'failed':
      throw outcome.error;
    case 'denied':
      if (outcome.by === 'user') throw new AppFailure('conflict', `you denied running ${what}${outcome.reason ? `: ${outcome.reason}` : ''}`);
      throw new AppFailure('conflict', `${what} was refused by ${outcome.because}`, terminal('change the approval rule that denies it (Chat settings → rules) if it should run'));
    case 'cancelled':
      throw new AppFailure('unavailable', outcome.stage === 'approval' ? `the run of ${what} was cancelled before it started` : `${what} was cancelled while it ran`);
    default:
      return outcome satisfies never;
  }
}

const NEVER_CANCELLED = new CallCancel().signal;

const onlyWhatWasOffered = () => misuse('call only the tools you were given');
const toolWhat = (tool: CatalogTool) => `tool "${tool.name}" on server "${tool.server}"`;
const argumentsOf = (tool: CatalogTool) => `arguments for ${toolWhat(tool)}`;

function asFailure(error: unknown): AppFailure {
  return error instanceof AppFailure ? error : new AppFailure('internal', error instanceof Error ? error.message : String(error));
}
