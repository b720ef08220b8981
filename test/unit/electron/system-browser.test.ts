import { describe, expect, it, vi } from 'vitest';
import { AppFailure } from '../../../src-main/core/app-error';
import { SystemBrowser } from '../../../src-main/electron/system-browser';
import { shell } from './test-electron';

vi.mock('electron', () => import('./test-electron'));

describe('SystemBrowser (SECURITY O8, R3)', () => {
  it('opens https and loopback http URLs through shell.openExternal', async () => {
    const browser = new SystemBrowser();
    await browser.open('https://github.com/login/oauth/authorize?client_id=abc');
    await browser.open('http://127.0.0.1:33333/callback');
    expect(shell.opened).toEqual(['https://github.com/login/oauth/authorize?client_id=abc', 'http://127.0.0.1:33333/callback']);
  });

  it('refuses every other URL with an invalid_input error naming it and the reason, and opens nothing', async () => {
    shell.opened.length = 0;
    const browser = new SystemBrowser();
    const cases: Array<[string, string]> = [
      ['javascript:alert(1)', 'refused to open javascript:alert(1): the scheme "javascript" is not allowed (only https, or http to loopback)'],
      ['file:///etc/passwd', 'refused to open file:///etc/passwd: the scheme "file" is not allowed (only https, or http to loopback)'],
      ['http://example.com/', 'refused to open http://example.com/: plain http is allowed only to this computer (loopback)'],
      ['https://a.example/$(reboot)', 'refused to open https://a.example/$(reboot): the URL contains shell syntax'],
    ];
    for (const [url, message] of cases) {
      const error = await browser.open(url).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(AppFailure);
      expect(error).toMatchObject({ code: 'invalid_input', message });
    }
    expect(shell.opened).toEqual([]);
  });
});
