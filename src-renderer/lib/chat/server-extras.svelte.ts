import type { PromptView, ResourceView } from '../../../src-preload/contract';
import type { ChatApi } from './chat-api';
import { promptText } from './slash-commands';

/** The prompts and resources of connected servers, for slash commands and attachments. */
export class ServerExtras {
  prompts = $state.raw<PromptView[]>([]);
  resources = $state.raw<ResourceView[] | undefined>(undefined);
  /** One line per server or call that failed, naming it. */
  problems = $state.raw<string[]>([]);

  constructor(private readonly api: Pick<ChatApi, 'listServers' | 'listPrompts' | 'getPrompt' | 'listResources'>) {}

  async loadPrompts(): Promise<void> {
    const result = await this.api.listPrompts({});
    if (result.ok) this.prompts = result.value;
    else this.problems = [`prompts: ${result.error.message}`];
  }

  async loadResources(): Promise<void> {
    this.resources = undefined;
    const servers = await this.api.listServers({});
    if (!servers.ok) {
      this.problems = [`servers: ${servers.error.message}`];
      this.resources = [];
      return;
    }
    const connected = servers.value.servers.filter((s) => s.state === 'connected').map((s) => s.name);
    const results = await Promise.all(connected.map(async (name) => ({ name, result: await this.api.listResources({ name }) })));
    const problems: string[] = [];
    const resources: ResourceView[] = [];
    for (const { name, result } of results) {
      if (result.ok) resources.push(...result.value.resources);
      else problems.push(`${name}: ${result.error.message}`);
    }
    this.problems = problems;
    this.resources = resources;
  }

  /** The prompt's messages as message text, or the error naming the prompt. */
  async expandPrompt(prompt: PromptView, args: Record<string, string>): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
    const result = await this.api.getPrompt({ name: prompt.server, prompt: prompt.name, ...(Object.keys(args).length > 0 ? { arguments: args } : {}) });
    if (!result.ok) return { ok: false, error: `prompt "${prompt.name}" on ${prompt.server}: ${result.error.message}` };
    return { ok: true, text: promptText(result.value) };
  }
}
