import { readFile } from 'node:fs/promises';
import { parseConfigText, type ParsedConfigFile } from './parse-config-file';
import type { ConfigSource } from './server-config';

/** Read and parse one config file; a missing file is an empty config, any other read failure a problem. */
export async function readConfigFile(source: ConfigSource): Promise<ParsedConfigFile & { text?: string }> {
  let text: string;
  try {
    text = await readFile(source.path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { servers: [], problems: [], mcpDisabled: false };
    return { servers: [], problems: [{ file: source.path, message: `${source.path}: cannot read (${code ?? String(error)})` }], mcpDisabled: false, invalid: true };
  }
  return { ...parseConfigText(text, source), text };
}
