// npm start: find the Electron binary through the electron package and run the app on it.
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import { findAppRoot, resolveElectronBinary, runElectron } from './launcher';

const appRoot = findAppRoot(dirname(fileURLToPath(import.meta.url)));
const binary = await resolveElectronBinary(appRoot);
if (!binary.ok) {
  process.stderr.write(`Switchboard: ${binary.reason}\n`);
  process.exit(1);
}
const exit = await runElectron(binary.path, appRoot, process.argv.slice(2));
if (exit.signal) process.kill(process.pid, exit.signal);
else process.exit(exit.code ?? 1);
