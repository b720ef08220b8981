import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { AppFailure } from '../app-error';

/**
 * Reading a .mcpb (a zip) without trusting it: every entry name is checked before anything is
 * written (zip-slip), links are refused, and sizes are capped by what the central directory
 * declares and again by the bytes actually inflated (a size bomb stops mid-stream) (SECURITY B1).
 */
export interface ArchiveLimits {
  /** Total unpacked bytes of all entries. */
  maxUnpackedBytes: number;
  maxEntries: number;
  /** Unpacked ÷ packed for an entry over 1 MiB; real code compresses far less than this. */
  maxRatio: number;
}

export const DEFAULT_LIMITS: ArchiveLimits = { maxUnpackedBytes: 512 * 1024 * 1024, maxEntries: 20_000, maxRatio: 200 };
const MANIFEST = 'manifest.json';
const MAX_MANIFEST_BYTES = 1024 * 1024;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

export interface ArchiveListing {
  /** Relative paths of the files (not folders) in the bundle. */
  files: Set<string>;
  unpackedBytes: number;
  manifestText: string;
}

const bad = (message: string): AppFailure => new AppFailure('invalid_input', message);

/** Why an entry name may not be unpacked, or undefined when it is a safe relative path. */
export function unsafeEntryReason(name: string): string | undefined {
  if (name === '' || name === '/') return 'has an empty name';
  if (name.includes('\0')) return 'has a NUL character in its name';
  if (name.includes('\\')) return 'uses "\\" in its path (zip paths use "/")';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'is an absolute path';
  if (name.split('/').some((part) => part === '..')) return 'would be written outside the bundle folder ("..")';
  return undefined;
}

async function openZip(path: string): Promise<ZipFile> {
  try {
    return await yauzl.openPromise(path, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false });
  } catch (error) {
    throw bad(`${path} is not a .mcpb bundle: it is not a zip archive (${(error as Error).message})`);
  }
}

/** Each entry with its checked name, in archive order; throws on the first unsafe one. */
async function* checkedEntries(zip: ZipFile, limits: ArchiveLimits): AsyncGenerator<{ entry: Entry; name: string }> {
  let count = 0;
  let total = 0;
  // Names as they land on disk ("a/./b" and "a//b" are "a/b"): a second one would replace the first
  // after the preview showed it, so it is refused here, at preview, not late at unpack (SECURITY B1).
  const seen = new Set<string>();
  const next = () =>
    new Promise<Entry | undefined>((resolve, reject) => {
      const cleanup = () => zip.removeAllListeners('entry').removeAllListeners('end').removeAllListeners('error');
      zip.once('entry', (e: Entry) => (cleanup(), resolve(e)));
      zip.once('end', () => (cleanup(), resolve(undefined)));
      zip.once('error', (e: Error) => (cleanup(), reject(bad(`the bundle's zip structure is broken: ${e.message}`))));
      zip.readEntry();
    });
  for (let entry = await next(); entry; entry = await next()) {
    const name = (entry.fileNameRaw as Buffer).toString('utf8');
    const reason = unsafeEntryReason(name);
    if (reason) throw bad(`bundle entry "${name}" ${reason}; nothing was installed`);
    if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) throw bad(`bundle entry "${name}" is a symbolic link; bundles may hold only files and folders`);
    const landing = name.split('/').filter((part) => part !== '' && part !== '.').join('/');
    if (seen.has(landing)) throw bad(`bundle entry "${name}" appears twice in the bundle; nothing was installed`);
    seen.add(landing);
    if (entry.isEncrypted()) throw bad(`bundle entry "${name}" is encrypted; Switchboard cannot unpack it`);
    if (++count > limits.maxEntries) throw bad(`the bundle has more than ${limits.maxEntries} entries`);
    total += entry.uncompressedSize;
    if (total > limits.maxUnpackedBytes) throw bad(`the bundle unpacks to more than ${mib(limits.maxUnpackedBytes)}; refusing it as a possible zip bomb`);
    if (entry.uncompressedSize > 1024 * 1024 && entry.uncompressedSize > limits.maxRatio * Math.max(entry.compressedSize, 1)) {
      throw bad(`bundle entry "${name}" inflates ${Math.round(entry.uncompressedSize / Math.max(entry.compressedSize, 1))}-fold (over ${limits.maxRatio}); refusing it as a possible zip bomb`);
    }
    yield { entry, name };
  }
}

const mib = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MiB`;
const isFolder = (name: string): boolean => name.endsWith('/');

/** Check every entry and read manifest.json; nothing is written. */
export async function listBundle(path: string, limits: ArchiveLimits = DEFAULT_LIMITS): Promise<ArchiveListing> {
  const zip = await openZip(path);
  try {
    const files = new Set<string>();
    let manifestText: string | undefined;
    let unpackedBytes = 0;
    for await (const { entry, name } of checkedEntries(zip, limits)) {
      unpackedBytes += entry.uncompressedSize;
      if (isFolder(name)) continue;
      files.add(name);
      if (name === MANIFEST) {
        if (entry.uncompressedSize > MAX_MANIFEST_BYTES) throw bad(`the bundle's manifest.json is over 1 MiB`);
        manifestText = await readEntry(zip, entry);
      }
    }
    if (manifestText === undefined) throw bad('the bundle has no manifest.json at its top level');
    return { files, unpackedBytes, manifestText };
  } finally {
    zip.close();
  }
}

/** Unpack into `dest` (which must not exist yet); checks run again, and bytes are counted as they inflate. */
export async function extractBundle(path: string, dest: string, limits: ArchiveLimits = DEFAULT_LIMITS): Promise<void> {
  const zip = await openZip(path);
  try {
    await mkdir(dest, { recursive: false, mode: 0o700 });
    const budget = { left: limits.maxUnpackedBytes };
    for await (const { entry, name } of checkedEntries(zip, limits)) {
      const target = join(dest, ...name.split('/').filter(Boolean));
      if (isFolder(name)) {
        await mkdir(target, { recursive: true, mode: 0o700 });
        continue;
      }
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      const mode = (entry.externalFileAttributes >>> 16) & 0o111 ? 0o700 : 0o600;
      await pipeline(await zip.openReadStreamPromise(entry), byteBudget(budget, limits), createWriteStream(target, { flags: 'wx', mode }));
    }
  } finally {
    zip.close();
  }
}

/** Fails the stream once more bytes came out than the bundle may unpack to. */
function byteBudget(budget: { left: number }, limits: ArchiveLimits): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      budget.left -= chunk.length;
      if (budget.left < 0) done(bad(`the bundle unpacks to more than ${mib(limits.maxUnpackedBytes)}; refusing it as a possible zip bomb`));
      else done(null, chunk);
    },
  });
}

async function readEntry(zip: ZipFile, entry: Entry): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
