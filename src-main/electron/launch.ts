// npm start: find the Electron binary through the electron package and run the app on it.
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import { findAppRoot, resolveElectronBinary, runElectron } from './launcher';

/** On a terminal, a note while the first run downloads Electron; wiped before anything else is printed. */
function transientNote(text: string): () => void {
  if (!process.stderr.isTTY) return () => {};
  let shown = false;
  const timer = setTimeout(() => {
    shown = true;
    process.stderr.write(text);
  }, 700);
  return () => {
    clearTimeout(timer);
    if (shown) process.stderr.write('\r\x1b[2K');
  };
}

const appRoot = findAppRoot(dirname(fileURLToPath(import.meta.url)));
const clearNote = transientNote('Switchboard: getting the Electron runtime (the first run downloads it)…');
const binary = await resolveElectronBinary(appRoot);
clearNote();
if (!binary.ok) {
  process.stderr.write(`Switchboard: ${binary.reason}\n`);
  process.exit(1);
}
const exit = await runElectron(binary.path, appRoot, process.argv.slice(2));
if (exit.signal) process.kill(process.pid, exit.signal);
else process.exit(exit.code ?? 1);
