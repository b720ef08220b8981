import type { Api, AppError, Result, ServerView, ServersSnapshot, TrustApprovalView } from '../../src-preload/contract';

type Outcome = { ok: true } | { ok: false; error: AppError };

/** `run` after the browser has painted the next frame (a task queued from that frame's rAF runs after its paint). */
function afterNextPaint(run: () => void): void {
  requestAnimationFrame(() => setTimeout(run, 0));
}

/**
 * The servers snapshot as reactive state (loaded once, then replaced by every serversChanged
 * event), with the trust approvals and project folders the servers view shows beside it.
 * A failed action is kept next to the thing it was about: a server's row, or the view.
 */
export class ServersStore {
  snapshot = $state.raw<ServersSnapshot | undefined>(undefined);
  loadError = $state.raw<AppError | undefined>(undefined);
  /** Last failed view-wide action (reconnect all), shown until the next one succeeds. */
  actionError = $state.raw<AppError | undefined>(undefined);
  /** Last failed action per server, shown on that server's row until its next action succeeds. */
  serverErrors = $state.raw<Record<string, AppError>>({});
  approvals = $state.raw<TrustApprovalView[]>([]);
  projects = $state.raw<string[]>([]);

  constructor(private readonly api: Api) {
    api.onServersChanged((next) => {
      this.snapshot = next;
    });
  }

  async load(): Promise<void> {
    // The rows show the moment the snapshot arrives: approvals and project folders fill in beside them
    // (a file read each, which can queue behind the servers starting up).
    const asked = this.api.listServers({});
    const besides = Promise.all([this.loadApprovals(), this.loadProjects()]);
    const servers = await asked;
    if (servers.ok) {
      this.snapshot = servers.value;
      this.loadError = undefined;
      // Once the rows are on screen: the servers held back for them start (CoreDeps.holdServersForWindowMs).
      afterNextPaint(() => void this.api.windowShown({}));
    } else {
      this.loadError = servers.error;
    }
    await besides;
  }

  async loadApprovals(): Promise<void> {
    const result = await this.api.listTrust({});
    if (result.ok) this.approvals = result.value;
  }

  async loadProjects(): Promise<AppError | undefined> {
    const result = await this.api.listProjects({});
    if (result.ok) this.projects = result.value.projects;
    return result.ok ? undefined : result.error;
  }

  async run(action: () => Promise<Outcome>): Promise<void> {
    const result = await action();
    this.actionError = result.ok ? undefined : result.error;
  }

  /** Run an action about one server; its failure is shown on that server's row. */
  async runFor(name: string, action: () => Promise<Outcome>): Promise<boolean> {
    const result = await action();
    const { [name]: _previous, ...others } = this.serverErrors;
    this.serverErrors = result.ok ? others : { ...others, [name]: result.error };
    return result.ok;
  }

  /** Show a failure that did not come from runFor (e.g. logs that could not be read) on the server's row. */
  failFor(name: string, error: AppError): void {
    this.serverErrors = { ...this.serverErrors, [name]: error };
  }

  clearServerError(name: string): void {
    if (!(name in this.serverErrors)) return;
    const { [name]: _previous, ...others } = this.serverErrors;
    this.serverErrors = others;
  }

  /** Only servers.json is Switchboard's to write; project files belong to their project. */
  isOwn(server: ServerView): boolean {
    return server.source === this.snapshot?.configPath;
  }

  approvalOf(server: ServerView): TrustApprovalView | undefined {
    return this.approvals.find((a) => a.name === server.name && a.sourcePath === server.source);
  }

  async approve(name: string): Promise<void> {
    await this.runFor(name, () => this.api.approveTrust({ name }));
    await this.loadApprovals();
  }

  async revoke(name: string, sourcePath?: string): Promise<void> {
    await this.runFor(name, () => this.api.revokeTrust(sourcePath === undefined ? { name } : { name, sourcePath }));
    await this.loadApprovals();
  }

  async addProject(path: string): Promise<AppError | undefined> {
    return this.setProjects(await this.api.addProject({ path }));
  }

  async removeProject(path: string): Promise<AppError | undefined> {
    return this.setProjects(await this.api.removeProject({ path }));
  }

  private setProjects(result: Result<{ projects: string[] }>): AppError | undefined {
    if (!result.ok) return result.error;
    this.projects = result.value.projects;
    return undefined;
  }
}
