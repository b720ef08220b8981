import { describe, expect, it } from 'vitest';
import { imageProblem } from '../../../src-renderer/lib/chat/composer-attachments.svelte';

describe('what the composer refuses at once (main checks again by the bytes)', () => {
  it('takes a PNG, JPEG, GIF or WebP image up to 3.75 MiB', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) expect(imageProblem({ name: 'a', type, size: 3.75 * 1024 * 1024 }, 0)).toBeUndefined();
  });

  it('names the file and the reason: another type, too big, or one attachment too many', () => {
    expect(imageProblem({ name: 'scan.bmp', type: 'image/bmp', size: 10 }, 0)).toBe('"scan.bmp" is image/bmp; attach PNG, JPEG, GIF or WebP images');
    expect(imageProblem({ name: 'notes.pdf', type: '', size: 10 }, 0)).toBe('"notes.pdf" is not an image; attach PNG, JPEG, GIF or WebP images');
    expect(imageProblem({ name: 'huge.png', type: 'image/png', size: 5 * 1024 * 1024 }, 0)).toBe('"huge.png" is 5.00 MiB; images of at most 3.75 MiB can be attached');
    expect(imageProblem({ name: 'sixth.png', type: 'image/png', size: 10 }, 5)).toBe('"sixth.png" was not attached: at most 5 attachments per message');
  });
});
