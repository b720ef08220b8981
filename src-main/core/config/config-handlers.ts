import type { z } from 'zod';
import type { configInvokes} from '../../../src-preload/contract/config';
import { type ServerEntry, type ServerEntryView } from '../../../src-preload/contract/config';
import type { serverInvokes } from '../../../src-preload/contract/servers';
import { AppFailure } from '../app-error';
import { bundlesFile, serversFile } from '../data-home';
import { readTextIfExists } from './atomic-file';
import type { ImportClient } from '../../../src-preload/contract/config';
import type { SecretVault } from '../ports';
import { rawEntries } from './claude-desktop';
import { clientConfigPath, INPUT_MARK } from './client-configs';
import { importFromClient, previewClientImport } from './client-import';
import { addServer, addServers, removeServer, setServerEnabled, updateServer, type WriteOptions } from './config-writer';
import { maskEntry, unmaskEntry } from './entry-mask';
import { ownSource, type LoadedConfig } from './load-config';
import { addProject, readProjects, removeProject } from './project-list';
import type { ServerConfig } from './server-config';
import { parseServerSnippet } from './server-snippet';
import type { TrustStore } from './trust-store';

type Invokes = typeof configInvokes & Pick<typeof serverInvokes, 'setServerEnabled'>;
export type ConfigHandlers = {
  [K in keyof Invokes]: (input: z.output<Invokes[K]['input']>) => Promise<Invokes[K]['output']>;
};

export interface ConfigHandlerDeps {
  home: string;
  trust: () => Promise<TrustStore>;
  /** The config in use (the last one applied). */
  current: () => LoadedConfig | undefined;
  /** Re-read the config and apply it; awaited after each write so the next one sees it. */
  reload: () => Promise<unknown>;
  /** Restart one server, e.g. after its trust was approved or revoked (the gate is checked on each start). */
  reconnect: (name: string) => Promise<void>;
  /** Where import answers marked as passwords are kept. */
  vault: SecretVault;
  /** Other apps' config files (default: each one's per-OS path). */
  clientConfigPaths?: Partial<Record<ImportClient, string>>;
}

