import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';

/** What a static lookup found: a file to stream, or a status with a reason naming the fault. */
export type StaticFile =
  | { kind: 'file'; path: string; size: number; contentType: string }
  | { kind: 'refused'; status: 400 | 403 | 404; reason: string };

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

export const contentTypeOf = (path: string): string => CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';

/**
 * Resolve a request path inside the renderer folder. `pathname` is the raw, still-encoded
 * path of the request; anything that decodes or links to a place outside the folder is refused.
 */
export async function findStaticFile(rendererDir: string, pathname: string): Promise<StaticFile> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { kind: 'refused', status: 400, reason: `the path "${pathname}" is not valid percent-encoding` };
  }
  if (decoded.includes('\0')) return { kind: 'refused', status: 400, reason: 'the path contains a NUL character' };
  const wanted = decoded === '/' ? '/index.html' : decoded;
  const root = await realpath(rendererDir);
  const target = resolve(root, `.${wanted.split('/').join(sep)}`);
  if (!isInside(root, target)) return { kind: 'refused', status: 403, reason: `the path "${pathname}" leads outside the app folder` };
  let real: string;
  try {
    real = await realpath(target);
  } catch {
    return { kind: 'refused', status: 404, reason: `no file at "${pathname}"` };
  }
  // A symlink inside the folder must not lead out of it either.
  if (!isInside(root, real)) return { kind: 'refused', status: 403, reason: `the path "${pathname}" leads outside the app folder` };
  const info = await stat(real);
  if (!info.isFile()) return { kind: 'refused', status: 404, reason: `no file at "${pathname}"` };
  return { kind: 'file', path: real, size: info.size, contentType: contentTypeOf(real) };
}

export const openStaticFile = (file: { path: string }) => createReadStream(file.path);

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
