import { join } from 'node:path';
import type { z } from 'zod';
import type { installInvokes } from '../../../src-preload/contract/install';
import type { BundleInstaller } from './bundle-installer';
import type { UploadStaging } from './upload-staging';

export type InstallHandlers = {
  [K in keyof typeof installInvokes]: (input: z.output<(typeof installInvokes)[K]['input']>) => Promise<(typeof installInvokes)[K]['output']>;
};

export const uploadsDir = (home: string): string => join(home, 'bundles', '.uploads');

/** The install area's calls; the UI sends bundle bytes, main keeps them in a private upload folder. */
export function installHandlers(installer: BundleInstaller, staging: UploadStaging): InstallHandlers {
  return {
    beginBundleUpload: async ({ size }) => ({ upload: await staging.begin(size) }),
    appendBundleUpload: async ({ upload, offset, data }) => ({ received: await staging.append(upload, offset, Buffer.from(data, 'base64')) }),
    discardBundleUpload: async ({ upload }) => {
      await staging.discard(upload);
      return null;
    },
    previewBundle: async ({ upload }) => installer.preview(staging.pathOf(upload)),
    installBundle: async ({ upload, name, values, secrets }) => {
      const result = await installer.install(staging.pathOf(upload), { name, values, secrets });
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
