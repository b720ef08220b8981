import { describe, expect, it } from 'vitest';
import type { RemoteServerConfig, StdioServerConfig } from '../../../src-main/core/config/server-config';
import { diagnoseServer, serverFix } from '../../../src-main/core/diagnosis/server-diagnosis';

const fix = serverFix;

const source = { path: '/home/u/.config/Switchboard/servers.json', origin: 'switchboard' as const, userWritten: true };
const npx: StdioServerConfig = { kind: 'stdio', name: 'gh', command: 'npx', args: [], env: {}, enabled: true, timeout: 30, toolTimeout: 120, approval: 'ask', source };
const web: RemoteServerConfig = { kind: 'remote', name: 'web', url: 'https://x/mcp', headers: {}, transport: 'auto', enabled: true, timeout: 30, toolTimeout: 120, approval: 'ask', source };

describe('serverFix', () => {
  it('says how to fix command-not-found, timeouts and sign-in', () => {
    expect(fix(npx, { kind: 'error', reason: 'command not found: npx (PATH searched: /usr/bin)' })).toBe(
      `install npx (for npx: install Node.js), or put its full path in "command"; Switchboard searches your login shell's PATH`,
    );
    expect(fix(npx, { kind: 'error', reason: 'timed out after 30 s during initialize' })).toBe(
      'it did not finish initialize in 30 s: run it by hand to see whether it starts (first runs of npx download packages), or raise "timeout" for "gh"',
    );
    expect(fix(web, { kind: 'needs_auth', reason: 'HTTP 401: sign-in required' })).toBe('sign in: Servers → Sign in in Switchboard, or run: switchboard login web');
  });

  it('reads a near miss of a common runner as a typo, not as a program to install', () => {
    const typos: [string, string][] = [['npxx', 'npx'], ['nxp', 'npx'], ['uxv', 'uvx'], ['ndoe', 'node'], ['pyhton', 'python']];
    for (const [typed, meant] of typos) {
      expect(fix({ ...npx, command: typed }, { kind: 'error', reason: `command not found: ${typed} (PATH searched: /usr/bin)` })).toBe(
        `check the spelling: did you mean ${meant}? Change "command" for "gh" in ${source.path}, or Edit it in Switchboard`,
      );
    }
    // A program that is simply missing still gets the install advice, one a letter from a runner too.
    for (const real of ['npm', 'uv']) expect(fix({ ...npx, command: real }, { kind: 'error', reason: `command not found: ${real} (PATH searched: /usr/bin)` })).toMatch(new RegExp(`^install ${real} `));
    expect(fix({ ...npx, command: 'mcp-server-git' }, { kind: 'error', reason: 'command not found: mcp-server-git (PATH searched: /usr/bin)' })).toMatch(/^install mcp-server-git /);
  });

  it('tells how to split a whole command line written into "command"', () => {
    const whole = { ...npx, command: 'npx -y @modelcontextprotocol/server-memory' };
    const reason = `command not found: "${whole.command}" is a whole command line; "command" takes only the program (npx), "args" the rest`;
    expect(diagnoseServer(whole, { kind: 'error', reason })).toEqual({
      class: 'terminal',
      fix: `split it: the program in "command", each argument an item of "args", for "gh" in ${source.path} — or Edit it in Switchboard, whose Command field splits a pasted line`,
    });
  });

  it('does not call a server that quit with exit code 0 a crash: it may not be an MCP server, or needs an argument', () => {
    const once = { ...npx, command: 'node', args: ['-e', '1'] };
    expect(fix(once, { kind: 'error', reason: 'exited with code 0 during initialize' })).toBe(
      'it quit at once, reporting success (exit code 0): the command may not start an MCP server, or needs an argument to serve; run it by hand to see what it does: node -e 1',
    );
    expect(diagnoseServer(once, { kind: 'error', reason: 'exited with code 0 during initialize', stderrTail: ['usage: tool [serve]'] })?.fix).toBe(
      'it quit at once, reporting success (exit code 0): the command may not start an MCP server, or needs an argument to serve; its last stderr lines are below',
    );
    expect(fix(once, { kind: 'error', reason: 'exited with code 1 during initialize' })).toBe('it crashed while starting without a word on stderr; run it by hand to see what it says: node -e 1');
  });

  it('sends a missing secret to the Secrets page, a page of its own in the sidebar (there is no Settings → Secrets)', () => {
    expect(fix(npx, { kind: 'error', reason: 'secret bundle.dice.token is not set' })).toBe('store the secret on the Secrets page (it lives in the OS keychain), then reconnect');
    const keyed = { ...web, headers: { 'X-Api-Key': '${secret:web-key}' } };
    for (const text of [fix(web, { kind: 'error', reason: 'HTTP 401: x asks for credentials and offers no OAuth sign-in' }), fix(keyed, { kind: 'error', reason: 'HTTP 401: x asks for credentials and offers no OAuth sign-in' })]) {
      expect(text).toContain('Secrets page');
      expect(text).not.toContain('Settings →');
    }
  });

  it('sends a server the policy refused to the administrator, not to run it by hand (SECURITY X2)', () => {
    expect(diagnoseServer(npx, { kind: 'error', reason: 'refused: this server is blocked (set by your organization)' })).toEqual({
      class: 'terminal',
      fix: 'your organization decides which servers may run: ask your administrator, or remove this server',
    });
    expect(fix(npx, { kind: 'error', reason: 'refused: the policy set by your organization is broken (/etc/switchboard/policy.json is not valid JSON: …)' })).toBe(
      'ask your administrator to fix the policy file; until then it refuses every server. Reconnect once it is fixed',
    );
  });

  it('has nothing to say about a healthy or starting server', () => {
    expect(fix(npx, { kind: 'connected', reason: 'connected over stdio' })).toBeUndefined();
    expect(fix(npx, { kind: 'connecting', reason: 'starting npx' })).toBeUndefined();
  });

  it('points at the file for a disabled server and at the approval for an untrusted one', () => {
    expect(fix(npx, { kind: 'disabled', reason: `disabled in ${source.path}` })).toBe(`enable it in the app, or set "enabled": true for "gh" in ${source.path}`);
    expect(fix(npx, { kind: 'trust_required', reason: 'defined in /p/.mcp.json …' })).toBe(
      "if you trust this project, approve it: Approve and run on its row in Switchboard's Servers page, or run: switchboard approve gh",
    );
  });

  it('sends a secret the keychain could not give to the keychain, not to the server\'s URL or command', () => {
    const reason = 'secret api could not be read from the OS keychain: the OS keychain is not available (Cannot autolaunch D-Bus without X11 $DISPLAY)';
    for (const config of [web, npx]) {
      const text = fix(config, { kind: 'error', reason });
      expect(text).toBe('start a Secret Service (gnome-keyring or KWallet) and unlock it, then reconnect: the secret is read from the OS keychain when the server starts, never from a file');
    }
  });

  it('says how to get a keychain when sign-in has none to keep its tokens in', () => {
    const reason = 'the OS keychain is not available (Cannot autolaunch D-Bus without X11 $DISPLAY); on Linux, Switchboard needs a Secret Service such as gnome-keyring or KWallet running and unlocked';
    expect(fix(web, { kind: 'error', reason })).toBe(
      'start a Secret Service (gnome-keyring or KWallet) and unlock it, then reconnect: sign-in tokens are kept only in the OS keychain, never in a file',
    );
  });

  it.each([
    [
      'no header: which one to add, with the challenge\'s scheme',
      {},
      'HTTP 401: x asks for credentials (WWW-Authenticate: Basic) and offers no OAuth sign-in',
      `it wants an API key: add the header it expects under "headers" for "web" in ${source.path}, e.g. "Authorization": "Basic \${secret:web-api-key}", and store the key on the Secrets page`,
    ],
    [
      'no header and no scheme: Bearer as the example',
      {},
      'HTTP 401: x asks for credentials and offers no OAuth sign-in',
      `it wants an API key: add the header it expects under "headers" for "web" in ${source.path}, e.g. "Authorization": "Bearer \${secret:web-api-key}", and store the key on the Secrets page`,
    ],
    [
      'a header from a secret and a variable',
      { 'X-Api-Key': '${secret:web-key}', 'X-Team': '${TEAM:-core}' },
      'HTTP 401: x asks for credentials and offers no OAuth sign-in',
      'it refused the "X-Api-Key", "X-Team" headers: check the secret web-key (on the Secrets page) and the environment variable TEAM it is built from',
    ],
    [
      'a header written out in the file',
      { Authorization: 'Bearer abc' },
      'HTTP 401: x asks for credentials and offers no OAuth sign-in',
      `it refused the "Authorization" header written in ${source.path}: check the value`,
    ],
  ])('names what to set for a 401 from a server without OAuth: %s', (_what, headers, reason, hint) => {
    expect(fix({ ...web, headers }, { kind: 'error', reason })).toBe(hint);
  });

  it('gives a next step that shows the cause when nothing more is known, never "see the log below"', () => {
    const local = { ...npx, args: ['-y', '@scope/server', '--port', '1'] };
    expect(fix(local, { kind: 'error', reason: 'something odd during initialize' })).toBe('run it by hand to see what it says: npx -y @scope/server --port 1');
    expect(fix(web, { kind: 'error', reason: 'fetch failed (other side closed) during initialize' })).toBe(
      'check that https://x/mcp is up and serves MCP at that path (open it with curl), then reconnect',
    );
    expect(fix(web, { kind: 'backing_off', reason: 'reconnecting', nextAttemptAt: 0 })).toBe(
      'it dropped and Switchboard is reconnecting on its own; if this repeats, check that https://x/mcp is up',
    );
  });
});

