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
  webRTCIPHandlingPolicy: string | undefined;
  destroyed = false;

  setWebRTCIPHandlingPolicy(policy: string): void {
    this.webRTCIPHandlingPolicy = policy;
  }

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
  /** Fire-and-forget listeners (electron-store registers one for its renderer API, which our preload never exposes). */
  readonly listeners = new Map<string, Handler>();
  on(channel: string, listener: Handler): this {
    this.listeners.set(channel, listener);
    return this;
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

/** nativeTheme as Electron keeps it: themeSource decides, "system" follows the OS; 'updated' on every change. */
export class TestNativeTheme extends EventEmitter {
  /** The OS's scheme, which a test flips with setOsDark. */
  osDark = false;
  private source: 'system' | 'light' | 'dark' = 'system';
  get themeSource() {
    return this.source;
  }
  set themeSource(next: 'system' | 'light' | 'dark') {
    const before = this.shouldUseDarkColors;
    this.source = next;
    if (this.shouldUseDarkColors !== before) this.emit('updated');
  }
  get shouldUseDarkColors(): boolean {
    return this.source === 'system' ? this.osDark : this.source === 'dark';
  }
  setOsDark(dark: boolean): void {
    const before = this.shouldUseDarkColors;
    this.osDark = dark;
    if (this.shouldUseDarkColors !== before) this.emit('updated');
  }
  reset(): void {
    this.removeAllListeners();
    this.osDark = false;
    this.source = 'system';
  }
}
export const nativeTheme = new TestNativeTheme();

/** Every call the composition root makes that order matters for, in order. */
export const callOrder: string[] = [];

export class TestBrowserWindow extends EventEmitter {
  static instances: TestBrowserWindow[] = [];
  static getAllWindows(): TestBrowserWindow[] {
    return TestBrowserWindow.instances.filter((w) => !w.destroyed);
  }
  readonly webContents = new TestWebContents();
  visible = false;
  destroyed = false;
  url = '';
  bounds = { x: 10, y: 20, width: 1100, height: 760 };
  backgroundColor: string;
  constructor(readonly options: Record<string, unknown>) {
    super();
    this.backgroundColor = String(options.backgroundColor);
    TestBrowserWindow.instances.push(this);
  }
  setBackgroundColor(color: string): void {
    this.backgroundColor = color;
  }
  loadURL(url: string): Promise<void> {
    this.url = url;
    return Promise.resolve();
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  focus(): void {}
  isDestroyed(): boolean {
    return this.destroyed;
  }
  setBounds(bounds: { x: number; y: number; width: number; height: number }): void {
    this.bounds = bounds;
  }
  getBounds() {
    return this.bounds;
  }
  /** What the title bar's close button does: a cancellable close event, then the window is gone. */
  close(): void {
    const event = new TestEvent();
    this.emit('close', event);
    if (!event.defaultPrevented) {
      this.destroyed = true;
      this.webContents.destroyed = true;
    }
  }
}
export { TestBrowserWindow as BrowserWindow };

export class TestApp extends EventEmitter {
  readonly paths = new Map<string, string>();
  lockGranted = true;
  quitRequests = 0;
  quitted = false;
  exitCode: number | undefined;
  private markReady!: () => void;
  private ready = new Promise<void>((resolve) => (this.markReady = resolve));
  /** A new launch: whoever waited on the previous one keeps waiting. */
  resetReady(): void {
    this.ready = new Promise<void>((resolve) => (this.markReady = resolve));
  }
  setPath(name: string, path: string): void {
    callOrder.push(`setPath ${name}`);
    this.paths.set(name, path);
  }
  getPath(name: string): string {
    return this.paths.get(name) ?? '';
  }
  getAppPath(): string {
    return process.cwd();
  }
  getVersion(): string {
    return '0.0.0-test';
  }
  setAppUserModelId(): void {}
  /** What setAsDefaultProtocolClient was asked, in order: [scheme, path?, args?]. */
  readonly protocolClients: unknown[][] = [];
  setAsDefaultProtocolClient(...args: unknown[]): boolean {
    callOrder.push(`setAsDefaultProtocolClient ${String(args[0])}`);
    this.protocolClients.push(args);
    return true;
  }
  requestSingleInstanceLock(): boolean {
    callOrder.push('requestSingleInstanceLock');
    return this.lockGranted;
  }
  whenReady(): Promise<void> {
    return this.ready;
  }
  becomeReady(): void {
    callOrder.push('ready');
    this.markReady();
  }
  /** As Electron: before-quit may cancel; otherwise every window closes and the app ends. */
  quit(): void {
    this.quitRequests++;
    const event = new TestEvent();
    this.emit('before-quit', event);
    if (event.defaultPrevented) return;
    for (const win of TestBrowserWindow.getAllWindows()) win.close();
    this.quitted = true;
  }
  exit(code: number): void {
    this.exitCode = code;
  }
}
export const app = new TestApp();

export const protocol = {
  handlers: new Map<string, (request: Request) => Promise<Response>>(),
  privileged: [] as unknown[],
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    callOrder.push('registerSchemesAsPrivileged');
    this.privileged.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Promise<Response>): void {
    this.handlers.set(scheme, handler);
  },
};

export const ipcMain = new TestIpcMain();

export const dialog = {
  errors: [] as Array<[string, string]>,
  showErrorBox(title: string, content: string): void {
    this.errors.push([title, content]);
  },
};

export const screen = {
  getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
};

/** electron-store imports electron's default export (CommonJS interop): the same stand-ins. */
export default { app, ipcMain, shell, nativeTheme };
