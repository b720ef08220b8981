/**
 * The folders are the architecture: this keeps them layered and the imports cycle-free (`npm run lint`).
 * Type-only imports count (tsPreCompilationDeps): a type cycle is still a cycle in the design.
 * test/unit/build/dependency-rules.test.ts proves each rule fails on a tiny tree that breaks it.
 */
const core = '^src-main/core/';
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'An import cycle: one of these modules must not know the other (put the shared words in a leaf module).', from: {}, to: { circular: true } },
    { name: 'core-runs-in-plain-node', severity: 'error', comment: 'The core must not import the shells (host, electron) or the entry points.', from: { path: core }, to: { path: ['^src-main/(host|electron)/', '^src-main/[^/]+\\.ts$', '(^|/)node_modules/electron/'] } },
    { name: 'mcp-below-the-call-path', severity: 'error', comment: 'mcp/ is the bottom layer of the call path: it names calls in mcp/call-vocabulary.ts and knows no caller.', from: { path: `${core}mcp/` }, to: { path: `${core}(tools|chat|approvals|traces|apps)/` } },
    { name: 'tools-below-chat', severity: 'error', comment: 'tools/ serve the chat, the panels, apps and the CLI alike: they must not know the chat.', from: { path: `${core}(tools|approvals|traces)/` }, to: { path: `${core}(chat|apps)/` } },
    { name: 'traces-below-tools', severity: 'error', comment: 'A trace is told a call in the call vocabulary; it does not know the caller.', from: { path: `${core}traces/` }, to: { path: `${core}(tools|approvals)/` } },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(out|node_modules)/' },
    moduleSystems: ['es6', 'cjs'],
  },
};
