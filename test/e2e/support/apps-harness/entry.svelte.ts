/**
 * Test-only page for AppFrame until the chat and the tools panel mount it (never in the shipped bundle):
 * the e2e test serves this bundle on web mode's own origin, so AppFrame runs under the real UI's CSP and
 * token cookie and talks to the real web host. The test drives it through window.apps.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mount, unmount } from 'svelte';
import AppFrame from '../../../../src-renderer/components/apps/AppFrame.svelte';
import type { AppFrameProps } from '../../../../src-renderer/lib/apps/app-session.svelte';
import { getApi } from '../../../../src-renderer/lib/api';
import '../../../../src-renderer/styles/global.css';

type Spec = Pick<AppFrameProps, 'html' | 'csp' | 'appUri' | 'toolName' | 'serverName' | 'toolInput' | 'toolResult' | 'theme' | 'limits'>;

declare global {
  interface Window {
    /** Exposed by the test: the host's call policy and the real server behind it. */
    harnessCallTool(server: string, name: string, args: Record<string, unknown>): Promise<CallToolResult>;
    harnessRecord(id: string, kind: 'message' | 'context', text: string): void;
  }
}

// Not reactive state: the test reaches the mounted apps only through these functions.
// eslint-disable-next-line svelte/prefer-svelte-reactivity
const mounted = new Map<string, { app: ReturnType<typeof mount>; target: HTMLElement; props: AppFrameProps }>();

const apps = {
  mount(id: string, spec: Spec): void {
    const target = document.createElement('section');
    target.id = id;
    target.style.width = '720px';
    target.style.margin = '12px';
    document.getElementById('app')!.append(target);
    const props: AppFrameProps = $state({
      ...spec,
      callTool: (name, args) => window.harnessCallTool(spec.serverName, name, args),
      openLink: async (url) => {
        const result = await getApi().openExternal({ url });
        if (!result.ok) throw new Error(result.error.message);
      },
      checkLink: async (url) => {
        const checked = await getApi().checkAppLink({ url });
        return checked.ok ? { ok: true, url: checked.value.url } : { ok: false, reason: checked.error.message };
      },
      endRequests: async (frame, reason) => void (await getApi().endAppRequests({ frame, reason })),
      onMessage: (text) => window.harnessRecord(id, 'message', text),
      onContextUpdate: (text) => window.harnessRecord(id, 'context', text),
    });
    mounted.set(id, { app: mount(AppFrame, { target, props }), target, props });
  },
  setResult(id: string, result: CallToolResult): void {
    mounted.get(id)!.props.toolResult = result;
  },
  setTheme(id: string, theme: 'light' | 'dark'): void {
    mounted.get(id)!.props.theme = theme;
  },
  unmount(id: string): void {
    const entry = mounted.get(id);
    if (!entry) return;
    void unmount(entry.app);
    entry.target.remove();
    mounted.delete(id);
  },
};

Object.assign(window, { apps });
