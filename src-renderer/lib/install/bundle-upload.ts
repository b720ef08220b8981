import { BUNDLE_CHUNK_BYTES, type Api, type Result } from '../../../src-preload/contract';

/** Base64 of bytes, in slices so a large chunk does not overflow the argument list. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Send a picked or dropped file to main in order, chunk by chunk; the upload id names it afterwards. */
export async function uploadBundle(api: Api, file: Blob): Promise<Result<string>> {
  const begun = await api.beginBundleUpload({ size: file.size });
  if (!begun.ok) return begun;
  const { upload } = begun.value;
  for (let offset = 0; offset < file.size; offset += BUNDLE_CHUNK_BYTES) {
    const bytes = new Uint8Array(await file.slice(offset, offset + BUNDLE_CHUNK_BYTES).arrayBuffer());
    const sent = await api.appendBundleUpload({ upload, offset, data: toBase64(bytes) });
    if (!sent.ok) {
      await api.discardBundleUpload({ upload });
      return sent;
    }
  }
  return { ok: true, value: upload };
}
