/**
 * Draws Switchboard's icons: a patch panel (the switchboard) with cords between its jacks, and for
 * the tray the same glyph with a status dot. Only node:zlib, so anyone can rebuild them:
 *   npx tsx assets/make-icons.ts        (writes the PNGs and icon.ico next to this file)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

type Rgba = [number, number, number, number];
/** A shape answers "how much of the pixel at (x, y), in 0..1 units, do I cover" with 0 or 1 at a sample point. */
type Shape = (x: number, y: number) => boolean;
interface Layer {
  shape: Shape;
  color: Rgba;
}

const hex = (value: string, alpha = 1): Rgba => [parseInt(value.slice(1, 3), 16), parseInt(value.slice(3, 5), 16), parseInt(value.slice(5, 7), 16), alpha];

const roundedRect = (x0: number, y0: number, x1: number, y1: number, r: number): Shape => (x, y) => {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const dx = Math.max(x0 + r - x, 0, x - (x1 - r));
  const dy = Math.max(y0 + r - y, 0, y - (y1 - r));
  return dx * dx + dy * dy <= r * r;
};
const circle = (cx: number, cy: number, r: number): Shape => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const ring = (cx: number, cy: number, r: number, width: number): Shape => (x, y) => {
  const d = Math.hypot(x - cx, y - cy);
  return d <= r && d >= r - width;
};
/** A thick cord: the points within width/2 of a quadratic curve from a to b that sags by `sag`. */
const cord = (ax: number, ay: number, bx: number, by: number, sag: number, width: number): Shape => {
  const cx = (ax + bx) / 2;
  const cy = (ay + by) / 2 + sag;
  const points: Array<[number, number]> = [];
  for (let i = 0; i <= 48; i++) {
    const t = i / 48;
    points.push([(1 - t) ** 2 * ax + 2 * (1 - t) * t * cx + t * t * bx, (1 - t) ** 2 * ay + 2 * (1 - t) * t * cy + t * t * by]);
  }
  const half = width / 2;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs) - half, Math.max(...xs) + half, Math.min(...ys) - half, Math.max(...ys) + half];
  return (x, y) => {
    if (x < minX || x > maxX || y < minY || y > maxY) return false;
    for (let i = 1; i < points.length; i++) {
      const [px, py] = points[i - 1]!;
      const [qx, qy] = points[i]!;
      const vx = qx - px;
      const vy = qy - py;
      const t = Math.max(0, Math.min(1, ((x - px) * vx + (y - py) * vy) / (vx * vx + vy * vy)));
      if (Math.hypot(x - (px + t * vx), y - (py + t * vy)) <= half) return true;
    }
    return false;
  };
};

/** Renders layers (bottom first) with 4×4 supersampling into straight-alpha RGBA. */
function render(size: number, layers: Layer[]): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  // Small pictures need finer edges; big ones have pixels to spare.
  const grid = size <= 64 ? 4 : 2;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < grid; sy++) {
        for (let sx = 0; sx < grid; sx++) {
          const x = (px + (sx + 0.5) / grid) / size;
          const y = (py + (sy + 0.5) / grid) / size;
          // Composite this sample, premultiplied, "over" from bottom to top.
          let sr = 0;
          let sg = 0;
          let sb = 0;
          let sa = 0;
          for (const { shape, color } of layers) {
            if (!shape(x, y)) continue;
            const ca = color[3];
            sr = color[0] * ca + sr * (1 - ca);
            sg = color[1] * ca + sg * (1 - ca);
            sb = color[2] * ca + sb * (1 - ca);
            sa = ca + sa * (1 - ca);
          }
          r += sr;
          g += sg;
          b += sb;
          a += sa;
        }
      }
      const n = grid * grid;
      const offset = (py * size + px) * 4;
      const alpha = a / n;
      pixels[offset] = alpha ? Math.round(r / n / alpha) : 0;
      pixels[offset + 1] = alpha ? Math.round(g / n / alpha) : 0;
      pixels[offset + 2] = alpha ? Math.round(b / n / alpha) : 0;
      pixels[offset + 3] = Math.round(alpha * 255);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A truecolour-with-alpha PNG of a size×size RGBA buffer. */
