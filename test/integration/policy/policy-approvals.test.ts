import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalBroker, type BrokerEvent } from '../../../src-main/core/approvals/approval-broker';
import type { PolicySettings } from '../../../src-main/core/approvals/approval-policy';
import { ApprovalStore, approvalsFile } from '../../../src-main/core/approvals/approval-store';
import type { ToolCallApprovalRequest } from '../../../src-preload/contract/chat';
import { catalogTool } from '../../support/catalog-tool';

/**
 * approvals: "always-ask" in the administrator's policy file (SECURITY X2), read where the call path reads it:
 * the broker's policyDecision (what the tool caller asks), the approval dialog's request, the always-allow store.
 */

const echo = catalogTool('everything', 'echo', { description: 'Echoes', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } });
const saved = process.env.SWITCHBOARD_POLICY;
let home: string;
let events: BrokerEvent[];
let settings: PolicySettings;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sb-policy-approvals-'));
  process.env.SWITCHBOARD_POLICY = join(home, 'policy.json');
  events = [];
  settings = { rules: [], autoAllowReadOnly: false, serverApproval: () => 'ask' };
});
afterEach(async () => {
  if (saved === undefined) delete process.env.SWITCHBOARD_POLICY;
  else process.env.SWITCHBOARD_POLICY = saved;
  await rm(home, { recursive: true, force: true });
});

const policy = (text: string) => writeFile(process.env.SWITCHBOARD_POLICY!, text);
const setUp = () => {
  const store = new ApprovalStore(approvalsFile(home));
  const broker = new ApprovalBroker({ store, settings: () => settings, emit: (e) => events.push(e), newId: () => `req-${events.length}` });
  return { store, broker };
};
const request = (broker: ApprovalBroker) => {
  void broker.requestToolCall({ tool: echo, args: { message: 'hi' }, origin: 'model', catalog: () => [echo], signal: new AbortController().signal });
  return events.filter((e) => e.name === 'approvalRequested').at(-1)!.payload as ToolCallApprovalRequest;
};

describe('approvals the policy will not let be relaxed (SECURITY X2)', () => {
  it('an always-allowed tool, an allow rule, a server set to auto and read-only auto-allow all ask anyway, set by your organization', async () => {
    const { store, broker } = setUp();
    await store.grantTool(echo);
    expect(broker.policyDecision(echo, {})).toMatchObject({ kind: 'run' });
    await policy(JSON.stringify({ approvals: 'always-ask' }));
    // Seen by the first call after the OS reports the change (the policy file is watched, not stat'ed per call).
    await expect.poll(() => broker.policyDecision(echo, {}), { timeout: 10_000 }).toMatchObject({ kind: 'ask', because: expect.stringContaining('every tool call asks (set by your organization)') });
    await store.revokeServer('everything');
    settings = { rules: [{ pattern: 'everything__*', effect: 'allow' }], autoAllowReadOnly: true, serverApproval: () => 'auto' };
    expect(broker.policyDecision({ ...echo, annotations: { readOnlyHint: true } }, {})).toMatchObject({ kind: 'ask' });
    // A deny still denies: the policy only ever adds a question.
    settings = { rules: [{ pattern: 'everything__echo', effect: 'deny' }], autoAllowReadOnly: false, serverApproval: () => 'auto' };
    expect(broker.policyDecision(echo, {})).toMatchObject({ kind: 'deny' });
  });

  it('the dialog offers no always-allow, an answer that asks for one is refused, and the store writes none', async () => {
    await policy(JSON.stringify({ approvals: 'always-ask' }));
    const { store, broker } = setUp();
    const asked = request(broker);
    expect(asked.canAlwaysAllow).toBe(false);
    await expect(broker.answer({ id: asked.id, decision: 'always_allow_tool' })).rejects.toThrow('every tool call asks (set by your organization); answer allow_once or deny');
    await expect(store.grantServer(echo, [echo])).rejects.toThrow('set by your organization');
    expect(store.list()).toEqual([]);
    await broker.answer({ id: asked.id, decision: 'allow_once' });
  });

  it('a broken policy file locks approvals too: fail closed', async () => {
    await policy('{ "approvals": ');
    const { store, broker } = setUp();
    settings = { rules: [], autoAllowReadOnly: false, serverApproval: () => 'auto' };
    expect(broker.policyDecision(echo, {})).toMatchObject({ kind: 'ask' });
    await expect(store.grantTool(echo)).rejects.toThrow('set by your organization');
  });

  it('without the rule, the person decides: always-allow is offered and kept', async () => {
    await policy(JSON.stringify({ approvals: 'person-decides' }));
    const { store, broker } = setUp();
    const asked = request(broker);
    expect(asked.canAlwaysAllow).toBe(true);
    await broker.answer({ id: asked.id, decision: 'always_allow_tool' });
    expect(store.list()).toMatchObject([{ kind: 'tool', server: 'everything', tool: 'echo' }]);
  });
});
