/**
 * Small stand-ins for the parts of 'electron' the shell touches, for vi.mock('electron', …) in the
 * glue tests (the Electron runtime cannot run here). Each records what the code under test did.
 */
import { EventEmitter } from 'node:events';

type Handler = (...args: unknown[]) => unknown;

export class TestSession {
  permissionRequestHandler: Handler | null = null;
  permissionCheckHandler: Handler | null = null;
  setPermissionRequestHandler(handler: Handler | null): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: Handler | null): void {
    this.permissionCheckHandler = handler;
  }
}

export class TestWebContents {
  readonly session = new TestSession();
  readonly sent: Array<[string, unknown]> = [];
  readonly listeners = new Map<string, Handler[]>();
  windowOpenHandler: Handler | null = null;
  destroyed = false;

  on(name: string, handler: Handler): this {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), handler]);
    return this;
  }
  emit(name: string, ...args: unknown[]): void {
    for (const handler of this.listeners.get(name) ?? []) handler(...args);
  }
  setWindowOpenHandler(handler: Handler): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push([channel, payload]);
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

/** An event a listener may cancel, as will-navigate's is. */
export class TestEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

export class TestIpcMain {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, handler: Handler): void {
    // Electron refuses a second handler on one channel; so do we, to catch double binding.
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  invoke(channel: string, senderFrame: { url: string; parent: unknown } | null, payload: unknown): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return Promise.resolve(handler({ senderFrame }, payload));
  }
}

export class TestIpcRenderer extends EventEmitter {
  readonly invoked: Array<[string, unknown]> = [];
  reply: unknown = { ok: true, value: null };
  invoke(channel: string, input: unknown): Promise<unknown> {
    this.invoked.push([channel, input]);
    return Promise.resolve(this.reply);
  }
}

export const ipcRenderer = new TestIpcRenderer();

export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown): void {
    this.exposed.set(key, api);
  },
};

export const shell = {
  opened: [] as string[],
  async openExternal(url: string): Promise<void> {
    this.opened.push(url);
  },
};

export interface TestImage {
  path: string;
}
export const nativeImage = {
  createFromPath: (path: string): TestImage => ({ path }),
};

export interface TestMenu {
  template: Array<{ label?: string; type?: string; enabled?: boolean; click?: () => void }>;
}
export const Menu = {
  buildFromTemplate: (template: TestMenu['template']): TestMenu => ({ template }),
};

export class Tray extends EventEmitter {
  static instances: Tray[] = [];
  tooltip = '';
  menu: TestMenu | null = null;
  destroyed = false;
  constructor(public image: TestImage) {
    super();
    Tray.instances.push(this);
  }
  setImage(image: TestImage): void {
    this.image = image;
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: TestMenu): void {
    this.menu = menu;
  }
  destroy(): void {
    this.destroyed = true;
  }
}
