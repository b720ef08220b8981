import { basename, join } from 'node:path';
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions } from 'electron';
import type { AggregateStatus, Appearance, ServerStateKind, ServersSnapshot, ThemeChoice } from '../../src-preload/contract';
import type { EventHub } from '../core/event-hub';

/** The tray picture for an aggregate level; assets/ holds tray-<level>.png and its @2x. */
export function trayIconFor(status: AggregateStatus): string {
  const level = status.level;
  switch (level) {
    case 'green':
    case 'amber':
    case 'red':
    case 'neutral':
      return `tray-${level}.png`;
  }
}

export function stateText(state: ServerStateKind): string {
  switch (state) {
    case 'disabled':
      return 'off';
    case 'trust_required':
      return 'waiting for your approval';
    case 'connecting':
      return 'connecting';
    case 'connected':
      return 'connected';
    case 'needs_auth':
      return 'sign-in needed';
    case 'error':
      return 'error';
    case 'backing_off':
      return 'retrying';
  }
}

export interface TrayActions {
  open(): void;
  reconnectAll(): void;
  setTheme(theme: ThemeChoice): void;
  quit(): void;
}

const THEME_LABELS: Record<ThemeChoice, string> = { system: 'Same as the system', light: 'Light', dark: 'Dark' };

const MAX_REASON = 80;

/** Menu labels are plain text, but Windows reads "&" as a mnemonic marker and a newline would break the line. */
function menuText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const short = flat.length > MAX_REASON ? `${flat.slice(0, MAX_REASON - 1)}…` : flat;
  return short.replaceAll('&', '&&');
}

/** The theme choice, the same one as in the window's settings: picking one here changes it there too. */
function themeMenu(theme: ThemeChoice, actions: TrayActions): MenuItemConstructorOptions {
  const choices = Object.keys(THEME_LABELS) as ThemeChoice[];
  return {
    label: 'Appearance',
    submenu: choices.map((choice) => ({ label: THEME_LABELS[choice], type: 'radio', checked: choice === theme, click: () => actions.setTheme(choice) })),
  };
}

export function trayMenuTemplate(snapshot: ServersSnapshot, actions: TrayActions, theme: ThemeChoice = 'system'): MenuItemConstructorOptions[] {
  const serverLines: MenuItemConstructorOptions[] = snapshot.servers.map((server) => {
    const reason = server.reason && server.state !== 'needs_auth' ? `: ${server.reason}` : '';
    return { label: menuText(`${server.name} — ${stateText(server.state)}${reason}`), enabled: false };
  });
  if (serverLines.length === 0) serverLines.push({ label: 'No servers configured', enabled: false });
  const faults = snapshot.problems.filter((p) => !p.note); // a note is not a problem
  const problems: MenuItemConstructorOptions[] = faults.length
    ? [{ label: menuText(`${basename(faults[0]!.file)} has ${faults.length === 1 ? 'a problem' : `${faults.length} problems`} — open Switchboard to see`), enabled: false }]
    : [];
  return [
    { label: 'Open Switchboard', click: () => actions.open() },
    { type: 'separator' },
    ...problems,
    ...serverLines,
    { type: 'separator' },
    { label: 'Reconnect all', click: () => actions.reconnectAll() },
    themeMenu(theme, actions),
    { label: 'Quit', click: () => actions.quit() },
  ];
}

/** The tray icon, tooltip and menu, kept in step with every serversChanged and appearanceChanged event. */
export class StatusTray {
  private readonly tray: Tray;
  private readonly unsubscribe: () => void;
  private snapshot: ServersSnapshot;

  constructor(
    private readonly assetsDir: string,
    private readonly actions: TrayActions,
    events: EventHub,
    snapshot: ServersSnapshot,
    private theme: ThemeChoice = 'system',
  ) {
    this.snapshot = snapshot;
    this.tray = new Tray(this.image(snapshot.status));
    this.tray.on('click', () => actions.open());
    this.update(snapshot);
    this.unsubscribe = events.subscribe((name, payload) => {
      if (name === 'serversChanged') this.update(payload as ServersSnapshot);
      if (name === 'appearanceChanged') {
        this.theme = (payload as Appearance).theme;
        this.update(this.snapshot);
      }
    });
  }

  update(snapshot: ServersSnapshot): void {
    this.snapshot = snapshot;
    this.tray.setImage(this.image(snapshot.status));
    this.tray.setToolTip(snapshot.status.label);
    this.tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(snapshot, this.actions, this.theme)));
  }

  destroy(): void {
    this.unsubscribe();
    this.tray.destroy();
  }

  private image(status: AggregateStatus) {
    // createFromPath picks up tray-<level>@2x.png beside it on high-density screens.
    return nativeImage.createFromPath(join(this.assetsDir, trayIconFor(status)));
  }
}
