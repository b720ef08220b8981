/** Chat, approvals and conversations: types, invokes and events. */
import { z } from 'zod';
import { empty, out, toolArguments, type Diagnosis } from './common';
import type { CallProgress, TaskView } from './tasks';
import type { CallOrigin, ToolResult } from './tools';
import { IMAGE_MIME_TYPES, MAX_ATTACHMENTS, IMAGE_CHUNK_BYTES } from './values';

// ---- Tool definitions as the approval dialog shows them (SECURITY A2, A3) ----

export type HiddenCategory = 'unicode_tags' | 'zero_width' | 'bidi_control';
/** A poisoning sign in server text; shown beside the full text, never stripped. */
export type TextFlag =
  | { kind: 'hidden_characters'; where: string; category: HiddenCategory; count: number; codepoints: string[]; decoded?: string }
  | { kind: 'instruction_block'; where: string; pattern: string; excerpt: string };

export interface DefinitionChange {
  field: 'tool' | 'title' | 'description' | 'inputSchema' | 'annotations';
  before: string;
  after: string;
}

export type AskReason = 'default' | 'destructive' | 'rule' | 'definition_changed' | 'new_tool_on_server';

export interface ToolAnnotationsView {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

// ---- Approval requests: the renderer answers only {id, decision, ...} (A1) ----

export interface ToolCallApprovalRequest {
  kind: 'tool_call';
  id: string;
  conversationId?: string;
  callId?: string;
  /** The owning server, always shown (A4). */
  server: string;
  tool: string;
  /** Namespaced name the model used: <server>__<tool>. */
  name: string;
  /** Who asked: the model, the person (tools panel), an MCP App, or the CLI. */
  origin: CallOrigin;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotationsView;
  args: Record<string, unknown>;
  flags: TextFlag[];
  askReason: AskReason;
  because: string;
  /** Non-empty when an always-allowed definition changed (A3). */
  changes: DefinitionChange[];
  /** False for destructive tools: they ask every time, so "always" is not offered. */
  canAlwaysAllow: boolean;
  requestedAt: number;
}

export type ElicitationApprovalRequest =
  | {
      kind: 'elicitation';
      mode: 'form';
      id: string;
      server: string;
      message: string;
      requestedSchema: Record<string, unknown>;
      /** Each field's `default` from the schema, to prefill the form. */
      defaults: Record<string, unknown>;
      flags: TextFlag[];
      timeoutMs: number;
      requestedAt: number;
    }
  | {
      kind: 'elicitation';
      mode: 'url';
      id: string;
      server: string;
      message: string;
      url: string;
      /** The O8 verdict: a refused URL can only be declined. */
      urlCheck: { ok: true } | { ok: false; reason: string };
      flags: TextFlag[];
      timeoutMs: number;
      requestedAt: number;
    };

export interface SamplingMessageView {
  role: 'user' | 'assistant';
  text: string;
}

export interface SamplingApprovalRequest {
  kind: 'sampling';
  id: string;
  server: string;
  messages: SamplingMessageView[];
  systemPrompt?: string;
  maxTokens: number;
  /** Non-text parts (images, audio) the server sent; they are not forwarded to the model. */
  omittedParts: number;
  flags: TextFlag[];
  timeoutMs: number;
  requestedAt: number;
}

/** The model's answer to an approved sampling request, held until the person lets it go back to the server (A5). */
export interface SamplingResultApprovalRequest {
  kind: 'sampling_result';
  id: string;
  server: string;
  /** What the model answered; the person may edit it before it is sent. */
  text: string;
  /** The provider and model that answered. */
  model: string;
  stopReason: 'endTurn' | 'maxTokens';
  flags: TextFlag[];
  timeoutMs: number;
  requestedAt: number;
}

export type ApprovalRequest = ToolCallApprovalRequest | ElicitationApprovalRequest | SamplingApprovalRequest | SamplingResultApprovalRequest;

export const toolDecisions = ['allow_once', 'always_allow_tool', 'always_allow_server', 'deny'] as const;
export const elicitationDecisions = ['accept', 'decline', 'cancel'] as const;
export const samplingDecisions = ['approve', 'decline'] as const;
export type ToolDecision = (typeof toolDecisions)[number];
export type ElicitationDecision = (typeof elicitationDecisions)[number];
export type SamplingDecision = (typeof samplingDecisions)[number];
export type ApprovalDecision = ToolDecision | ElicitationDecision | SamplingDecision;

export interface ApprovalSettled {
  id: string;
  outcome: ApprovalDecision | 'timed_out' | 'cancelled';
}

// ---- Conversations ----

export interface ToolCallRequest {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** Set when the model's arguments were not valid JSON. */
  argsError?: string;
}

/** A tool the search tool loaded for the rest of a conversation (tools on demand). */
export interface LoadedTool {
  /** Namespaced name, as offered to the model. */
  name: string;
  server: string;
  tool: string;
  title?: string;
}

export type ToolCallState = 'awaiting_approval' | 'running' | 'succeeded' | 'failed' | 'denied' | 'cancelled';

export interface ToolCallOutcome {
  callId: string;
  name: string;
  server?: string;
  tool?: string;
  args: Record<string, unknown>;
  state: Extract<ToolCallState, 'succeeded' | 'failed' | 'denied' | 'cancelled'>;
  /** What the server answered, as it answered it (absent when the tool never ran). Stored, so a reload shows the same card. */
  result?: ToolResult;
  /** The `ui://` resource that renders this tool's results (MCP Apps); stored, so the app comes back after a reload. */
  appUri?: string;
  /** Why it ran without asking, or who denied it ("you allowed it once"). */
  because?: string;
  elapsedMs?: number;
  /** Why it failed, when the call itself failed. */
  error?: string;
  /** The failure's class and fix (also told to the model). */
  diagnosis?: Diagnosis;
  /** Tools this call (the search tool) loaded for the rest of the conversation. */
  loaded?: LoadedTool[];
  /** What the model was told. */
  textForModel: string;
}

/** A search the provider ran itself (Anthropic's tool search over tools sent with `defer_loading`), and what it loaded. */
export interface ProviderToolSearch {
  id: string;
  query: string;
  loaded: LoadedTool[];
}

// ---- Attachments: sent to the model as content blocks, kept with the message ----

export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];
/** Characters of one attached resource's text (~100K tokens): past that it would crowd out the conversation. */
export const MAX_RESOURCE_CHARS = 400_000;

