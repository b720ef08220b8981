import type { AppCsp } from '../../../src-preload/contract/apps';
import { getApi } from '../api';

// Not reactive state: a cache of addresses main gave out, one per app.
const proxies = new Map<string, Promise<string>>();

/** An app's sandbox proxy address, asked of main once per app (each app has an origin of its own). */
function proxyUrl(app: { server: string; uri: string }): Promise<string> {
  const key = `${app.server}\n${app.uri}`;
  let proxy = proxies.get(key);
  if (!proxy) {
    proxy = getApi()
      .appSandbox(app)
      .then((result) => {
        if (result.ok) return result.value.url;
        proxies.delete(key);
        throw new Error(result.error.message);
      });
    proxies.set(key, proxy);
  }
  return proxy;
}

/** The proxy page for one app: its declared domains ride along, and the proxy's CSP header is built from them. */
export async function sandboxSrc(app: { server: string; uri: string }, csp: AppCsp | undefined): Promise<string> {
  const url = new URL(await proxyUrl(app));
  if (csp) url.searchParams.set('csp', JSON.stringify(csp));
  return url.href;
}
