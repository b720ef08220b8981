/**
 * What a person attaches to a message, made into content the model gets as blocks: uploaded images
 * (checked by their bytes, not only the type the browser claimed) and server resources, which main
 * reads itself — the renderer names a resource, it never supplies its content.
 */
import { readFile } from 'node:fs/promises';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_RESOURCE_CHARS, type AttachmentInput, type ImageMimeType, type MessageAttachment } from '../../../src-preload/contract/chat';
import { IMAGE_MIME_TYPES, MAX_IMAGE_BYTES } from '../../../src-preload/contract/values';
import { AppFailure } from '../app-error';
import { mib, type UploadStaging } from '../install/upload-staging';
import type { ChatProvider } from './providers/chat-provider';

export interface AttachmentSources {
  uploads: Pick<UploadStaging, 'pathOf' | 'discard'>;
  readResource: (server: string, uri: string) => Promise<ReadResourceResult>;
  /** The resource's title or name as its server lists it, for the chip and the model. */
  resourceName: (server: string, uri: string) => string | undefined;
}

/** Every attachment read and checked; the uploads are discarded whatever happens. */
export async function resolveAttachments(inputs: readonly AttachmentInput[], sources: AttachmentSources): Promise<MessageAttachment[]> {
  try {
    const resolved: MessageAttachment[] = [];
    for (const input of inputs) {
      if (input.kind === 'image') resolved.push(await uploadedImage(input, sources));
      else resolved.push(...(await resourceAttachments(input.server, input.uri, sources)));
    }
    return resolved;
  } finally {
    for (const input of inputs) if (input.kind === 'image') await sources.uploads.discard(input.upload);
  }
}

/** A model that takes only text is told nothing: the message is refused before it is sent, naming the provider. */
export function refuseUnsupported(provider: ChatProvider, attachments: readonly MessageAttachment[]): void {
  const image = attachments.find((a) => a.kind === 'image');
  if (image && !provider.imageInput) {
    throw new AppFailure('invalid_input', `${provider.label} takes text only (Chat settings: "the model accepts images" is off), so "${image.name}" was not sent; remove the image or choose a model that takes images`);
  }
}

async function uploadedImage(input: Extract<AttachmentInput, { kind: 'image' }>, sources: AttachmentSources): Promise<MessageAttachment> {
  const bytes = await readFile(sources.uploads.pathOf(input.upload));
  checkImage(bytes, input.mimeType, `"${input.name}"`);
  return { kind: 'image', name: input.name, mimeType: input.mimeType, data: bytes.toString('base64') };
}

async function resourceAttachments(server: string, uri: string, sources: AttachmentSources): Promise<MessageAttachment[]> {
  const what = `resource ${uri} on server "${server}"`;
  const read = await sources.readResource(server, uri);
  const name = sources.resourceName(server, uri) ?? uri;
  if (read.contents.length === 0) throw new AppFailure('invalid_input', `${what} is empty; there is nothing to attach`);
  return read.contents.map((content): MessageAttachment => {
    const mimeType = content.mimeType;
    const blob = 'blob' in content && typeof content.blob === 'string' ? content.blob : '';
    // Text may come as a blob too (a text/* or JSON type): the model gets it as text either way.
    const text = 'text' in content && typeof content.text === 'string' ? content.text : isTextType(mimeType) ? Buffer.from(blob, 'base64').toString('utf8') : undefined;
    if (text !== undefined) {
      if (text.length > MAX_RESOURCE_CHARS) {
        throw new AppFailure('invalid_input', `${what} has ${text.length.toLocaleString('en-US')} characters; at most ${MAX_RESOURCE_CHARS.toLocaleString('en-US')} can be attached`);
      }
      return { kind: 'resource', server, uri: content.uri, name, ...(mimeType ? { mimeType } : {}), text };
    }
    if (!isImageType(mimeType)) {
      throw new AppFailure('invalid_input', `${what} is ${mimeType ?? 'binary'} content; only text and images (${IMAGE_MIME_TYPES.join(', ')}) can be attached`);
    }
    checkImage(Buffer.from(blob, 'base64'), mimeType, what);
    return { kind: 'image', name, mimeType, data: blob, from: { server, uri: content.uri } };
  });
}

function checkImage(bytes: Buffer, declared: ImageMimeType, what: string): void {
  if (bytes.length > MAX_IMAGE_BYTES) throw new AppFailure('invalid_input', `${what} is ${mib(bytes.length)}; images of at most ${mib(MAX_IMAGE_BYTES)} can be attached`);
  const actual = sniffImage(bytes);
  if (actual !== declared) throw new AppFailure('invalid_input', `${what} says it is ${declared} but its bytes are ${actual ?? 'not a PNG, JPEG, GIF or WebP image'}`);
}

/** The image type the first bytes declare (the formats' magic numbers). */
export function sniffImage(bytes: Buffer): ImageMimeType | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

function isTextType(mimeType: string | undefined): boolean {
  return mimeType !== undefined && (mimeType.startsWith('text/') || /^application\/([\w.+-]*\+)?json$/.test(mimeType));
}

function isImageType(mimeType: string | undefined): mimeType is ImageMimeType {
  return (IMAGE_MIME_TYPES as readonly string[]).includes(mimeType ?? '');
}
