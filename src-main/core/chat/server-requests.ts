/**
 * Requests a server sends us (SECURITY A5): elicitation and sampling are shown to the user as
 * broker requests, time out, and can be declined. Elicitation URLs go through checkExternalUrl (O8)
 * and open only via the UrlOpener; sampling reaches the model only after the user approves (and
 * perhaps edits) what will be sent, and the model's answer goes back to the server only after the
 * user has seen (and perhaps edited) it. The MCP manager registers these on each SDK Client.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  McpError,
  type ClientCapabilities,
  type ClientNotification,
  type ClientRequest,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ChatMessage, SamplingMessageView } from '../../../src-preload/contract/chat';
import type { ApprovalBroker } from '../approvals/approval-broker';
import type { UrlOpener } from '../ports';
import { checkExternalUrl } from '../url-policy';
import type { ChatProvider } from './providers/chat-provider';

/** What a Client must declare so servers may send these requests (form defaults applied by the SDK). */
export const SERVER_REQUEST_CAPABILITIES = {
  elicitation: { form: { applyDefaults: true }, url: {} },
  sampling: {},
} satisfies ClientCapabilities;

export const DEFAULT_SERVER_REQUEST_TIMEOUT_MS = 5 * 60_000;
/** JSON-RPC error code the spec uses for "the user rejected the sampling request". */
export const USER_REJECTED = -1;

export interface ServerRequestDeps {
  broker: ApprovalBroker;
  opener: UrlOpener;
  /** The model sampling goes to: the chat's current provider. */
  sampler: () => Promise<ChatProvider>;
  timeoutMs?: number;
}

type Extra = Pick<RequestHandlerExtra<ClientRequest, ClientNotification>, 'signal'>;

export function elicitationHandler(server: string, deps: ServerRequestDeps): (request: ElicitRequest, extra: Extra) => Promise<ElicitResult> {
  return async (request, extra) => {
    const timeoutMs = deps.timeoutMs ?? DEFAULT_SERVER_REQUEST_TIMEOUT_MS;
    const params = request.params;
    if (params.mode === 'url') {
      const check = checkExternalUrl(params.url);
      const verdict = await deps.broker.requestElicitation({
        server,
        message: params.message,
        mode: 'url',
        url: params.url,
        urlCheck: check.ok ? { ok: true } : { ok: false, reason: check.reason },
        timeoutMs,
        signal: extra.signal,
      });
      if (verdict.action === 'accept' && check.ok) await deps.opener.open(check.url);
      return { action: verdict.action };
    }
    const verdict = await deps.broker.requestElicitation({
      server,
      message: params.message,
      mode: 'form',
      requestedSchema: params.requestedSchema as Record<string, unknown>,
      timeoutMs,
      signal: extra.signal,
    });
    return verdict.action === 'accept' ? { action: 'accept', content: (verdict.content ?? {}) as ElicitResult['content'] } : { action: verdict.action };
  };
}

export function samplingHandler(server: string, deps: ServerRequestDeps): (request: CreateMessageRequest, extra: Extra) => Promise<CreateMessageResult> {
  return async (request, extra) => {
    const params = request.params;
    let omittedParts = 0;
    const messages: SamplingMessageView[] = params.messages.map((m) => {
      const blocks = (Array.isArray(m.content) ? m.content : [m.content]) as Array<{ type: string; text?: string }>;
      const texts = blocks.filter((b) => b.type === 'text').map((b) => b.text ?? '');
      omittedParts += blocks.length - texts.length;
      return { role: m.role, text: texts.join('\n') };
    });
    const verdict = await deps.broker.requestSampling({
      server,
      messages,
      ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
      maxTokens: params.maxTokens,
      omittedParts,
      timeoutMs: deps.timeoutMs ?? DEFAULT_SERVER_REQUEST_TIMEOUT_MS,
      signal: extra.signal,
    });
    switch (verdict.kind) {
      case 'decline':
        throw new McpError(USER_REJECTED, `the user declined the sampling request${verdict.reason ? `: ${verdict.reason}` : ''}`);
      case 'timed_out':
        throw new McpError(USER_REJECTED, 'the user did not answer the sampling request in time');
      case 'cancelled':
        throw new McpError(USER_REJECTED, 'the sampling request was cancelled');
      case 'approve':
        break;
      default:
        return verdict satisfies never;
    }
    const provider = await deps.sampler();
    const history: ChatMessage[] = verdict.messages.map((m) => (m.role === 'user' ? { role: 'user', text: m.text, at: 0 } : { role: 'assistant', text: m.text, toolCalls: [], at: 0 }));
    let text = '';
    let stopReason: 'endTurn' | 'maxTokens' = 'endTurn';
    for await (const event of provider.streamTurn({ messages: history, tools: [], signal: extra.signal, maxTokens: params.maxTokens, ...(params.systemPrompt ? { system: params.systemPrompt } : {}) })) {
      if (event.type === 'text') text += event.delta;
      if (event.type === 'done' && event.stopReason === 'max_tokens') stopReason = 'maxTokens';
    }
    // The completion goes back to the server only once the person has seen it (and perhaps edited it).
    const review = await deps.broker.requestSamplingResult({
      server,
      text,
      model: provider.label,
      stopReason,
      timeoutMs: deps.timeoutMs ?? DEFAULT_SERVER_REQUEST_TIMEOUT_MS,
      signal: extra.signal,
    });
    switch (review.kind) {
      case 'decline':
        throw new McpError(USER_REJECTED, `the user did not let the model's answer go back to the server${review.reason ? `: ${review.reason}` : ''}`);
      case 'timed_out':
        throw new McpError(USER_REJECTED, "the user did not review the model's answer in time");
      case 'cancelled':
        throw new McpError(USER_REJECTED, 'the sampling request was cancelled');
      case 'approve':
        return { role: 'assistant', content: { type: 'text', text: review.text }, model: provider.label, stopReason };
      default:
        return review satisfies never;
    }
  };
}

/** Registers both handlers on a Client created with SERVER_REQUEST_CAPABILITIES. */
export function registerServerRequestHandlers(client: Client, server: string, deps: ServerRequestDeps): void {
  client.setRequestHandler(ElicitRequestSchema, elicitationHandler(server, deps));
  client.setRequestHandler(CreateMessageRequestSchema, samplingHandler(server, deps));
}