/** The config area's calls: every write goes to servers.json only, then the config is reloaded and applied. */
export function configHandlers(deps: ConfigHandlerDeps): ConfigHandlers {
  const ownPath = serversFile(deps.home);
  const clientPath = (client: ImportClient) => deps.clientConfigPaths?.[client] ?? clientConfigPath(client);
  /** Edits are refused when servers.json changed since the config in use was read. */
  const since = (): WriteOptions => {
    const expectedVersion = deps.current()?.versions?.[ownPath];
    return expectedVersion === undefined ? {} : { expectedVersion };
  };
  const find = (name: string): ServerConfig | undefined => deps.current()?.servers.find((s) => s.name === name);
  const requireServer = (name: string): ServerConfig => find(name) ?? notFound(name);
  /** Project files belong to the project: a change there is made in the file, not through us. */
  const refuseForeign = (name: string): void => {
    const server = find(name);
    if (server?.source.origin === 'bundle') {
      throw new AppFailure('invalid_input', `server "${name}" was installed from a bundle; install the bundle again to change its settings, or uninstall it`);
    }
    if (server && !server.source.userWritten) {
      throw new AppFailure('invalid_input', `server "${name}" is defined in ${server.source.path}, which Switchboard does not write; change it in that file`);
    }
  };
  const storedEntry = async (path: string, name: string): Promise<ServerEntry | undefined> => {
    const text = await readTextIfExists(path);
    return text === undefined ? undefined : rawEntries(text)[name];
  };

  return {
    getServerEntry: async ({ name }): Promise<ServerEntryView> => {
      const server = requireServer(name);
      const entry = await storedEntry(server.source.path, name);
      if (!entry) throw new AppFailure('conflict', `server "${name}": ${server.source.path} cannot be read right now; fix the file first`);
      return { name, source: server.source.path, origin: server.source.origin, editable: server.source.userWritten, entry: maskEntry(entry) };
    },
    addServer: async ({ name, entry }) => {
      await addServer(deps.home, name, entry, since());
      await deps.reload();
      return null;
    },
    updateServer: async ({ name, entry }) => {
      refuseForeign(name);
      const restored = unmaskEntry(name, entry, await storedEntry(ownPath, name));
      await updateServer(deps.home, name, restored, since());
      await deps.reload();
      return null;
    },
    removeServer: async ({ name }) => {
      refuseForeign(name);
      await removeServer(deps.home, name, since());
      await deps.reload();
      return null;
    },
    setServerEnabled: async ({ name, enabled }) => {
      refuseForeign(name);
      await setServerEnabled(deps.home, name, enabled, since());
      await deps.reload();
      return null;
    },
    pasteServers: async ({ text }) => {
      const parsed = parseServerSnippet(text, ownSource(deps.home));
      if (!parsed.ok) throw new AppFailure('invalid_input', parsed.message);
      await addServers(deps.home, parsed.entries, since());
      await deps.reload();
      return { added: parsed.entries.map((e) => e.name) };
    },
    previewImport: async ({ client, workspaceFolder }) => {
      const preview = await previewClientImport(deps.home, client, { path: clientPath(client), ...(workspaceFolder ? { workspaceFolder } : {}) });
      return { ...preview, toAdd: preview.toAdd.map((item) => ({ ...item, entry: showInputs(item.entry) })) };
    },
    importServers: async ({ client, items, answers, workspaceFolder }) => {
      const added = await importFromClient(deps.home, deps.vault, client, {
        path: clientPath(client),
        items,
        ...(answers ? { answers } : {}),
        ...(workspaceFolder ? { workspaceFolder } : {}),
        ...since(),
      });
      await deps.reload();
      return { added };
    },
    listProjects: async () => ({ projects: (await readProjects(deps.home)).projects }),
    addProject: async ({ path }) => {
      const projects = await addProject(deps.home, path);
      await deps.reload();
      return { projects };
    },
    removeProject: async ({ path }) => {
      const projects = await removeProject(deps.home, path);
      await deps.reload();
      return { projects };
    },
    listTrust: async () => (await deps.trust()).list().map(({ name, sourcePath, approvedAt }) => ({ name, sourcePath, approvedAt, bundle: sourcePath === bundlesFile(deps.home) })),
    approveTrust: async ({ name }) => {
      const server = requireServer(name);
      const trust = await deps.trust();
      if (!trust.needsTrust(server)) {
        throw new AppFailure('invalid_input', `server "${name}" does not need approval: you wrote it in ${server.source.path}`);
      }
      await trust.approve(server);
      await deps.reconnect(name);
      return null;
    },
    revokeTrust: async ({ name, sourcePath }) => {
      const path = sourcePath ?? requireServer(name).source.path;
      if (!(await (await deps.trust()).revoke(name, path))) {
        throw new AppFailure('not_found', `server "${name}" from ${path} has no approval to revoke`);
      }
      if (find(name)?.source.path === path) await deps.reconnect(name);
      return null;
    },
  };
}


function notFound(name: string): never {
  throw new AppFailure('not_found', `no server named "${name}"`);
}

/**
 * An import preview's entry: literal env and header values masked (the other app's file may hold
 * secrets written out), each input's place shown as ${input:ID}, which names a question, not a value.
 */
function showInputs(entry: ServerEntry): ServerEntry {
  const shown = JSON.parse(JSON.stringify(entry).replace(INPUT_MARK, (_m, id: string) => JSON.stringify(`\${input:${id}}`).slice(1, -1))) as ServerEntry;
  const masked = maskEntry(shown);
  for (const field of ['env', 'headers'] as const) {
    const values = shown[field] as Record<string, unknown> | undefined;
    if (typeof values !== 'object' || values === null) continue;
    for (const [key, value] of Object.entries(values)) if (typeof value === 'string' && value.includes('${input:')) (masked[field] as Record<string, unknown>)[key] = value;
  }
  return masked;
}

