// What the Electron shell's main process loads of Switchboard besides Electron itself: the core, and a
// vault (in memory here; the shell's is keytar's). Compiled alone by shipped-build.ts for the memory
// figure, which must not charge the core for what only the bench or web mode loads (shipped-entry.ts).
export { SwitchboardCore } from '../../src-main/core/switchboard-core';
export { MemoryVault } from '../../src-main/core/secrets/memory-vault';
