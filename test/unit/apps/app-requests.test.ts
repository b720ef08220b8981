import { describe, expect, it } from 'vitest';
import { APP_PENDING_LIMIT } from '../../../src-preload/contract/values';
import { AppRequests } from '../../../src-main/core/apps/app-requests';
import type { CallCancel } from '../../../src-main/core/mcp/call-cancel';

/** A request that waits until its cancel switch is thrown, as a call parked for approval does. */
const parked = (cancel: CallCancel) =>
  new Promise<string>((_resolve, reject) => cancel.signal.addEventListener('abort', () => reject(cancel.signal.reason as Error)));

describe('AppRequests (SECURITY U7)', () => {
  it('holds at most 8 waiting requests per frame and refuses the next at once, naming the app', async () => {
    expect(APP_PENDING_LIMIT).toBe(8);
    const requests = new AppRequests();
    const waiting = Array.from({ length: APP_PENDING_LIMIT }, () => requests.run('frame-aaaa', 'hostile', parked));
    await expect(requests.run('frame-aaaa', 'hostile', parked)).rejects.toThrow(
      `the app from hostile already has ${APP_PENDING_LIMIT} requests waiting; this one was refused (answer or deny those first)`,
    );
    // Another frame has its own bound.
    const other = requests.run('frame-bbbb', 'hostile', async () => 'ran');
    await expect(other).resolves.toBe('ran');
    expect(requests.pending('frame-aaaa')).toBe(APP_PENDING_LIMIT);
    expect(requests.end('frame-aaaa', 'denied')).toBe(APP_PENDING_LIMIT);
    for (const request of waiting) await expect(request).rejects.toThrow('the person denied every request of this app');
    // Denied is not gone: the app may ask again.
    await expect(requests.run('frame-aaaa', 'hostile', async () => 'again')).resolves.toBe('again');
  });

  it('ends every request of a frame that went, and refuses any later one from it', async () => {
    const requests = new AppRequests();
    const waiting = [requests.run('frame-gone', 'hostile', parked), requests.run('frame-gone', 'hostile', parked)];
    expect(requests.end('frame-gone', 'closed')).toBe(2);
    for (const request of waiting) await expect(request).rejects.toThrow('the app’s frame closed');
    expect(requests.pending('frame-gone')).toBe(0);
    let ran = false;
    await expect(requests.run('frame-gone', 'hostile', async () => (ran = true))).rejects.toThrow('the app from hostile was closed; its request was not sent');
    expect(ran).toBe(false);
  });

  it('denies every frame of one server at once, and leaves other servers’ apps alone', async () => {
    const requests = new AppRequests();
    const hostile = [requests.run('frame-h1', 'hostile', parked), requests.run('frame-h2', 'hostile', parked)];
    const calm = requests.run('frame-c1', 'calm', parked);
    expect(requests.denyServer('hostile')).toBe(2);
    for (const request of hostile) await expect(request).rejects.toThrow('the person denied every request of this app');
    expect(requests.pending('frame-c1')).toBe(1);
    requests.end('frame-c1', 'closed');
    await expect(calm).rejects.toThrow('the app’s frame closed');
  });
});
