/**
 * A command line as a person pastes it (`npx -y @bytebase/dbhub --dsn "postgres://…"`), split into the
 * program and its arguments the way a POSIX shell splits words — quotes and escapes included — by
 * shell-quote's parser. No shell ever runs it (SECURITY P2): shell syntax that would do something
 * (a pipe, a redirect, `&&`, a comment) is refused by name, since here it would only reach the program as text.
 */
import { parse, quote } from 'shell-quote';

export type SplitLine = { ok: true; words: string[] } | { ok: false; message: string };

/**
 * `$NAME` and `${NAME}` stay as written: Switchboard's own `${secret:NAME}` and `${env:NAME}` are
 * expanded by the core under its provenance rules, never here.
 */
const keepVariable = (name: string): string => (name.includes(':') ? `\${${name}}` : `$${name}`);

export function splitCommandLine(text: string): SplitLine {
  const words: string[] = [];
  for (const token of parse(text, keepVariable)) {
    if (typeof token === 'string') words.push(token);
    else if ('comment' in token) return { ok: false, message: `"#${token.comment}" would be a comment in a shell; no shell runs this command, so remove it or quote the "#"` };
    else if (token.op === 'glob') words.push(token.pattern);
    else return { ok: false, message: `"${token.op}" is shell syntax; Switchboard runs the command directly, without a shell, so remove it (or quote it if the program expects it as an argument)` };
  }
  return { ok: true, words };
}

/** Arguments as one line, quoted so that splitting it again gives the same list. */
export function joinArgs(args: readonly string[]): string {
  return quote([...args]);
}

/**
 * What the Command field holds, read as a command line: the program and any arguments typed after it.
 * One word (or an empty field) means no split is needed.
 */
export function commandSplit(command: string): { ok: true; program: string; args: string[] } | { ok: false; message: string } | undefined {
  if (!/\s|["'\\]/.test(command.trim())) return undefined;
  const split = splitCommandLine(command);
  if (!split.ok) return split;
  const [program, ...args] = split.words;
  if (program === undefined) return { ok: false, message: 'the command is empty' };
  if (args.length === 0 && program === command.trim()) return undefined;
  return { ok: true, program, args };
}

/**
 * An entry written with a whole command line in "command" and no "args" (`"command": "npx -y pkg"`): its
 * split (or why it cannot be split), else undefined. A path with spaces (`/opt/My App/server`) is one
 * program: only a first word that is a bare name counts.
 */
export function heldCommandLine(command: unknown, args: unknown): ReturnType<typeof commandSplit> {
  if (typeof command !== 'string' || (Array.isArray(args) && args.length > 0)) return undefined;
  if (/[/\\]/.test(command.trim().split(/\s+/)[0]!)) return undefined;
  return commandSplit(command);
}
