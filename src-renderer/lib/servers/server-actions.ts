import type { AppError, InstalledBundleView, Result, ServerEntry, ServerEntryView, TrustApprovalView } from '../../../src-preload/contract';

/** Whose a server's entry is: what may be done with it here follows from that. */
export interface ServerOwnership {
  /** Defined in Switchboard's own servers.json: editable here. Otherwise the project's file is. */
  own: boolean;
  /** Set when the server was installed from a .mcpb bundle: it is uninstalled rather than edited. */
  bundle?: InstalledBundleView;
  /** The stored approval of this project server, if it has one. */
  approval?: TrustApprovalView;
}

/** What a server's details show: its overview, its tools, its logs, or its edit form. */
export type DetailTab = 'overview' | 'tools' | 'logs' | 'edit';

/** What a server row can ask for; the servers view implements it over the Api and the store. */
export interface ServerActions {
  reconnect: (name: string) => void;
  setEnabled: (name: string, enabled: boolean) => void;
  /** Always load this server's tools for the model (tools on demand). */
  setPinned: (name: string, pinned: boolean) => void;
  /** Open the server's details on a tab (beside the list, or under the row on a narrow window). */
  select: (name: string, tab: DetailTab) => void;
  close: () => void;
  /** The entry as written (env/header values masked): for the edit form and the trust card. */
  loadEntry: (name: string) => Promise<Result<ServerEntryView>>;
  /** Replace a servers.json entry; the core's message on failure. */
  save: (name: string, entry: ServerEntry) => Promise<AppError | undefined>;
  remove: (name: string) => void;
  approve: (name: string) => void;
  revoke: (name: string) => void;
  dismissError: (name: string) => void;
}
