// Web mode: the same core and UI served to a browser on 127.0.0.1 (`npm run web`).
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { dataHome } from './core/data-home';
import { consoleLogger } from './core/ports';
import { KeytarVault } from './core/secrets/keytar-vault';
import { SwitchboardCore, WINDOW_FIRST_MS } from './core/switchboard-core';
import { SystemOpener } from './host/system-opener';
import { startWebHost, type WebHost } from './host/web-host';

const USAGE = 'usage: node out/main/web.js [--port N] [--open] [switchboard://install?…]';

function readOptions(argv: string[]): { port: number; open: boolean; link?: string } {
  let values: { port?: string; open?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { port: { type: 'string' }, open: { type: 'boolean' }, help: { type: 'boolean' } } }));
  } catch (error) {
    // Node's message goes on about positional arguments, which we take none of.
    throw new Error(String((error as Error).message).replace(/\. To specify a positional argument.*$/s, ''), { cause: error });
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a whole number from 0 to 65535, got "${values.port}"`);
  // An install link, as the desktop app takes one from the OS: the page opens its install form.
  if (positionals.length > 1 || (positionals[0] !== undefined && !positionals[0].toLowerCase().startsWith('switchboard:'))) {
    throw new Error(`the only argument web mode takes is one switchboard://install?… link, got ${positionals.map((p) => JSON.stringify(p)).join(' ')}`);
  }
  return { port, open: values.open ?? false, ...(positionals[0] ? { link: positionals[0] } : {}) };
}

async function main(): Promise<void> {
  let options: ReturnType<typeof readOptions>;
  try {
    options = readOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`switchboard web: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
  const opener = new SystemOpener();
  const core = new SwitchboardCore({ home: dataHome(), vault: new KeytarVault(), opener, logger: consoleLogger, holdServersForWindowMs: WINDOW_FIRST_MS });
  // Assigned once listening; the signal handlers below may run before that.
  let host: WebHost | undefined = undefined;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await host?.close();
    await core.stop();
    process.exit(0);
  };
  // Before anything is printed: whoever reads the URL may signal us the moment it appears.
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  await core.start();
  if (options.link) core.installLinks.offer(options.link);
  host = await startWebHost({
    handlers: core.handlers,
    events: core.events,
    rendererDir: fileURLToPath(new URL('../renderer', import.meta.url)),
    port: options.port,
    // The page's first question is the servers snapshot: build it (catalog, token estimates) while the browser compiles the script.
    onScriptSent: () => {
      try {
        core.snapshot();
      } catch (error) {
        console.error(`switchboard web: could not prepare the servers snapshot: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  });
  console.log(`Switchboard is running at ${host.url}`);

  if (options.open) await opener.open(host.url).catch((error: unknown) => console.error(error instanceof Error ? error.message : String(error)));
}

main().catch((error: unknown) => {
  console.error(`switchboard web: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
