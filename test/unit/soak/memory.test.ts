import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const probe = resolve(dirname(fileURLToPath(import.meta.url)), '../../../soak/probes/young-generation.ts');

describe('collectGarbage (the soak memory measure)', () => {
  it('gives back the young generation a burst of allocation grew, which a plain full collection leaves resident', { timeout: 120_000 }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', probe], { timeout: 110_000 });
    const { plainGcRssMb, settledRssMb } = JSON.parse(stdout) as { plainGcRssMb: number; settledRssMb: number };
    // Node 24: about 320 MB after gc(), about 64 MB after collectGarbage() (docs/soak.md).
    expect(plainGcRssMb - settledRssMb).toBeGreaterThan(100);
  });
});
