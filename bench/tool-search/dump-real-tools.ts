// Writes bench/tool-search/real-tools.json: the tool definitions real MCP servers from npm list
// (tools/list over stdio with the raw SDK, as served). The tool-budget and search figures build
// their 2,000-tool catalog from this file, so they run without starting servers and stay comparable
// from run to run. Run again after updating the servers: `npx tsx bench/tool-search/dump-real-tools.ts`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

const pkg = (name: string) => resolve('node_modules/@modelcontextprotocol', name, 'dist/index.js');

export interface ServerDump {
  server: string;
  package: string;
  tools: Tool[];
}

async function dump(server: string, name: string, args: string[], env: Record<string, string> = {}): Promise<ServerDump> {
  // Declaring elicitation, sampling and roots makes server-everything list every tool it has.
  const client = new Client({ name: 'switchboard-bench-dump', version: '0.0.0' }, { capabilities: { elicitation: {}, sampling: {}, roots: {} } });
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] }));
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [pkg(name), ...args], env: { ...(process.env as Record<string, string>), ...env }, stderr: 'ignore' }));
  try {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const version = (await import(resolve('node_modules/@modelcontextprotocol', name, 'package.json'), { with: { type: 'json' } })).default.version as string;
    return { server, package: `@modelcontextprotocol/${name}@${version}`, tools };
  } finally {
    await client.close();
  }
}

const scratch = await mkdtemp(join(tmpdir(), 'sb-dump-'));
try {
  const servers = [
    await dump('everything', 'server-everything', ['stdio']),
    await dump('filesystem', 'server-filesystem', [scratch]),
    await dump('memory', 'server-memory', [], { MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') }),
    await dump('basic-svelte', 'server-basic-svelte', ['--stdio']),
    await dump('system-monitor', 'server-system-monitor', ['--stdio']),
    await dump('pdf', 'server-pdf', ['--stdio']),
  ];
  const file = resolve('bench/tool-search/real-tools.json');
  await writeFile(file, `${JSON.stringify(servers, null, 1)}\n`);
  process.stdout.write(`${servers.map((s) => `${s.server}: ${s.tools.length}`).join(', ')} → ${file}\n`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
