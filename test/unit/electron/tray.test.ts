import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AggregateStatus, ServerView, ServersSnapshot, StatusLevel } from '../../../src-preload/contract';
import { EventHub } from '../../../src-main/core/event-hub';
import { aggregateStatus } from '../../../src-main/core/status';
import { StatusTray, trayIconFor, trayMenuTemplate, type TrayActions } from '../../../src-main/electron/tray';
import { Tray } from './test-electron';

vi.mock('electron', () => import('./test-electron'));

const assetsDir = resolve(import.meta.dirname, '../../../assets');

function server(name: string, state: ServerView['state'], reason?: string): ServerView {
  return { name, transport: 'stdio', source: '/home/me/.config/Switchboard/servers.json', enabled: state !== 'disabled', state, toolCount: 0, shadowed: [], schemaTokens: 0, pinned: false, oauth: false, ...(reason ? { reason } : {}) };
}

function snapshotOf(servers: ServerView[], problems: ServersSnapshot['problems'] = []): ServersSnapshot {
  return { servers, problems, status: aggregateStatus(servers, false), configPath: '/home/me/.config/Switchboard/servers.json', toolBudget: { threshold: 10_000, mode: 'auto', enabledTokens: 0, enabledTools: 0, pinnedTools: 0, pinnedTokens: 0, overBudget: false, onDemand: false, tokenizer: 'o200k_base (gpt-tokenizer)', counting: false } };
}

class TestActions implements TrayActions {
  readonly done: string[] = [];
  open() {
    this.done.push('open');
  }
  reconnectAll() {
    this.done.push('reconnectAll');
  }
  setTheme(theme: string) {
    this.done.push(`theme ${theme}`);
  }
  quit() {
    this.done.push('quit');
  }
}

const status = (level: StatusLevel): AggregateStatus => ({ level, label: 'x', connected: 0, enabled: 0, needsAuth: 0 });

describe('trayIconFor', () => {
  it('maps every status level to its own tray picture, present in assets/ at 1x and 2x', () => {
    const levels: StatusLevel[] = ['green', 'amber', 'red', 'neutral'];
    const files = levels.map((level) => trayIconFor(status(level)));
    expect(files).toEqual(['tray-green.png', 'tray-amber.png', 'tray-red.png', 'tray-neutral.png']);
    for (const file of files) {
      expect(existsSync(resolve(assetsDir, file)), file).toBe(true);
      expect(existsSync(resolve(assetsDir, file.replace('.png', '@2x.png'))), file).toBe(true);
    }
  });
});

