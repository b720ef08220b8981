import type { AttachmentInput, ImageMimeType, ResourceView } from '../../../src-preload/contract';
import { IMAGE_CHUNK_BYTES, IMAGE_MIME_TYPES, MAX_ATTACHMENTS, MAX_IMAGE_BYTES } from '../../../src-preload/contract/values';
import { toBase64, uploadInChunks } from '../upload-chunks';
import type { ChatApi } from './chat-api';

export type PendingAttachment =
  | { kind: 'image'; name: string; mimeType: ImageMimeType; upload: string; preview: string }
  | { kind: 'resource'; server: string; uri: string; name: string };

/** Why a file cannot be attached (checked here for a quick answer; main checks again, by the bytes). */
export function imageProblem(file: { name: string; type: string; size: number }, attached: number): string | undefined {
  if (attached >= MAX_ATTACHMENTS) return `"${file.name}" was not attached: at most ${MAX_ATTACHMENTS} attachments per message`;
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) return `"${file.name}" is ${file.type || 'not an image'}; attach PNG, JPEG, GIF or WebP images`;
  if (file.size > MAX_IMAGE_BYTES) return `"${file.name}" is ${(file.size / 1024 / 1024).toFixed(2)} MiB; images of at most ${MAX_IMAGE_BYTES / 1024 / 1024} MiB can be attached`;
  return undefined;
}

/** What the next message carries: images uploaded to main as they are added, and resources main will read. */
export class ComposerAttachments {
  items = $state.raw<PendingAttachment[]>([]);
  uploading = $state(0);

  constructor(private readonly api: Pick<ChatApi, 'beginImageUpload' | 'appendImageUpload' | 'discardImageUpload'>) {}

  /** Adds the images among `files` (a picker, a paste, a drop); returns one problem per file refused. */
  async addImages(files: readonly File[]): Promise<string[]> {
    const problems: string[] = [];
    for (const file of files) {
      const problem = imageProblem(file, this.items.length + this.uploading);
      if (problem) {
        problems.push(problem);
        continue;
      }
      this.uploading++;
      try {
        const preview = `data:${file.type};base64,${toBase64(new Uint8Array(await file.arrayBuffer()))}`;
        const upload = await uploadInChunks({ begin: (i) => this.api.beginImageUpload(i), append: (i) => this.api.appendImageUpload(i), discard: (i) => this.api.discardImageUpload(i) }, file, IMAGE_CHUNK_BYTES);
        if (upload.ok) this.items = [...this.items, { kind: 'image', name: file.name || 'pasted image', mimeType: file.type as ImageMimeType, upload: upload.value, preview }];
        else problems.push(`"${file.name}": ${upload.error.message}`);
      } finally {
        this.uploading--;
      }
    }
    return problems;
  }

  addResource(resource: ResourceView): string | undefined {
    if (this.items.length + this.uploading >= MAX_ATTACHMENTS) return `at most ${MAX_ATTACHMENTS} attachments per message`;
    this.items = [...this.items, { kind: 'resource', server: resource.server, uri: resource.uri, name: resource.title ?? resource.name }];
    return undefined;
  }

  remove(index: number): void {
    const item = this.items[index];
    this.items = this.items.filter((_, i) => i !== index);
    if (item?.kind === 'image') void this.api.discardImageUpload({ upload: item.upload });
  }

  inputs(): AttachmentInput[] {
    return this.items.map((item) => (item.kind === 'image' ? { kind: 'image', upload: item.upload, name: item.name, mimeType: item.mimeType } : { kind: 'resource', server: item.server, uri: item.uri }));
  }

  /** After a send: main took the uploads. */
  clear(): void {
    this.items = [];
  }
}
