import { open, rm } from 'node:fs/promises';
import { createServer, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFdKinds } from '../../../soak/lib/processes';

describe('openFdKinds', () => {
  it('tells a growth apart by kind: an open file by its path, a connection as sockets', async () => {
    const before = openFdKinds();
    const path = join(tmpdir(), `soak-fd-${process.pid}.txt`);
    const file = await open(path, 'w');
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const accepted = new Promise<Socket>((done) => server.once('connection', done));
    const client = connect((server.address() as { port: number }).port, '127.0.0.1');
    const peer = await accepted;
    try {
      const after = openFdKinds();
      expect(after[path]).toBe(1);
      // The listener, the client end and the accepted end.
      expect((after.socket ?? 0) - (before.socket ?? 0)).toBe(3);
    } finally {
      client.destroy();
      peer.destroy();
      await new Promise((done) => server.close(done));
      await file.close();
      await rm(path, { force: true });
    }
  });
});
