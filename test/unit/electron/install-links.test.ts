import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { App } from 'electron';
import { InstallLinkReceiver, linkInArgv } from '../../../src-main/electron/install-links';
import { TestApp, TestEvent } from './test-electron';

vi.mock('electron', () => import('./test-electron'));

const link = 'switchboard://install?catalog=memory';
const packaged = (argv: string[] = ['/opt/Switchboard/switchboard']) => ({ argv, execPath: '/opt/Switchboard/switchboard', defaultApp: false });

function receive(launch = packaged()) {
  const app = new TestApp();
  const receiver = new InstallLinkReceiver(app as unknown as App, launch);
  const delivered: string[] = [];
  return { app, receiver, delivered, start: () => receiver.deliverTo((l) => delivered.push(l)) };
}

describe('install links reaching the Electron shell', () => {
  it('registers Switchboard as the switchboard: handler; run from source, with electron and the app folder', () => {
    expect(receive().app.protocolClients).toEqual([['switchboard']]);
    const dev = receive({ argv: ['/x/electron', 'out/main/index.js'], execPath: '/x/electron', defaultApp: true });
    expect(dev.app.protocolClients).toEqual([['switchboard', '/x/electron', [resolve('out/main/index.js')]]]);
  });

  it('holds the link it was launched with until the core can take it, then hands it over once', () => {
    const { delivered, start, receiver } = receive(packaged(['/opt/Switchboard/switchboard', '--no-sandbox', link]));
    expect(delivered).toEqual([]);
    start();
    expect(delivered).toEqual([link]);
    receiver.deliverTo((l) => delivered.push(`again ${l}`));
    expect(delivered).toEqual([link]);
  });

  it("takes a second launch's link from its arguments (Windows, Linux), and ignores a launch without one", () => {
    const { app, delivered, start } = receive();
    start();
    app.emit('second-instance', new TestEvent(), ['/opt/Switchboard/switchboard', '--allow-file-access-from-files', 'SWITCHBOARD://install?registry=a%2Fb'], '/home/me');
    app.emit('second-instance', new TestEvent(), ['/opt/Switchboard/switchboard'], '/home/me');
    expect(delivered).toEqual(['SWITCHBOARD://install?registry=a%2Fb']);
  });

  it("takes macOS's open-url, also before the app is ready, and tells macOS it was handled", () => {
    const { app, delivered, start } = receive();
    const early = new TestEvent();
    app.emit('open-url', early, link);
    expect(early.defaultPrevented).toBe(true);
    start();
    app.emit('open-url', new TestEvent(), 'switchboard://install?catalog=git');
    expect(delivered).toEqual([link, 'switchboard://install?catalog=git']);
  });

  it('finds a link among arguments only by its scheme', () => {
    expect(linkInArgv(['app', '--flag', 'https://install?catalog=x', 'switchboard:x'])).toBe('switchboard:x');
    expect(linkInArgv(['app', 'switchboardx://install'])).toBeUndefined();
    expect(linkInArgv([])).toBeUndefined();
  });
});
