import { join } from 'node:path';
import type { z } from 'zod';
import type { discoverInvokes, installInvokes, installLinkInvokes } from '../../../src-preload/contract/install';
import { AppFailure } from '../app-error';
import type { BundleInstaller } from './bundle-installer';
import { parseInstallLink } from './install-link';
import type { InstallLinkInbox } from './install-link-inbox';
import type { ServerInstaller } from './server-installer';
import type { UploadStaging } from './upload-staging';

type Invokes = typeof installInvokes & typeof discoverInvokes & typeof installLinkInvokes;
export type InstallHandlers = {
  [K in keyof Invokes]: (input: z.output<Invokes[K]['input']>) => Promise<Invokes[K]['output']>;
};

export const uploadsDir = (home: string): string => join(home, 'bundles', '.uploads');

/** The install area's calls; the UI sends bundle bytes, main keeps them in a private upload folder. */
export function installHandlers(installer: BundleInstaller, staging: UploadStaging, servers: ServerInstaller, links: InstallLinkInbox): InstallHandlers {
  return {
    readInstallLink: async ({ link }) => {
      const parsed = parseInstallLink(link);
      if (!parsed.ok) throw new AppFailure('invalid_input', parsed.message);
      return servers.linkView(parsed.link);
    },
    takeInstallLink: async () => {
      const link = links.take();
      return link ? servers.linkView(link) : null;
    },
    installLinkedServer: async ({ name, entry, sandbox }) => servers.installLinked(name, entry, sandbox),
    listCatalog: async () => servers.catalog(),
    searchRegistry: async ({ query, cursor }) => ({ ...(await servers.search(query, cursor)), registryUrl: await servers.registryUrl() }),
    getRegistryUrl: async () => ({ url: await servers.registryUrl() }),
    setRegistryUrl: async ({ url }) => ({ url: await servers.setRegistryUrl(url) }),
    installServer: async ({ source, option, name, values, sandbox }) => servers.install(source, option, name, values, sandbox),
    downloadRegistryBundle: async ({ source, option }) => servers.downloadBundle(source, option),
    beginBundleUpload: async ({ size }) => ({ upload: await staging.begin(size) }),
    appendBundleUpload: async ({ upload, offset, data }) => ({ received: await staging.append(upload, offset, Buffer.from(data, 'base64')) }),
    discardBundleUpload: async ({ upload }) => {
      await staging.discard(upload);
      return null;
    },
    previewBundle: async ({ upload }) => installer.preview(staging.pathOf(upload)),
    installBundle: async ({ upload, name, values, secrets, sandbox }) => {
      const result = await installer.install(staging.pathOf(upload), { name, values, secrets, ...(sandbox !== undefined ? { sandbox } : {}) });
      await staging.discard(upload);
      return result;
    },
    listBundles: async () => installer.list(),
    uninstallBundle: async ({ name }) => {
      await installer.uninstall(name);
      return null;
    },
  };
}
