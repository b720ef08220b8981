import type { Api, Result } from '../../../src-preload/contract';
import { BUNDLE_CHUNK_BYTES } from '../../../src-preload/contract/values';
import { uploadInChunks } from '../upload-chunks';

/** Send a picked or dropped bundle to main in order, chunk by chunk; the upload id names it afterwards. */
export function uploadBundle(api: Api, file: Blob): Promise<Result<string>> {
  return uploadInChunks({ begin: (i) => api.beginBundleUpload(i), append: (i) => api.appendBundleUpload(i), discard: (i) => api.discardBundleUpload(i) }, file, BUNDLE_CHUNK_BYTES);
}
