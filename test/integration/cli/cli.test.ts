import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-runner';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const cli = join(root, 'src-main/cli.ts');
const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const crash = join(root, 'test/fixtures/servers/crash-on-start.mjs');

let home: string;

/** Run the CLI as a separate process, the way a user does, with SWITCHBOARD_HOME pointing at a temp home. */
function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runIn(home, ...args);
}
function runIn(dataHome: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: root, env: { ...process.env, SWITCHBOARD_HOME: dataHome }, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'switchboard-cli-'));
  const servers = {
    everything: { command: 'node', args: [everything, 'stdio'] },
    crash: { command: 'node', args: [crash] },
    missing: { command: 'no-such-tool-xyz' },
    off: { command: 'node', enabled: false },
  };
  await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }));
});
afterAll(() => rm(home, { recursive: true, force: true }));

describe('switchboard CLI', () => {
  it('status --json lists every server with source, state, reason and a fix, and exits 1 when some are down', async () => {
    const { code, stdout } = await run('status', '--json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { servers: Record<string, unknown>[]; configPath: string };
    const byName = Object.fromEntries(report.servers.map((s) => [s.name, s]));
    const source = join(home, 'servers.json');
    expect(report.configPath).toBe(source);
    expect(byName.everything).toMatchObject({ source, state: 'connected', reason: 'connected over stdio', tools: expect.any(Number) });
    expect(byName.everything).not.toHaveProperty('fix');
    expect(byName.crash).toMatchObject({
      state: 'error',
      reason: 'exited with code 1 during initialize',
      fix: 'it crashed while starting; its last stderr lines are below — often a missing env variable or argument',
      class: 'terminal',
      stderr: ['fatal: API_KEY is not set'],
    });
    expect(byName.missing).toMatchObject({
      state: 'error',
      fix: `install no-such-tool-xyz (for npx: install Node.js), or put its full path in "command"; Switchboard searches your login shell's PATH`,
    });
    expect(String(byName.missing!.reason)).toMatch(/^command not found: no-such-tool-xyz \(PATH searched: .+\)$/);
    expect(byName.off).toMatchObject({ state: 'disabled', reason: `disabled in ${source}` });
    expect(byName.off).not.toHaveProperty('class');
  });

  it('status says a note (a field a project file may not set) as a note, apart from a problem', async () => {
    const other = await mkdtemp(join(tmpdir(), 'switchboard-cli-'));
    try {
      const project = join(other, 'project');
      await mkdir(project);
      await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { proj: { command: 'node', args: [everything, 'stdio'], approval: 'auto' } } }));
      await writeFile(join(other, 'projects.json'), JSON.stringify({ projects: [project] }));
      await writeFile(join(other, 'servers.json'), JSON.stringify({ servers: { both: { command: 'x', url: 'https://example.com/mcp' } } }));
      const { stdout } = await runIn(other, 'status');
      expect(stdout).toContain(`\n  note: server "proj": "approval": "auto" in ${join(project, '.mcp.json')} is ignored`);
      expect(stdout).toMatch(/\n {2}! .*server "both": has both "command" and "url"/);
      expect(stdout).not.toMatch(/\n {2}! .*"approval": "auto"/);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('status prints a readable doctor report', async () => {
    const { stdout } = await run('status');
    expect(stdout).toContain('MCP 1/3 · config ');
    expect(stdout).toContain('○ crash  error  (stdio, 0 tools)\n  exited with code 1 during initialize\n  fix (terminal): it crashed while starting');
    expect(stdout).toContain('  | fatal: API_KEY is not set');
  });

  it('tools lists the namespaced catalog of one server', async () => {
    const { code, stdout } = await run('tools', 'everything', '--json');
    expect(code).toBe(0);
    const tools = JSON.parse(stdout) as { name: string; qualifiedName: string; server: string }[];
    expect(tools.find((t) => t.qualifiedName === 'everything__echo')).toMatchObject({ name: 'echo', server: 'everything' });
    expect(new Set(tools.map((t) => t.server))).toEqual(new Set(['everything']));
  });

  it('tools of an unknown server fails with exit 1 and names it', async () => {
    const { code, stderr } = await run('tools', 'nope');
    expect(code).toBe(1);
    // toContain, not toBe: under load Node itself may add a warning line; our line must be there exactly.
    expect(stderr).toContain('switchboard: no server named "nope"\n');
  });

  it('call runs one tool and prints its text', async () => {
    const { code, stdout } = await run('call', 'everything', 'echo', '{"message":"from the cli"}');
    expect(code).toBe(0);
    expect(stdout).toBe('Echo: from the cli\n');
  });

  it('call --json prints the mapped result', async () => {
    const { code, stdout } = await run('call', 'everything', 'get-sum', '{"a":2,"b":3}', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }], truncatedChars: 0 });
  });

  it('call prints structured content once when the server also sent it as text', async () => {
    const { code, stdout } = await run('call', 'everything', 'get-structured-content', '{"location":"New York"}');
    expect(code).toBe(0);
    const printed = JSON.parse(stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({ temperature: expect.any(Number) });
    const json = await run('call', 'everything', 'get-structured-content', '{"location":"New York"}', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ structuredContent: printed });
  });

  it('call refuses arguments that do not match the schema and a disabled tool, before anything runs', async () => {
    const bad = await run('call', 'everything', 'get-sum', '{"a":"two","b":3}');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('switchboard: arguments for tool "get-sum" on server "everything" do not match its input schema: a: must be a number\n  [misuse] change the arguments to match the tool\'s input schema (the message says which field is wrong)\n');
    await writeFile(join(home, 'tool-settings.json'), JSON.stringify({ disabled: { everything: ['echo'] } }));
    try {
      const off = await run('call', 'everything', 'echo', '{"message":"x"}');
      expect(off.code).toBe(1);
      expect(off.stderr).toContain('switchboard: tool "echo" on server "everything" is disabled; turn it on in the tools list to use it\n  [misuse] turn it on in everything\'s tools list, or call another tool\n');
    } finally {
      await rm(join(home, 'tool-settings.json'));
    }
  });

  it('call to a server that is down fails with exit 1 and the reason', async () => {
    const { code, stderr } = await run('call', 'crash', 'anything');
    expect(code).toBe(1);
    expect(stderr).toContain('switchboard: server "crash" is not connected (error: exited with code 1 during initialize)\n  [terminal] it crashed while starting;');
  });

  it('usage errors exit 2 and print the usage', async () => {
    const bad = await run('call', 'everything', 'echo', '[1,2]');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`switchboard: json-args must be a JSON object, e.g. '{"message":"hi"}'\nusage:`);
    const unknown = await run('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('switchboard: unknown command "frobnicate"\nusage:');
    const none = await run();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('switchboard: no command given\nusage:');
  });
});

