import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeFileAtomic } from '../config/atomic-file';
import { refuseRelaxedRules } from '../policy/approval-locks';
import { systemClock, type Clock, type Logger } from '../ports';
import type { ApprovalRule, PolicySettings } from './approval-policy';

/** What the person decided about asking: their rules and whether read-only tools run unasked. */
export type ApprovalSettings = Omit<PolicySettings, 'serverApproval'>;

export const DEFAULT_APPROVAL_SETTINGS: ApprovalSettings = { autoAllowReadOnly: false, rules: [] };

export const approvalSettingsFile = (home: string): string => join(home, 'approval-settings.json');

const ruleSchema = z.object({ pattern: z.string().min(1), effect: z.enum(['allow', 'ask', 'deny']) });
const fileSchema = z.object({
  autoAllowReadOnly: z.boolean(),
  rules: z.array(ruleSchema),
  /** When each rule was first saved ("effect pattern" -> epoch ms), for the grants page. */
  ruleAddedAt: z.record(z.string(), z.number()).optional(),
});
/** The same fields where they were kept before they had a file of their own (the chat settings). */
const earlierSchema = fileSchema.partial();

/** The key a rule's date is kept under: the same pattern with another effect is another rule. */
export const ruleKey = (rule: { pattern: string; effect: string }): string => `${rule.effect} ${rule.pattern}`;

/**
 * The approval settings' one owner (read by the broker on every call, written from the chat's settings
 * form and the grants page). A data home from before this file existed keeps its rules: they are read
 * once from `earlierFile` and written here.
 */
export class ApprovalSettingsStore {
  private current: ApprovalSettings = structuredClone(DEFAULT_APPROVAL_SETTINGS);
  private ruleAddedAt: Record<string, number> = {};
  private loading: Promise<void> | undefined;

  constructor(
    private readonly file: string,
    private readonly options: { earlierFile?: string; logger?: Logger; clock?: Clock } = {},
  ) {}

  /** Reads the file once; later calls wait for the same read. */
  load(): Promise<void> {
    this.loading ??= this.read();
    return this.loading;
  }

  private async read(): Promise<void> {
    const read = await readJsonFile(this.file, fileSchema);
    if (read.kind === 'ok') return this.adopt(read.value);
    if (read.kind === 'invalid') {
      // Kept as it is (the person may fix it); nothing is allowed by a rule meanwhile.
      this.options.logger?.warn(`ignoring unreadable approval settings ${this.file}; no rules apply until it is fixed or saved again`, { error: read.error });
      return;
    }
    if (!this.options.earlierFile) return;
    const earlier = await readJsonFile(this.options.earlierFile, earlierSchema);
    if (earlier.kind !== 'ok' || (earlier.value.rules === undefined && earlier.value.autoAllowReadOnly === undefined)) return;
    this.adopt({ ...DEFAULT_APPROVAL_SETTINGS, ...earlier.value });
    await this.write();
  }

  private adopt(value: z.infer<typeof fileSchema>): void {
    const { ruleAddedAt, ...settings } = value;
    this.current = settings;
    this.ruleAddedAt = ruleAddedAt ?? {};
  }

  /** The current settings without a copy, for the broker on every call. */
  peek(): Readonly<ApprovalSettings> {
    return this.current;
  }

  get(): ApprovalSettings {
    return structuredClone(this.current);
  }

  async set(next: ApprovalSettings): Promise<void> {
    await this.load();
    // While the administrator's policy says every call asks, nothing here may be relaxed (SECURITY X2).
    refuseRelaxedRules(this.current, next);
    this.current = { autoAllowReadOnly: next.autoAllowReadOnly, rules: next.rules.map((rule: ApprovalRule) => ({ pattern: rule.pattern, effect: rule.effect })) };
    // A rule keeps the date it was first saved; a new one is dated now; a removed one's date goes.
    const now = (this.options.clock ?? systemClock).now();
    this.ruleAddedAt = Object.fromEntries(this.current.rules.map((rule) => [ruleKey(rule), this.ruleAddedAt[ruleKey(rule)] ?? now]));
    await this.write();
  }

  /** When a rule was first saved, if known (rules saved before dates were kept have none). */
  addedAt(rule: ApprovalRule): number | undefined {
    return this.ruleAddedAt[ruleKey(rule)];
  }

  private write(): Promise<void> {
    return writeFileAtomic(this.file, JSON.stringify({ ...this.current, ruleAddedAt: this.ruleAddedAt }, null, 2));
  }
}
