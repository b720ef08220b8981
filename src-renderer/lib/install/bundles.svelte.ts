import type { Api, InstalledBundleView, ServerView } from '../../../src-preload/contract';

/** Installed bundles, read again whenever the servers change (an install or uninstall changes both). */
export class BundlesStore {
  list = $state.raw<InstalledBundleView[]>([]);

  constructor(private readonly api: Api) {
    api.onServersChanged(() => void this.load());
  }

  async load(): Promise<void> {
    const result = await this.api.listBundles({});
    if (result.ok) this.list = result.value;
  }

  of(server: ServerView): InstalledBundleView | undefined {
    return this.list.find((b) => b.name === server.name && b.source === server.source);
  }
}
