// Run by stdio-transport.test.ts in a child process: starts a stubborn server (it ignores stdin
// closing and SIGTERM, and forks a child of its own), then exits without stopping it (P4).
import { existsSync } from 'node:fs';
import { StdioProcessTransport } from '../../../src-main/core/mcp/stdio-transport';

const [stubborn, pidFile] = process.argv.slice(2) as [string, string];
const transport = new StdioProcessTransport({
  command: process.execPath,
  args: [stubborn, pidFile],
  env: { PATH: process.env.PATH ?? '' },
  maxLineBytes: 1024 * 1024,
  stopGraceMs: 300,
  onStderr: () => {},
  onNoise: () => {},
});
await transport.start();
while (!existsSync(pidFile)) await new Promise((resolve) => setTimeout(resolve, 20));
process.exit(0);
