import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppFailure } from '../app-error';

/**
 * A bundle (or a chat image) picked or dropped in the UI reaches main in chunks (web mode's socket
 * takes frames of at most 1 MiB, and a renderer has no file paths). Each upload is one file in a
 * private folder, written only in order and only up to the size announced; it is gone after use or discard.
 */
export const MAX_BUNDLE_BYTES = 256 * 1024 * 1024;

interface Upload {
  path: string;
  size: number;
  received: number;
}

export class UploadStaging {
  private readonly uploads = new Map<string, Upload>();

  constructor(
    private readonly dir: string,
    private readonly maxBytes = MAX_BUNDLE_BYTES,
    /** What is uploaded, in messages: the bundle's wording unless told otherwise. */
    private readonly what: { noun: string; use: string; extension: string } = { noun: 'bundle', use: 'installed', extension: '.mcpb' },
  ) {}

  /** Leftovers of an earlier run are removed; uploads never outlive the process. */
  async clear(): Promise<void> {
    this.uploads.clear();
    await rm(this.dir, { recursive: true, force: true });
  }

  async begin(size: number): Promise<string> {
    const { noun, use, extension } = this.what;
    if (size > this.maxBytes) throw new AppFailure('invalid_input', `the ${noun} is ${mib(size)}; ${noun}s of at most ${mib(this.maxBytes)} can be ${use}`);
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = randomBytes(16).toString('hex');
    const path = join(this.dir, `${id}${extension}`);
    await writeFile(path, new Uint8Array(0), { mode: 0o600, flag: 'wx' });
    this.uploads.set(id, { path, size, received: 0 });
    return id;
  }

  async append(id: string, offset: number, data: Buffer): Promise<number> {
    const upload = this.find(id);
    if (offset !== upload.received) throw new AppFailure('invalid_input', `upload ${id}: expected the chunk at byte ${upload.received}, got ${offset}`);
    if (upload.received + data.length > upload.size) throw new AppFailure('invalid_input', `upload ${id}: more bytes than the ${upload.size} announced`);
    await appendFile(upload.path, data);
    upload.received += data.length;
    return upload.received;
  }

  /** The file of a finished upload. */
  pathOf(id: string): string {
    const upload = this.find(id);
    if (upload.received !== upload.size) throw new AppFailure('invalid_input', `upload ${id} is incomplete: ${upload.received} of ${upload.size} bytes arrived`);
    return upload.path;
  }

  async discard(id: string): Promise<void> {
    const upload = this.uploads.get(id);
    this.uploads.delete(id);
    if (upload) await rm(upload.path, { force: true });
  }

  private find(id: string): Upload {
    const upload = this.uploads.get(id);
    if (!upload) throw new AppFailure('not_found', `no ${this.what.noun} upload ${id} (it was ${this.what.use}, discarded, or Switchboard restarted)`);
    return upload;
  }
}

/** "300.0 MiB", or two decimals where one would round (the image limit is 3.75 MiB). */
export function mib(bytes: number): string {
  const value = bytes / (1024 * 1024);
  const short = value.toFixed(1);
  return `${Number(short) === Number(value.toFixed(2)) ? short : value.toFixed(2)} MiB`;
}
