import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Real servers and a real browser on 2 shared cores: generous ceilings; hangs still fail.
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // expect.poll's 1 s default is too short for Chromium on a loaded 2-core machine; a poll that never succeeds still fails.
    expect: { poll: { timeout: 10_000 } },
    // Real servers and a real browser: keep parallelism within a 2-core machine.
    maxWorkers: 2,
    // electron-store imports 'electron'; inlining it lets the shell's unit tests replace electron.
    server: { deps: { inline: ['electron-store'] } },
  },
});
