import { describe, expect, it } from 'vitest';
import { entryReads, namespacesMeet } from '../../../src-main/core/config/provenance';
import { validateServerEntry } from '../../../src-main/core/config/validate-server';

describe('tool namespaces (SECURITY V1, A4)', () => {
  it.each([
    ['github', 'github', true, 'the same namespace'],
    ['team', 'team__gh', true, 'a tool "gh__x" of "team" is named like tool "x" of "team__gh"'],
    ['own_', 'own', true, 'a tool "_x" of "own" is named like tool "x" of "own_"'],
    ['x'.repeat(64), `${'x'.repeat(64)}y`, true, 'names are cut at 64 characters'],
    ['x'.repeat(62), `${'x'.repeat(62)}y`, false, 'they part within the first 64 characters'],
    ['github', 'gitlab', false, 'nothing in common'],
    ['git', 'github', false, '"git__" does not begin "github__"'],
    ['gh', 'gh-enterprise', false, 'a longer name is another namespace'],
  ])('%s and %s meet: %s', (a, b, meet) => {
    expect(namespacesMeet(a, b)).toBe(meet);
    expect(namespacesMeet(b, a)).toBe(meet);
  });
});

describe('what an entry reads', () => {
  it('lists every variable, secret and command, field by field', () => {
    const checked = validateServerEntry(
      'x',
      { command: '${TOOLS}/bin/x', args: ['--root', '${HOME}/${PROJECT:-p}'], env: { TOKEN: '${secret:T}', RAW: 'plain' }, cwd: '${env:WORK}' },
      { path: '/p/.mcp.json', origin: 'project', userWritten: false },
    );
    if (!checked.ok) throw new Error(checked.message);
    expect(entryReads(checked.server)).toEqual([
      { field: 'command', kind: 'variable', name: 'TOOLS' },
      { field: 'args[1]', kind: 'variable', name: 'HOME' },
      { field: 'args[1]', kind: 'variable', name: 'PROJECT' },
      { field: 'env.TOKEN', kind: 'secret', name: 'T' },
      { field: 'cwd', kind: 'variable', name: 'WORK' },
    ]);
  });
});
