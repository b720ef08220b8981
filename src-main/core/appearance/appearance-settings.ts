import { join } from 'node:path';
import { z } from 'zod';
import { themeChoice, type Appearance } from '../../../src-preload/contract/appearance';
import { AppFailure } from '../app-error';
import { readJsonFile, writeFileAtomic } from '../config/atomic-file';
import type { Logger } from '../ports';

export const appearanceFile = (home: string): string => join(home, 'appearance.json');

const DEFAULT_APPEARANCE: Appearance = { theme: 'system' };
const appearanceSchema = z.object({ theme: themeChoice });

/**
 * The UI's look, kept in the data home beside the chat settings so Electron, web mode and every
 * window share it. An unreadable file means the default (follow the OS), and is said in the log.
 */
export class AppearanceSettings {
  private current: Appearance = { ...DEFAULT_APPEARANCE };
  private readonly listeners = new Set<(appearance: Appearance) => void>();

  constructor(
    private readonly file: string,
    private readonly logger?: Logger,
  ) {}

  async load(): Promise<void> {
    const read = await readJsonFile(this.file, appearanceSchema);
    if (read.kind === 'ok') this.current = read.value;
    else if (read.kind === 'invalid') this.logger?.warn(`ignoring unreadable appearance settings ${this.file}; following the OS`, { error: read.error });
  }

  get(): Appearance {
    return { ...this.current };
  }

  async set(next: Appearance): Promise<Appearance> {
    // The contract parses every payload already; this guards callers inside main (the tray).
    const parsed = appearanceSchema.safeParse(next);
    if (!parsed.success) throw new AppFailure('invalid_input', parsed.error.issues[0]!.message);
    await writeFileAtomic(this.file, JSON.stringify(parsed.data, null, 2));
    this.current = parsed.data;
    for (const listener of this.listeners) listener(this.get());
    return this.get();
  }

  onChange(listener: (appearance: Appearance) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
