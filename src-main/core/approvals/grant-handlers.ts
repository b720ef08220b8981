import type { z } from 'zod';
import type { GrantView, grantInvokes } from '../../../src-preload/contract/grants';
import { AppFailure } from '../app-error';
import type { ApprovalSettingsStore } from './approval-settings';
import type { ApprovalStore } from './approval-store';

type GrantInvokes = typeof grantInvokes;
type GrantHandlers = { [K in keyof GrantInvokes]: (input: z.output<GrantInvokes[K]['input']>) => Promise<GrantInvokes[K]['output']> };

/** Where the approval rules are kept. */
export type RuleStore = Pick<ApprovalSettingsStore, 'peek' | 'get' | 'set' | 'addedAt'>;

/** The grants page: always-allows from the approval store and the allow rules from the rule store. */
export function grantHandlers(chat: { approvals: Pick<ApprovalStore, 'list' | 'revokeTool' | 'revokeServerGrant'>; rules: RuleStore }): GrantHandlers {
  const list = (): GrantView[] => [
    ...chat.approvals.list(),
    ...chat.rules
      .peek()
      .rules.filter((rule) => rule.effect === 'allow')
      .map((rule): GrantView => {
        const grantedAt = chat.rules.addedAt(rule);
        return { kind: 'rule', pattern: rule.pattern, ...(grantedAt !== undefined ? { grantedAt } : {}) };
      }),
  ];
  return {
    listGrants: async () => list(),
    revokeGrant: async (grant) => {
      switch (grant.kind) {
        case 'tool':
          if (!(await chat.approvals.revokeTool(grant.server, grant.tool))) {
            throw new AppFailure('not_found', `tool "${grant.tool}" on server "${grant.server}" is not always allowed`);
          }
          break;
        case 'server':
          if (!(await chat.approvals.revokeServerGrant(grant.server))) throw new AppFailure('not_found', `server "${grant.server}" is not always allowed`);
          break;
        case 'rule': {
          const settings = chat.rules.get();
          const rules = settings.rules.filter((rule) => !(rule.effect === 'allow' && rule.pattern === grant.pattern));
          if (rules.length === settings.rules.length) throw new AppFailure('not_found', `there is no allow rule "${grant.pattern}"`);
          await chat.rules.set({ ...settings, rules });
          break;
        }
        default:
          return grant satisfies never;
      }
      return list();
    },
  };
}
