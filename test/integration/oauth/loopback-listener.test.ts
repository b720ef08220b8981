import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopbackListener, SIGN_IN_TIMEOUT_MS, STATE_LIFETIME_MS, type Timers } from '../../../src-main/core/oauth/loopback-listener';

const STATE = 'recorded-state-value-0123456789abcdefghijklmno';

/** A timer the test fires by hand: the 5-minute timeout without waiting 5 minutes. */
class ManualTimers implements Timers {
  pending: { fn: () => void; ms: number }[] = [];
  setTimeout(fn: () => void, ms: number) {
    const entry = { fn, ms };
    this.pending.push(entry);
    return entry;
  }
  clearTimeout(handle: unknown) {
    this.pending = this.pending.filter((p) => p !== handle);
  }
  fire() {
    for (const p of this.pending.splice(0)) p.fn();
  }
}

const open: LoopbackListener[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

const listen = async (options: Partial<Parameters<typeof LoopbackListener.open>[0]> = {}) => {
  const listener = await LoopbackListener.open({ serverName: 'alpha', state: STATE, ...options });
  open.push(listener);
  return listener;
};

const settled = async (p: Promise<unknown>) => {
  const marker = Symbol('pending');
  return Promise.race([p.then(() => 'resolved', () => 'rejected'), new Promise((resolve) => setImmediate(() => resolve(marker)))]).then((v) => (v === marker ? 'pending' : v));
};

describe('LoopbackListener', () => {
  it('listens on 127.0.0.1 only, at /callback, on a port the OS chose', async () => {
    const listener = await listen();
    expect(listener.redirectUrl).toBe(`http://127.0.0.1:${listener.port}/callback`);
    expect(listener.port).toBeGreaterThan(0);
    // Not on the other loopback family: a connection to [::1] at that port is refused.
    await expect(fetch(`http://[::1]:${listener.port}/callback`)).rejects.toThrow();
  });

  it('takes the port a registered client pins when it is free', async () => {
    const first = await listen();
    const port = first.port;
    await first.close();
    const pinned = await listen({ port });
    expect(pinned.port).toBe(port);
  });

  it('answers 404 off the exact path and 405 to other methods, and keeps waiting', async () => {
    const listener = await listen();
    const base = `http://127.0.0.1:${listener.port}`;
    for (const path of ['/', '/callback/', '/callbackx', '/Callback', '/other?state=' + STATE]) {
      expect((await fetch(base + path)).status).toBe(404);
    }
    const post = await fetch(`${base}/callback?code=c&state=${STATE}`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(await settled(listener.result)).toBe('pending');
  });

  it.each([
    ['without a state', '?code=abc'],
    ['with another state', '?code=abc&state=forged'],
    ['with a state one character short', `?code=abc&state=${STATE.slice(0, -1)}`],
    ['with the state in other case', `?code=abc&state=${STATE.toUpperCase()}`],
  ])('ignores a callback %s (fail closed) and still accepts the real one', async (_label, query) => {
    const listener = await listen();
    const forged = await fetch(`${listener.redirectUrl}${query}`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('does not belong to a sign-in Switchboard is waiting for');
    expect(await settled(listener.result)).toBe('pending');

    const real = fetch(`${listener.redirectUrl}?code=the-code&state=${STATE}&iss=https%3A%2F%2Fas.example`);
    const callback = await listener.result;
    expect(callback.code).toBe('the-code');
    expect(callback.iss).toBe('https://as.example');
    callback.reply({ ok: true });
    expect((await real).status).toBe(200);
  });

  it('accepts the state once: a replay of the same callback is ignored', async () => {
    const listener = await listen();
    const first = fetch(`${listener.redirectUrl}?code=one&state=${STATE}`);
    const callback = await listener.result;
    // The first tab is still waiting for its page; a replay meanwhile is refused.
    const replay = await fetch(`${listener.redirectUrl}?code=two&state=${STATE}`);
    expect(replay.status).toBe(400);
    callback.reply({ ok: true });
    expect((await first).status).toBe(200);
    expect(callback.code).toBe('one');
  });

  it('ignores a state recorded more than 10 minutes ago', async () => {
    const clock = { t: 0, now: () => clock.t };
    const listener = await listen({ clock, timeoutMs: STATE_LIFETIME_MS * 2 });
    clock.t = STATE_LIFETIME_MS + 1;
    const late = await fetch(`${listener.redirectUrl}?code=abc&state=${STATE}`);
    expect(late.status).toBe(400);
    expect(await settled(listener.result)).toBe('pending');
  });

  it('shows "signed in to <server>" with no-store and a CSP that allows nothing, the name HTML-escaped', async () => {
    const listener = await listen({ serverName: '<img src=x onerror=alert(1)>' });
    const page = fetch(`${listener.redirectUrl}?code=abc&state=${STATE}`);
    (await listener.result).reply({ ok: true });
    const response = await page;
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const body = await response.text();
    expect(body).toContain('Signed in to &lt;img src=x onerror=alert(1)&gt; — you can close this tab.');
    expect(body).not.toContain('<img');
  });

  it('never echoes error_description, and fails the flow with the error code only', async () => {
    const listener = await listen();
    const page = await fetch(`${listener.redirectUrl}?error=access_denied&error_description=${encodeURIComponent('<script>steal()</script> call 555-SCAM')}&state=${STATE}`);
    const body = await page.text();
    expect(page.status).toBe(400);
    expect(body).toContain('Sign-in to alpha did not complete (access_denied).');
    expect(body).not.toContain('steal');
    expect(body).not.toContain('SCAM');
    await expect(listener.result).rejects.toThrow('sign-in to alpha did not complete: the authorization server answered access_denied');
  });

  it('replaces an error code outside the OAuth vocabulary', async () => {
    const listener = await listen();
    const page = await fetch(`${listener.redirectUrl}?error=${encodeURIComponent('<b>bad</b>')}&state=${STATE}`);
    expect(await page.text()).toContain('(no authorization code)');
    await expect(listener.result).rejects.toThrow('sign-in to alpha did not complete: the authorization server answered no authorization code');
  });

  it('refuses a request whose Host is not 127.0.0.1:<port> (DNS rebinding)', async () => {
    const listener = await listen();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: listener.port, path: `/callback?code=a&state=${STATE}`, headers: { host: `evil.example:${listener.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
    expect(await settled(listener.result)).toBe('pending');
  });

  it('times out after 5 minutes with a clear message and closes the port', async () => {
    const timers = new ManualTimers();
    const listener = await listen({ timers });
    expect(timers.pending.map((p) => p.ms)).toEqual([SIGN_IN_TIMEOUT_MS]);
    timers.fire();
    await expect(listener.result).rejects.toThrow(
      'sign-in to alpha timed out: no answer came back from the browser within 5 minutes; start the sign-in again',
    );
    await expect(fetch(listener.redirectUrl)).rejects.toThrow();
  });

  it('cancels: the flow ends as cancelled and the port closes', async () => {
    const listener = await listen();
    const url = listener.redirectUrl;
    listener.cancel();
    await expect(listener.result).rejects.toThrow('sign-in to alpha was cancelled');
    await expect(fetch(url)).rejects.toThrow();
  });
});