describe('diagnoseServer classes', () => {
  it.each([
    ['command not found: npx (PATH searched: /usr/bin)', 'terminal'],
    ['exited with code 1 during initialize', 'terminal'],
    ['timed out after 30 s during initialize', 'transient'],
    ['connection refused by x', 'transient'],
    ['HTTP 503 from https://x/mcp during initialize', 'transient'],
    ['HTTP 404 from https://x/mcp during initialize', 'terminal'],
    ['HTTP 403: access denied by x', 'terminal'],
    ['secret gh-token is not set', 'terminal'],
  ])('%s is %s', (reason, kind) => {
    expect(diagnoseServer(web, { kind: 'error', reason })?.class).toBe(kind);
  });

  it('needs_auth and trust_required are terminal, backing_off transient, a disabled or healthy server has none', () => {
    expect(diagnoseServer(web, { kind: 'needs_auth', reason: 'HTTP 401: sign-in required' })?.class).toBe('terminal');
    expect(diagnoseServer(npx, { kind: 'trust_required', reason: '…' })?.class).toBe('terminal');
    expect(diagnoseServer(npx, { kind: 'backing_off', reason: 'killed by SIGKILL; retrying in 1 s', nextAttemptAt: 0 })?.class).toBe('transient');
    expect(diagnoseServer(npx, { kind: 'disabled', reason: 'disabled in x' })).toBeUndefined();
    expect(diagnoseServer(npx, { kind: 'connected', reason: 'connected' })).toBeUndefined();
  });
});
