import type { GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type {
  PromptResultView,
  PromptView,
  ResourceContentView,
  ResourceTemplateView,
  ResourceView,
  ServerView,
} from '../../../src-preload/contract';
import { diagnoseServer } from '../diagnosis/server-diagnosis';
import { sandboxView } from '../sandbox/sandbox-view';
import type { ServerStatus } from './mcp-manager';

/** Serializable views for the UI; only plain data leaves the core. */
export function serverView(
  status: ServerStatus,
  shadowed: string[] = [],
  extra: { schemaTokens: number; pinned: boolean; oauth?: boolean } = { schemaTokens: 0, pinned: false },
): ServerView {
  const { state, config } = status;
  return {
    name: status.name,
    transport: status.transport,
    source: config.source.path,
    enabled: config.enabled,
    state: state.kind,
    reason: state.reason,
    ...optional({ diagnosis: diagnoseServer(config, state) }),
    ...(state.kind === 'backing_off' ? { nextAttemptAt: state.nextAttemptAt } : {}),
    ...(status.stderrTail ? { stderrTail: status.stderrTail } : {}),
    toolCount: status.toolCount,
    ...(status.pendingTools ? { toolsPending: true } : {}),
    shadowed,
    schemaTokens: extra.schemaTokens,
    pinned: extra.pinned,
    oauth: extra.oauth === true,
    ...(config.kind === 'stdio' ? { sandbox: sandboxView(config, state.reason, status.sandboxDenial) } : {}),
  };
}

export function resourceView(server: string, r: Resource): ResourceView {
  return { server, uri: r.uri, name: r.name, ...optional({ title: r.title, description: r.description, mimeType: r.mimeType }) };
}

export function resourceTemplateView(server: string, t: ResourceTemplate): ResourceTemplateView {
  return { server, uriTemplate: t.uriTemplate, name: t.name, ...optional({ title: t.title, description: t.description, mimeType: t.mimeType }) };
}

export function resourceContentViews(result: ReadResourceResult): ResourceContentView[] {
  return result.contents.map((c) => ({
    uri: c.uri,
    ...optional({ mimeType: c.mimeType, text: 'text' in c ? c.text : undefined, blob: 'blob' in c ? c.blob : undefined }),
  }));
}

export function promptView(server: string, p: Prompt): PromptView {
  return {
    server,
    name: p.name,
    ...optional({ title: p.title, description: p.description }),
    arguments: (p.arguments ?? []).map((a) => ({ name: a.name, ...optional({ description: a.description }), required: a.required === true })),
  };
}

export function promptResultView(result: GetPromptResult): PromptResultView {
  return {
    ...optional({ description: result.description }),
    messages: result.messages.map((m) => {
      const c = m.content;
      const text = c.type === 'text' ? c.text : c.type === 'resource' ? `[resource ${c.resource.uri}]` : c.type === 'resource_link' ? `[resource link ${c.uri}]` : `[${c.type}]`;
      return { role: m.role, text };
    }),
  };
}

function optional<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
