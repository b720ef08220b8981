import type { Result } from '../../src-preload/contract';

/** Base64 of bytes, in slices so a large chunk does not overflow the argument list. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The three calls of a chunked upload (bundles, chat images): announce, append in order, discard. */
export interface ChunkedUpload {
  begin: (input: { size: number }) => Promise<Result<{ upload: string }>>;
  append: (input: { upload: string; offset: number; data: string }) => Promise<Result<{ received: number }>>;
  discard: (input: { upload: string }) => Promise<Result<null>>;
}

/** Send a file to main in order, chunk by chunk (web mode's frames are 1 MiB); the upload id names it afterwards. */
export async function uploadInChunks(calls: ChunkedUpload, file: Blob, chunkBytes: number): Promise<Result<string>> {
  const begun = await calls.begin({ size: file.size });
  if (!begun.ok) return begun;
  const { upload } = begun.value;
  for (let offset = 0; offset < file.size; offset += chunkBytes) {
    const bytes = new Uint8Array(await file.slice(offset, offset + chunkBytes).arrayBuffer());
    const sent = await calls.append({ upload, offset, data: toBase64(bytes) });
    if (!sent.ok) {
      await calls.discard({ upload });
      return sent;
    }
  }
  return { ok: true, value: upload };
}