export function encodePng(size: number, rgba: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** A Windows .ico holding PNG images (valid since Windows Vista). */
export function encodeIco(images: Array<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry[0] = size >= 256 ? 0 : size;
    entry[1] = size >= 256 ? 0 : size;
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.png)]);
}

const PANEL = hex('#232833');
const PANEL_EDGE = hex('#3a4252');
const JACK = hex('#0e1117');
const JACK_RIM = hex('#9aa3b5');
const CORDS = [hex('#4f9dff'), hex('#34c77b'), hex('#f5a524')];

/** The app icon: a patch panel of 3×3 jacks with three cords plugged between them. */
function appIcon(): Layer[] {
  const jacks = [0.3, 0.5, 0.7].flatMap((y) => [0.3, 0.5, 0.7].map((x) => [x, y] as const));
  return [
    { shape: roundedRect(0.06, 0.06, 0.94, 0.94, 0.2), color: PANEL_EDGE },
    { shape: roundedRect(0.08, 0.08, 0.92, 0.92, 0.18), color: PANEL },
    ...jacks.flatMap(([x, y]) => [
      { shape: circle(x, y, 0.062), color: JACK_RIM },
      { shape: circle(x, y, 0.045), color: JACK },
    ]),
    { shape: cord(0.3, 0.3, 0.7, 0.5, 0.14, 0.045), color: CORDS[0]! },
    { shape: cord(0.3, 0.5, 0.5, 0.7, 0.12, 0.045), color: CORDS[1]! },
    { shape: cord(0.5, 0.3, 0.7, 0.7, 0.06, 0.045), color: CORDS[2]! },
    ...[[0.3, 0.3], [0.7, 0.5], [0.3, 0.5], [0.5, 0.7], [0.5, 0.3], [0.7, 0.7]].map(([x, y], i) => ({ shape: circle(x!, y!, 0.04), color: CORDS[Math.floor(i / 2)]! })),
  ];
}

export const STATUS_COLORS = { green: '#2fbf71', amber: '#f5a524', red: '#e5484d', neutral: '#8a93a6' } as const;

/** The tray glyph: a small panel with two jacks and a cord, and the status dot at its lower right. */
function trayIcon(level: keyof typeof STATUS_COLORS): Layer[] {
  return [
    { shape: roundedRect(0.02, 0.06, 0.86, 0.82, 0.16), color: PANEL_EDGE },
    { shape: roundedRect(0.08, 0.12, 0.8, 0.76, 0.12), color: PANEL },
    { shape: cord(0.26, 0.32, 0.62, 0.32, 0.22, 0.1), color: hex('#d5dae4') },
    { shape: circle(0.26, 0.32, 0.1), color: hex('#d5dae4') },
    { shape: circle(0.62, 0.32, 0.1), color: hex('#d5dae4') },
    { shape: circle(0.74, 0.74, 0.26), color: hex('#11141a') },
    { shape: circle(0.74, 0.74, 0.2), color: hex(STATUS_COLORS[level]) },
    { shape: ring(0.74, 0.74, 0.2, 0.04), color: hex('#ffffff', 0.25) },
  ];
}

/** The app icon at 512 (Linux, window), 1024 (macOS) and as a multi-size .ico (Windows). */
export function appFiles(): Map<string, Buffer> {
  const app = (size: number) => encodePng(size, render(size, appIcon()));
  return new Map([
    ['icon.png', app(512)],
    ['icon-1024.png', app(1024)],
    ['icon.ico', encodeIco([16, 24, 32, 48, 64, 256].map((size) => ({ size, png: app(size) })))],
  ]);
}

/** tray-<level>.png at 16 px and tray-<level>@2x.png at 32 px, for every status level. */
export function trayFiles(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const level of Object.keys(STATUS_COLORS) as Array<keyof typeof STATUS_COLORS>) {
    files.set(`tray-${level}.png`, encodePng(16, render(16, trayIcon(level))));
    files.set(`tray-${level}@2x.png`, encodePng(32, render(32, trayIcon(level))));
  }
  return files;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*[\\/]/, ''))) {
  const dir = import.meta.dirname;
  const files = new Map([...appFiles(), ...trayFiles()]);
  for (const [name, data] of files) writeFileSync(join(dir, name), data);
  console.log(`wrote ${[...files.keys()].join(', ')} to ${dir}`);
}
