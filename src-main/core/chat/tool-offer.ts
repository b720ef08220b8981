/**
 * What a turn sends as tools. Every model tool; or, on demand, the pinned and loaded ones plus a
 * search: the provider's own (Anthropic's tool search, the rest sent deferred) or find_tools.
 */
import type { ChatMessage, ProviderToolSearch } from '../../../src-preload/contract/chat';
import type { CatalogTool } from '../../../src-preload/contract/tools';
import { FIND_TOOLS_DEFINITION } from '../tools/find-tools';
import { loadedTool, loadedToolNames, type ToolLoading } from '../tools/tool-loading';
import { modelTool } from '../tools/tool-tokens';
import type { ChatProvider } from './providers/chat-provider';
import type { ModelTool } from '../tools/model-tool';

export interface TurnTools {
  tools: ModelTool[];
  deferredTools?: ModelTool[];
  /** Tools the provider's search may load, by namespaced name. */
  deferred: Map<string, CatalogTool>;
}

export function turnTools(messages: readonly ChatMessage[], provider: Pick<ChatProvider, 'nativeToolSearch'>, all: () => CatalogTool[], loading?: Pick<ToolLoading, 'plan'>): TurnTools {
  if (!loading) return { tools: all().map(modelTool), deferred: new Map() };
  const plan = loading.plan(loadedToolNames(messages));
  const offered = plan.offered.map(modelTool);
  if (!plan.onDemand) return { tools: offered, deferred: new Map() };
  if (provider.nativeToolSearch && plan.deferred.length > 0) {
    return { tools: offered, deferredTools: plan.deferred.map(modelTool), deferred: new Map(plan.deferred.map((t) => [t.qualifiedName, t])) };
  }
  return { tools: [FIND_TOOLS_DEFINITION, ...offered], deferred: new Map() };
}

/** A provider's search, kept with the tools it loaded; a name that was not sent deferred is ignored (it came from the provider, not from us). */
export function providerSearch(event: { id: string; query: string; names: string[] }, deferred: Map<string, CatalogTool>): ProviderToolSearch {
  const loaded = event.names.flatMap((name) => {
    const tool = deferred.get(name);
    return tool ? [loadedTool(tool)] : [];
  });
  return { id: event.id, query: event.query, loaded };
}
