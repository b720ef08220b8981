import { describe, expect, it } from 'vitest';
import { commandSplit, heldCommandLine, joinArgs, splitCommandLine } from '../../../src-renderer/lib/servers/command-line';

describe('splitCommandLine', () => {
  it('splits words as a shell would, quotes and escapes included', () => {
    expect(splitCommandLine(`npx -y @bytebase/dbhub --transport stdio --dsn "postgres://u:p@h/db?sslmode=disable" 'a b' c\\ d`)).toEqual({
      ok: true,
      words: ['npx', '-y', '@bytebase/dbhub', '--transport', 'stdio', '--dsn', 'postgres://u:p@h/db?sslmode=disable', 'a b', 'c d'],
    });
  });

  it("keeps variables as written: the core expands Switchboard's own under its provenance rules", () => {
    expect(splitCommandLine('run ${secret:PG} ${env:HOME} $HOME')).toEqual({ ok: true, words: ['run', '${secret:PG}', '${env:HOME}', '$HOME'] });
  });

  it('keeps a glob as text: no shell expands it', () => {
    expect(splitCommandLine('ls *.txt')).toEqual({ ok: true, words: ['ls', '*.txt'] });
  });

  it('refuses shell syntax that would do something, naming it', () => {
    for (const [line, op] of [
      ['a | tee /tmp/x', '|'],
      ['a && curl evil.example', '&&'],
      ['a; rm -rf ~', ';'],
      ['a > /etc/passwd', '>'],
      ['a $(id)', '('],
      ['a & b', '&'],
      ['a < b', '<'],
    ] as const) {
      const split = splitCommandLine(line);
      expect(split.ok, line).toBe(false);
      if (!split.ok) expect(split.message).toContain(`"${op}"`);
    }
    const comment = splitCommandLine('a # b');
    expect(comment.ok).toBe(false);
    if (!comment.ok) expect(comment.message).toContain('comment');
  });
});

describe('joinArgs', () => {
  it('quotes so that splitting gives the same list back', () => {
    const args = ['-y', 'a b', '${secret:PG}', "it's", '$HOME', 'x;y', ''];
    expect(splitCommandLine(joinArgs(args))).toEqual({ ok: true, words: args });
  });
});

describe('commandSplit', () => {
  it('leaves a one-word command alone', () => {
    expect(commandSplit('npx')).toBeUndefined();
    expect(commandSplit('  /usr/bin/node  ')).toBeUndefined();
    expect(commandSplit('')).toBeUndefined();
  });

  it('splits a command line into the program and its arguments', () => {
    expect(commandSplit('npx -y pkg')).toEqual({ ok: true, program: 'npx', args: ['-y', 'pkg'] });
    expect(commandSplit('"/Applications/My App/bin/server" --stdio')).toEqual({ ok: true, program: '/Applications/My App/bin/server', args: ['--stdio'] });
  });

  it('passes on a refusal', () => {
    expect(commandSplit('a | b')).toMatchObject({ ok: false });
  });
});

describe('heldCommandLine', () => {
  it('reads a whole command line written into an entry\'s "command", never a path with spaces or an entry with its args', () => {
    expect(heldCommandLine('npx -y @scope/pkg', undefined)).toEqual({ ok: true, program: 'npx', args: ['-y', '@scope/pkg'] });
    expect(heldCommandLine('npx a | b', [])).toMatchObject({ ok: false });
    expect(heldCommandLine('/opt/My App/server', undefined)).toBeUndefined();
    expect(heldCommandLine('npx -y pkg', ['--flag'])).toBeUndefined();
    expect(heldCommandLine('npx', undefined)).toBeUndefined();
    expect(heldCommandLine(42, undefined)).toBeUndefined();
  });
});