/** An image, from the person (a file, a paste, a drop) or from a server's resource (`from`). */
export interface ImageAttachment {
  kind: 'image';
  name: string;
  mimeType: ImageMimeType;
  /** Base64 of the image bytes. */
  data: string;
  from?: { server: string; uri: string };
}
/** The text of a server's resource, as resources/read returned it. */
export interface ResourceAttachment {
  kind: 'resource';
  server: string;
  uri: string;
  name: string;
  mimeType?: string;
  text: string;
}
export type MessageAttachment = ImageAttachment | ResourceAttachment;

export type ChatMessage =
  | { role: 'user'; text: string; at: number; attachments?: MessageAttachment[] }
  | { role: 'assistant'; text: string; toolCalls: ToolCallRequest[]; at: number; toolSearches?: ProviderToolSearch[] }
  | { role: 'tool'; results: ToolCallOutcome[]; at: number };

export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
}

export interface Conversation extends ConversationSummary {
  messages: ChatMessage[];
}

// ---- Streaming events ----

export interface ChatDelta {
  conversationId: string;
  text: string;
}

export type TurnState = 'streaming' | 'awaiting_approval' | 'running_tool' | 'done' | 'cancelled' | 'failed';
export interface ChatTurnState {
  conversationId: string;
  state: TurnState;
  /** Why it failed, naming the provider or tool at fault. */
  error?: string;
  /** The failure's class and fix, when known (an unreachable endpoint is transient: retry). */
  diagnosis?: Diagnosis;
}

export interface ToolCallCard {
  conversationId: string;
  callId: string;
  name: string;
  server?: string;
  tool?: string;
  args: Record<string, unknown>;
  state: ToolCallState;
  /** Why it ran without asking, or who denied it. */
  because?: string;
  progress?: CallProgress;
  /** The call runs as a task on the server (MCP tasks): its last known status. */
  task?: TaskView;
  startedAt?: number;
  elapsedMs?: number;
  result?: ToolResult;
  /** The `ui://` resource that renders this tool's results (MCP Apps). */
  appUri?: string;
  error?: string;
  diagnosis?: Diagnosis;
  /** Tools this call (the search tool) loaded for the rest of the conversation. */
  loaded?: LoadedTool[];
}

// ---- Settings ----

export type ProviderKind = 'anthropic' | 'openai-compatible';
export interface ApprovalRuleView {
  pattern: string;
  effect: 'allow' | 'ask' | 'deny';
}
export interface ChatSettings {
  provider: ProviderKind;
  /** Empty means the provider's default (Anthropic's API, or OpenAI's). */
  baseUrl: string;
  model: string;
  autoAllowReadOnly: boolean;
  rules: ApprovalRuleView[];
  /** False for a model that takes only text (many local ones): attaching an image is refused before anything is sent. Absent means true. */
  imageInput?: boolean;
}
export interface ChatSettingsView {
  settings: ChatSettings;
  /** Name of the keychain secret the provider reads. */
  apiKeyName: string;
  apiKeyConfigured: boolean;
  /** Each provider's default model and key, so a form switching provider shows them before it is saved. */
  providers: Record<ProviderKind, { defaultModel: string; apiKeyName: string; apiKeyConfigured: boolean }>;
  /** What to do before chatting, when something is missing. */
  setupHint?: string;
}
export type LocalProbe = { baseUrl: string; reachable: true; models: string[] } | { baseUrl: string; reachable: false; reason: string };

// ---- Schemas ----

