/**
 * The words a tool call is told in, shared by the call path's layers: the caller (tools/), the server
 * that runs it (mcp/) and its trace (traces/). A leaf: it imports only the contract and the error type,
 * so none of those layers has to import another to name a call (the old tool-caller → call-traces →
 * mcp-manager → tool-caller cycle).
 */
import type { AppFailure } from '../app-error';
import type { CallRoute } from '../../../src-preload/contract/traces';
import type { CallOrigin, CatalogTool, ToolResult } from '../../../src-preload/contract/tools';
import type { CallProgress, TaskView } from '../../../src-preload/contract/tasks';
import type { Canceller } from './call-cancel';

/** What a server's call takes beside the tool and its arguments. */
export interface CallOptions {
  /**
   * The caller's own cancel for this call alone: aborting it cancels the call (the server hears
   * notifications/cancelled). The server passes its signal straight to the SDK and aborts it itself
   * at the hard maximum, so a call makes one signal, not two. A CallCancel costs less than an AbortController.
   */
  controller?: Canceller;
  onProgress?: (progress: CallProgress) => void;
  /** A call the server runs as a task: each status it reports (working, input_required, …), and a dropped connection. */
  onTask?: (task: TaskView) => void;
}

/** What the server tells a call's trace: each time the request goes out, and each progress notification. */
export interface WireSteps {
  sent(route: CallRoute): void;
  progress(progress: CallProgress): void;
}

/** One call's trace while it runs; the call path tells it each step. */
export interface CallRecording extends WireSteps {
  /** The tool named was found: the trace is filed under its server. */
  resolved(tool: CatalogTool): void;
  approved(by: 'user' | 'policy', because: string): void;
}

/** Who asks for a call, and what they want to hear while it runs. */
export interface CallRequest extends CallOptions {
  origin: CallOrigin;
  /** An app may call only tools of the server that rendered it. */
  appServer?: string;
  conversationId?: string;
  callId?: string;
  /** Told once the call is approved, just before it is sent (the chat's card moves to "running"). */
  onApproved?: (run: { args: Record<string, unknown>; because: string; by: 'user' | 'policy' }) => void;
}

/** How a call ended; every caller handles each kind (resultOrThrow for those that only want a result). */
export type CallOutcome =
  | { kind: 'refused'; tool?: CatalogTool; error: AppFailure }
  | { kind: 'denied'; tool: CatalogTool; by: 'user' | 'policy'; because: string; reason?: string }
  | { kind: 'cancelled'; tool: CatalogTool; stage: 'approval' | 'running'; args?: Record<string, unknown>; because?: string }
  | { kind: 'failed'; tool: CatalogTool; args: Record<string, unknown>; because: string; error: AppFailure }
  | { kind: 'done'; tool: CatalogTool; args: Record<string, unknown>; because: string; result: ToolResult };