describe('switchboard call, with a server no other test calls', () => {
  it('prints server-filesystem\'s listing once, not again as its structured { "content": … }', async () => {
    const filesystem = join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
    const fsHome = await mkdtemp(join(tmpdir(), 'switchboard-cli-fs-'));
    try {
      await mkdir(join(fsHome, 'shared'));
      await writeFile(join(fsHome, 'shared', 'notes.txt'), 'hi');
      await writeFile(join(fsHome, 'servers.json'), JSON.stringify({ servers: { files: { command: 'node', args: [filesystem, join(fsHome, 'shared')] } } }));
      const listed = await runIn(fsHome, 'call', 'files', 'list_directory', JSON.stringify({ path: join(fsHome, 'shared') }));
      expect(listed.code).toBe(0);
      expect(listed.stdout).toBe('[FILE] notes.txt\n');
      // The structured content is still there for a script that asks for it.
      const json = await runIn(fsHome, 'call', 'files', 'list_directory', JSON.stringify({ path: join(fsHome, 'shared') }), '--json');
      expect(JSON.parse(json.stdout)).toMatchObject({ structuredContent: { content: '[FILE] notes.txt' } });
    } finally {
      await rm(fsHome, { recursive: true, force: true });
    }
  });
});

describe('switchboard status under an administrator\'s policy (SECURITY X2)', () => {
  it('says what the policy decides, and that a server set to approval: auto asks anyway; a broken file is named', async () => {
    const policyHome = await mkdtemp(join(tmpdir(), 'switchboard-cli-policy-'));
    try {
      const policy = join(policyHome, 'policy.json');
      await writeFile(join(policyHome, 'servers.json'), JSON.stringify({ servers: { box: { command: 'node', args: [everything, 'stdio'], approval: 'auto' }, plain: { command: 'node', enabled: false } } }));
      await writeFile(policy, JSON.stringify({ approvals: 'always-ask', installs: 'off' }));
      const locked = await runCli(policyHome, ['status'], { env: { SWITCHBOARD_POLICY: policy } });
      expect(locked.stdout).toContain(`  policy set by your organization (${policy}): every tool call asks; nothing may be installed\n`);
      expect(locked.stdout).toMatch(/● box {2}connected[^\n]*\n {2}connected over stdio\n {2}approval: auto, but every call asks \(set by your organization\)\n/);
      expect(locked.stdout.match(/every call asks/g)).toHaveLength(1);
      const json = JSON.parse((await runCli(policyHome, ['status', '--json'], { env: { SWITCHBOARD_POLICY: policy } })).stdout) as { policy: { approvalsLocked: boolean; autoOverridden: string[] } };
      expect(json.policy).toMatchObject({ approvalsLocked: true, autoOverridden: ['box'] });

      await writeFile(policy, '{"approvals": ');
      const broken = await runCli(policyHome, ['status'], { env: { SWITCHBOARD_POLICY: policy } });
      expect(broken.code).toBe(1);
      expect(broken.stdout).toContain(`  ! the policy set by your organization is broken (${policy} is not valid JSON`);
      expect(broken.stdout).toContain('every server and install is refused until it is fixed\n');
      const none = await runCli(policyHome, ['status'], { env: { SWITCHBOARD_POLICY: join(policyHome, 'absent.json') } });
      expect(none.stdout).not.toMatch(/^ {2}(!|policy) /m);
      expect(none.stdout).not.toContain('every call asks');
    } finally {
      await rm(policyHome, { recursive: true, force: true });
    }
  });
});