export const conversationId = z
  .string()
  .min(1, 'conversation id is empty')
  .max(64, 'conversation id is over 64 characters')
  .regex(/^[A-Za-z0-9-]+$/, 'conversation id may use only letters, digits and "-"');

const approvalId = z.string().min(1).max(100);
const ruleSchema = z.object({ pattern: z.string().min(1).max(200), effect: z.enum(['allow', 'ask', 'deny']) }).strict();

const imageUploadId = z.string().regex(/^[0-9a-f]{32}$/, 'not an upload id');
const attachmentInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('image'), upload: imageUploadId, name: z.string().min(1).max(300), mimeType: z.enum(IMAGE_MIME_TYPES, `images must be ${IMAGE_MIME_TYPES.join(', ')}`) }).strict(),
  z.object({ kind: z.literal('resource'), server: z.string().min(1).max(100), uri: z.string().min(1).max(8192) }).strict(),
]);
export type AttachmentInput = z.output<typeof attachmentInput>;

export const chatInvokes = {
  sendMessage: {
    input: z
      .object({
        conversationId: conversationId.optional(),
        text: z.string().max(200_000),
        /** Images uploaded first (beginImageUpload), and server resources main reads itself. */
        attachments: z.array(attachmentInput).max(MAX_ATTACHMENTS, `at most ${MAX_ATTACHMENTS} attachments per message`).optional(),
      })
      .strict()
      .refine((m) => m.text.trim() !== '' || (m.attachments?.length ?? 0) > 0, 'the message is empty'),
    output: out<{ conversationId: string }>(),
  },
  /** Runs a failed turn again from the conversation as stored (nothing is added to it). */
  retryTurn: { input: z.object({ conversationId }).strict(), output: out<{ conversationId: string }>() },
  /** Announces an image of `size` bytes for the next message; chunks follow in order. */
  beginImageUpload: {
    input: z.object({ size: z.number().int('size must be a whole number').min(1, 'the image is empty') }).strict(),
    output: out<{ upload: string }>(),
  },
  appendImageUpload: {
    input: z
      .object({ upload: imageUploadId, offset: z.number().int().min(0), data: z.base64('data must be base64').max(Math.ceil(IMAGE_CHUNK_BYTES / 3) * 4, 'the chunk is too big') })
      .strict(),
    output: out<{ received: number }>(),
  },
  discardImageUpload: { input: z.object({ upload: imageUploadId }).strict(), output: out<null>() },
  cancelTurn: { input: z.object({ conversationId }).strict(), output: out<null>() },
  cancelToolCall: { input: z.object({ conversationId, callId: z.string().min(1).max(200) }).strict(), output: out<null>() },
  answerApproval: {
    input: z
      .object({
        id: approvalId,
        decision: z.enum([...toolDecisions, ...elicitationDecisions, ...samplingDecisions]),
        editedArgs: toolArguments.optional(),
        content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
        editedMessages: z.array(z.object({ role: z.enum(['user', 'assistant']), text: z.string().max(200_000) }).strict()).max(200).optional(),
        /** A sampling completion as the person edited it before it goes back to the server. */
        editedText: z.string().max(200_000).optional(),
        reason: z.string().max(2000).optional(),
      })
      .strict(),
    output: out<null>(),
  },
  listPendingApprovals: { input: empty, output: out<ApprovalRequest[]>() },
  listConversations: { input: empty, output: out<ConversationSummary[]>() },
  getConversation: { input: z.object({ id: conversationId }).strict(), output: out<Conversation>() },
  renameConversation: {
    input: z.object({ id: conversationId, title: z.string().trim().min(1, 'the title is empty').max(200, 'the title is over 200 characters') }).strict(),
    output: out<ConversationSummary>(),
  },
  deleteConversation: { input: z.object({ id: conversationId }).strict(), output: out<null>() },
  getChatSettings: { input: empty, output: out<ChatSettingsView>() },
  setChatSettings: {
    input: z
      .object({
        provider: z.enum(['anthropic', 'openai-compatible']),
        baseUrl: z.string().max(2000),
        model: z.string().min(1, 'the model is empty').max(200),
        autoAllowReadOnly: z.boolean(),
        rules: z.array(ruleSchema).max(500),
        imageInput: z.boolean().optional(),
      })
      .strict(),
    output: out<ChatSettingsView>(),
  },
  setChatApiKey: {
    input: z.object({ provider: z.enum(['anthropic', 'openai-compatible']), key: z.string().min(1, 'the key is empty').max(1000) }).strict(),
    output: out<ChatSettingsView>(),
  },
  probeLocalModel: { input: empty, output: out<LocalProbe>() },
} as const;

export const chatEvents = {
  chatDelta: out<ChatDelta>(),
  chatTurnState: out<ChatTurnState>(),
  toolCallUpdated: out<ToolCallCard>(),
  approvalRequested: out<ApprovalRequest>(),
  approvalSettled: out<ApprovalSettled>(),
} as const;