describe('trayMenuTemplate', () => {
  it('lists open, one disabled line per server with its state and reason, reconnect all and quit', () => {
    const menu = trayMenuTemplate(
      snapshotOf([server('everything', 'connected'), server('github', 'needs_auth', 'sign in to github.com'), server('files', 'error', 'command not found: npx')]),
      new TestActions(),
    );
    expect(menu.map((item) => item.type === 'separator' ? '---' : `${item.label}${item.enabled === false ? ' (disabled)' : ''}`)).toEqual([
      'Open Switchboard',
      '---',
      'everything — connected (disabled)',
      'github — sign-in needed (disabled)',
      'files — error: command not found: npx (disabled)',
      '---',
      'Reconnect all',
      'Appearance',
      'Quit',
    ]);
  });

  it('offers the theme choice as radio items, the current one checked, each storing its choice', () => {
    const actions = new TestActions();
    const appearance = trayMenuTemplate(snapshotOf([]), actions, 'dark').find((item) => item.label === 'Appearance')!;
    const items = appearance.submenu as { label: string; type: string; checked: boolean; click: () => void }[];
    expect(items.map((i) => `${i.type} ${i.label}${i.checked ? ' (checked)' : ''}`)).toEqual(['radio Same as the system', 'radio Light', 'radio Dark (checked)']);
    items[1]!.click();
    expect(actions.done).toEqual(['theme light']);
  });

  it('runs the matching action for open, reconnect all and quit', () => {
    const actions = new TestActions();
    const menu = trayMenuTemplate(snapshotOf([server('a', 'connected')]), actions);
    for (const label of ['Open Switchboard', 'Reconnect all', 'Quit']) (menu.find((item) => item.label === label)!.click as () => void)();
    expect(actions.done).toEqual(['open', 'reconnectAll', 'quit']);
  });

  it('says when there are no servers and when the config file has problems', () => {
    const menu = trayMenuTemplate(snapshotOf([], [{ file: '/home/me/.config/Switchboard/servers.json', line: 3, column: 5, message: 'x' }]), new TestActions());
    expect(menu.filter((item) => item.enabled === false).map((item) => item.label)).toEqual([
      'servers.json has a problem — open Switchboard to see',
      'No servers configured',
    ]);
  });

  it('counts only problems, never a note (a field ignored on purpose)', () => {
    const file = '/home/me/project/.mcp.json';
    const note = { file, server: 'p', message: 'server "p": "approval": "auto" in .mcp.json is ignored', note: true as const };
    expect(trayMenuTemplate(snapshotOf([], [note]), new TestActions()).map((item) => item.label)).not.toContainEqual(expect.stringContaining('problem'));
    const menu = trayMenuTemplate(snapshotOf([], [note, note, { file, message: 'x' }]), new TestActions());
    expect(menu.map((item) => item.label)).toContain('.mcp.json has a problem — open Switchboard to see');
  });

  it('keeps a server line to one short line and shows "&" literally on every platform', () => {
    const long = `first line\nsecond & more ${'x'.repeat(200)}`;
    const [, , line] = trayMenuTemplate(snapshotOf([server('a&b', 'backing_off', long)]), new TestActions());
    expect(line!.label).toBe(`a&&b — retrying: first line second && more ${'x'.repeat(38)}…`);
  });

  it('names every server state in words', () => {
    const states: ServerView['state'][] = ['disabled', 'trust_required', 'connecting', 'connected', 'needs_auth', 'error', 'backing_off'];
    const lines = trayMenuTemplate(snapshotOf(states.map((state) => server(state, state))), new TestActions())
      .filter((item) => item.enabled === false)
      .map((item) => item.label);
    expect(lines).toEqual([
      'disabled — off',
      'trust_required — waiting for your approval',
      'connecting — connecting',
      'connected — connected',
      'needs_auth — sign-in needed',
      'error — error',
      'backing_off — retrying',
    ]);
  });
});

describe('StatusTray', () => {
  beforeEach(() => {
    Tray.instances.length = 0;
  });

  it('shows the status picture, the "MCP n/m" tooltip and the menu, and follows every serversChanged', () => {
    const events = new EventHub();
    const actions = new TestActions();
    new StatusTray(assetsDir, actions, events, snapshotOf([server('a', 'connected'), server('b', 'connecting')]));
    const tray = Tray.instances[0]!;
    expect(tray.image.path).toBe(resolve(assetsDir, 'tray-amber.png'));
    expect(tray.tooltip).toBe('MCP 1/2');
    expect(tray.menu!.template.map((i) => i.label)).toContain('b — connecting');

    events.emit('serversChanged', snapshotOf([server('a', 'connected'), server('b', 'connected')]));
    expect(tray.image.path).toBe(resolve(assetsDir, 'tray-green.png'));
    expect(tray.tooltip).toBe('MCP 2/2');
    expect(tray.menu!.template.map((i) => i.label)).toContain('b — connected');
  });

  it('checks the stored theme and follows every appearanceChanged, keeping the servers it last showed', () => {
    const events = new EventHub();
    new StatusTray(assetsDir, new TestActions(), events, snapshotOf([server('a', 'connected')]), 'light');
    const tray = Tray.instances[0]!;
    const checked = () => ((tray.menu!.template.find((i) => i.label === 'Appearance') as { submenu: { label: string; checked: boolean }[] }).submenu.find((i) => i.checked)!.label);
    expect(checked()).toBe('Light');
    events.emit('appearanceChanged', { theme: 'dark' });
    expect(checked()).toBe('Dark');
    expect(tray.menu!.template.map((i) => i.label)).toContain('a — connected');
  });

  it('opens the window on a click and stops following events once destroyed', () => {
    const events = new EventHub();
    const actions = new TestActions();
    const statusTray = new StatusTray(assetsDir, actions, events, snapshotOf([server('a', 'error', 'boom')]));
    const tray = Tray.instances[0]!;
    expect(tray.image.path).toBe(resolve(assetsDir, 'tray-red.png'));
    tray.emit('click');
    expect(actions.done).toEqual(['open']);
    statusTray.destroy();
    events.emit('serversChanged', snapshotOf([]));
    expect(tray.destroyed).toBe(true);
    expect(tray.tooltip).toBe('MCP 0/1');
  });
});
