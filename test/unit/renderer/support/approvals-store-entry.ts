import type { ApprovalRequest } from '../../../../src-preload/contract/chat';
import type { ChatApi } from '../../../../src-renderer/lib/chat/chat-api';
import { ApprovalsStore } from '../../../../src-renderer/lib/chat/approvals-store.svelte';

/** An Api that only delivers approval events, raised by the test. */
let requested: ((request: ApprovalRequest) => void) | undefined;
const api = new Proxy({} as ChatApi, {
  get: (_target, method: string) =>
    method === 'onApprovalRequested'
      ? (listener: (request: ApprovalRequest) => void) => {
          requested = listener;
          return () => {};
        }
      : method.startsWith('on')
        ? () => () => {}
        : async () => ({ ok: true, value: [] }),
});
const store = new ApprovalsStore(api);

Object.assign(window, {
  raise: (request: ApprovalRequest) => requested?.(request),
  approvalsState: () => ({ pending: store.pending.map((r) => r.id), forChat: store.forChat.map((r) => r.id), first: store.first?.id ?? null }),
});
