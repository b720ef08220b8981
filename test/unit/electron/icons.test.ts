import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { STATUS_COLORS, trayFiles } from '../../../assets/make-icons';

const assets = resolve(import.meta.dirname, '../../../assets');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width, height and colour type from a PNG's IHDR, after checking the signature. */
function pngHeader(data: Buffer): { width: number; height: number; colorType: number } {
  expect(data.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(data.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20), colorType: data[25]! };
}

/** The image data (filter bytes and rows) of a PNG: compressed bytes may differ between zlib builds, pixels may not. */
function pngPixels(data: Buffer): Buffer {
  const idat: Buffer[] = [];
  for (let at = 8; at < data.length; ) {
    const length = data.readUInt32BE(at);
    if (data.toString('ascii', at + 4, at + 8) === 'IDAT') idat.push(data.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return inflateSync(Buffer.concat(idat));
}

describe('assets/ icons', () => {
  it('commits exactly the tray icons the generator draws, one pair per status level', () => {
    const drawn = trayFiles();
    expect([...drawn.keys()].sort()).toEqual(Object.keys(STATUS_COLORS).flatMap((l) => [`tray-${l}.png`, `tray-${l}@2x.png`]).sort());
    for (const [name, data] of drawn) expect(pngPixels(readFileSync(resolve(assets, name))).equals(pngPixels(data)), name).toBe(true);
  });

  it('has tray icons of 16 px and 32 px (@2x) with transparency', () => {
    for (const level of Object.keys(STATUS_COLORS)) {
      expect(pngHeader(readFileSync(resolve(assets, `tray-${level}.png`)))).toEqual({ width: 16, height: 16, colorType: 6 });
      expect(pngHeader(readFileSync(resolve(assets, `tray-${level}@2x.png`)))).toEqual({ width: 32, height: 32, colorType: 6 });
    }
  });

  it('has the app icon at 512 px and 1024 px', () => {
    expect(pngHeader(readFileSync(resolve(assets, 'icon.png')))).toEqual({ width: 512, height: 512, colorType: 6 });
    expect(pngHeader(readFileSync(resolve(assets, 'icon-1024.png')))).toEqual({ width: 1024, height: 1024, colorType: 6 });
  });

  it('has a Windows icon whose directory points at a PNG of each listed size, up to 256 px', () => {
    const ico = readFileSync(resolve(assets, 'icon.ico'));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 6 + 16 * i;
      const size = ico[entry] || 256;
      const length = ico.readUInt32LE(entry + 8);
      const offset = ico.readUInt32LE(entry + 12);
      expect(offset + length).toBeLessThanOrEqual(ico.length);
      expect(pngHeader(ico.subarray(offset, offset + length))).toEqual({ width: size, height: size, colorType: 6 });
      sizes.push(size);
    }
    expect(sizes).toEqual([16, 24, 32, 48, 64, 256]);
  });
});
