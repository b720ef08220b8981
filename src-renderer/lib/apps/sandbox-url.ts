import type { AppCsp } from '../../../src-preload/contract/apps';
import { getApi } from '../api';

let proxy: Promise<string> | undefined;

/** The sandbox proxy's address, asked of main once (it differs per shell and per web-mode port). */
function proxyUrl(): Promise<string> {
  proxy ??= getApi()
    .appSandbox({})
    .then((result) => {
      if (result.ok) return result.value.url;
      proxy = undefined;
      throw new Error(result.error.message);
    });
  return proxy;
}

/** The proxy page for one app: its declared domains ride along, and the proxy's CSP header is built from them. */
export async function sandboxSrc(csp: AppCsp | undefined): Promise<string> {
  const url = new URL(await proxyUrl());
  if (csp) url.searchParams.set('csp', JSON.stringify(csp));
  return url.href;
}
