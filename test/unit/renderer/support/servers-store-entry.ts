import type { Api, Result } from '../../../../src-preload/contract';
import { ServersStore } from '../../../../src-renderer/lib/servers-store.svelte';

/** An Api whose answers the test hands out one by one: each call waits until release(method, value). */
const waiting = new Map<string, (result: Result<unknown>) => void>();
const asked: string[] = [];
const api = new Proxy({} as Api, {
  get: (_target, method: string) =>
    method.startsWith('on')
      ? () => () => {}
      : () => {
          asked.push(method);
          return new Promise((resolve) => waiting.set(method, resolve));
        },
});
const store = new ServersStore(api);
let loaded = false;

Object.assign(window, {
  startLoad: () => void store.load().then(() => (loaded = true)),
  release: (method: string, value: unknown) => waiting.get(method)?.({ ok: true, value }),
  storeState: () => ({ asked, servers: store.snapshot?.servers.map((s) => s.name) ?? null, projects: store.projects, loaded }),
});
