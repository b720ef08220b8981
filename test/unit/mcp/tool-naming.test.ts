import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { baseToolName, nameTools, TOOL_NAME_PATTERN } from '../../../src-main/core/mcp/tool-naming';

const hash8 = (server: string, tool: string) => createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);

describe('tool naming', () => {
  it('namespaces by server and replaces characters LLM APIs reject', () => {
    expect(baseToolName({ server: 'github', tool: 'create_issue' })).toBe('github__create_issue');
    expect(baseToolName({ server: 'my.server', tool: 'read file/v2' })).toBe('my_server__read_file_v2');
    expect(baseToolName({ server: 'x', tool: 'y', prefix: 'gh' })).toBe('gh__y');
  });

  it('cuts names to 64 characters', () => {
    const name = baseToolName({ server: 's'.repeat(40), tool: 't'.repeat(40) });
    expect(name).toHaveLength(64);
    expect(TOOL_NAME_PATTERN.test(name)).toBe(true);
  });

  it('suffixes every member of a collision with a hash, whatever the input order, and reports it', () => {
    const a = { server: 'a.b', tool: 'echo' };
    const b = { server: 'a_b', tool: 'echo' };
    const c = { server: 'other', tool: 'echo' };
    const forward = nameTools([a, b, c]);
    const backward = nameTools([c, b, a]);
    expect(forward.named.map((n) => n.name)).toEqual([`a_b__echo_${hash8('a.b', 'echo')}`, `a_b__echo_${hash8('a_b', 'echo')}`, 'other__echo']);
    expect(backward.named.map((n) => n.name)).toEqual([...forward.named.map((n) => n.name)].reverse());
    expect(forward.collisions).toEqual([{ name: 'a_b__echo', tools: [a, b] }]);
    expect(forward.named[0]!.note).toBe('"a_b__echo" is also the name of a_b/echo; suffixed to keep them apart');
    for (const n of forward.named) expect(TOOL_NAME_PATTERN.test(n.name)).toBe(true);
  });

  it('keeps suffixed long names within 64 characters', () => {
    const long = 'x'.repeat(70);
    const { named } = nameTools([{ server: 'a', tool: long }, { server: 'a', tool: `${long}y` }]);
    for (const n of named) {
      expect(n.name).toHaveLength(64);
      expect(TOOL_NAME_PATTERN.test(n.name)).toBe(true);
    }
    expect(named[0]!.name).not.toBe(named[1]!.name);
  });

  it('explains a sanitized name', () => {
    expect(nameTools([{ server: 'my.server', tool: 'go' }]).named[0]!.note).toBe('renamed from "my.server__go" to fit ^[a-zA-Z0-9_-]{1,64}$');
  });
});
