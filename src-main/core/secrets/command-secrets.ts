import { spawn } from 'node:child_process';
import { resolveOnLoginPath, type LoginPathSource } from '../mcp/login-path';
import { launchWithoutShell } from '../mcp/windows-shim';

/**
 * ${cmd:…} values: a secret printed by a command the person wrote into Switchboard's own
 * servers.json, such as a password manager's CLI (`${cmd:op read op://Private/GitHub/token}`).
 * The text is split into words (quotes group words; nothing else is special) and run without a
 * shell, with a time limit; its standard output, one trailing newline dropped, is the value, kept
 * in memory for the session. What it prints — stdout and stderr — is never logged and never put
 * into a message (SECURITY S4). Which files may ask for one is the expander's rule.
 */
export const COMMAND_TIMEOUT_MS = 30_000;
const MAX_OUTPUT_BYTES = 64 * 1024;
/** Variables that would change how a Node or Electron child runs (as for servers, SECURITY P3). */
const STRIPPED = [/^ELECTRON_/i, /^NODE_OPTIONS$/i];

export class CommandSecretFailure extends Error {}

/** Words of a command: whitespace separates, "…" and '…' group; an unclosed quote is an error. */
export function splitCommand(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (quote) throw new CommandSecretFailure(`\${cmd:${text}} has an unclosed ${quote}`);
  if (word !== undefined) words.push(word);
  if (words.length === 0) throw new CommandSecretFailure('${cmd:} names no command');
  return words;
}

export interface CommandSecretsOptions {
  loginPath: LoginPathSource;
  timeoutMs?: number;
}

export class CommandSecrets {
  /** One run per command text for the session; a failure is forgotten, so fixing it and reconnecting works. */
  private readonly values = new Map<string, Promise<string>>();

  constructor(private readonly options: CommandSecretsOptions) {}

  read(text: string): Promise<string> {
    let value = this.values.get(text);
    if (!value) {
      value = this.run(text);
      this.values.set(text, value);
      value.catch(() => this.values.delete(text));
    }
    return value;
  }

  private async run(text: string): Promise<string> {
    const [command, ...args] = splitCommand(text);
    const { resolved, path: loginPath } = await resolveOnLoginPath(command!, this.options.loginPath);
    if (!resolved.ok) throw new CommandSecretFailure(`\${cmd:${text}}: ${resolved.message}`);
    const launch = await launchWithoutShell(resolved.path, args, loginPath);
    if (!launch.ok) throw new CommandSecretFailure(`\${cmd:${text}}: ${launch.message}`);
    const env: Record<string, string | undefined> = { ...process.env, PATH: loginPath };
    for (const key of Object.keys(env)) if (STRIPPED.some((pattern) => pattern.test(key))) delete env[key];
    const timeoutMs = this.options.timeoutMs ?? COMMAND_TIMEOUT_MS;
    return new Promise<string>((resolve, reject) => {
      const fail = (why: string) => reject(new CommandSecretFailure(`\${cmd:${text}} ${why}`));
      const child = spawn(launch.command, launch.args, { shell: false, stdio: ['ignore', 'pipe', 'pipe'], env, windowsHide: true });
      const chunks: Buffer[] = [];
      let size = 0;
      let stopped: string | undefined;
      const stop = (why: string) => {
        stopped ??= why;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(() => stop(`did not finish within ${timeoutMs / 1000} s`), timeoutMs);
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_OUTPUT_BYTES) stop(`printed more than ${MAX_OUTPUT_BYTES / 1024} KiB`);
        else chunks.push(chunk);
      });
      // Read and dropped: a full pipe would stall the command; what it says may name the secret.
      child.stderr.resume();
      child.on('error', (error) => {
        clearTimeout(timer);
        fail(`could not start: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (stopped) return fail(`${stopped}; it was stopped`);
        if (code !== 0) return fail(`failed (exit code ${code}); run it in a terminal to see why`);
        const value = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
        if (value === '') return fail('printed nothing');
        resolve(value);
      });
    });
  }
}
