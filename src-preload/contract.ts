/**
 * THE contract between the UI and the main process. Main parses every inbound payload
 * with these schemas; the renderer imports types only. Errors cross as Result values.
 * Method and event names are fixed here: the preload exposes one named function each,
 * never a generic invoke or on(channel). Each area keeps its entries in contract/<area>.ts.
 */
import type { z } from 'zod';
import { fail, ok, type Result } from './contract/common';
import { appsInvokes } from './contract/apps';
import { appearanceEvents, appearanceInvokes } from './contract/appearance';
import { authEvents, authInvokes } from './contract/auth';
import { chatEvents, chatInvokes } from './contract/chat';
import { configInvokes } from './contract/config';
import { discoverInvokes, installInvokes, installLinkEvents, installLinkInvokes } from './contract/install';
import { grantInvokes } from './contract/grants';
import { policyInvokes } from './contract/policy';
import { serverEvents, serverInvokes } from './contract/servers';
import { secretMigrationInvokes } from './contract/secret-migration';
import { toolBudgetInvokes } from './contract/tool-budget';
import { toolRunEvents, toolRunInvokes } from './contract/tool-run';
import { traceInvokes } from './contract/traces';

export * from './contract/apps';
export * from './contract/appearance';
export * from './contract/auth';
export * from './contract/chat';
export * from './contract/common';
export * from './contract/config';
export * from './contract/install';
export * from './contract/grants';
export * from './contract/policy';
export * from './contract/servers';
export * from './contract/secret-migration';
export * from './contract/tool-budget';
export * from './contract/tool-run';
export * from './contract/tasks';
export * from './contract/tools';
export * from './contract/traces';
export * from './contract/values';

export const invokes = {
  ...serverInvokes,
  ...toolRunInvokes,
  ...traceInvokes,
  ...toolBudgetInvokes,
  ...configInvokes,
  ...installInvokes,
  ...discoverInvokes,
  ...installLinkInvokes,
  ...chatInvokes,
  ...grantInvokes,
  ...policyInvokes,
  ...secretMigrationInvokes,
  ...authInvokes,
  ...appsInvokes,
  ...appearanceInvokes,
} as const;

export const events = {
  ...serverEvents,
  ...chatEvents,
  ...authEvents,
  ...appearanceEvents,
  ...installLinkEvents,
  ...toolRunEvents,
} as const;

export type InvokeName = keyof typeof invokes;
export type EventName = keyof typeof events;
export type InvokeInput<K extends InvokeName> = z.input<(typeof invokes)[K]['input']>;
export type InvokeOutput<K extends InvokeName> = (typeof invokes)[K]['output'];
export type EventPayload<K extends EventName> = (typeof events)[K];

/** IPC channel for an invoke or event; one place so shell and preload cannot drift. */
export const invokeChannel = (name: InvokeName): string => `switchboard:${name}`;
export const eventChannel = (name: EventName): string => `switchboard:event:${name}`;

/** Subscribe function name for an event: serversChanged -> onServersChanged. */
export type EventSubscriberName<K extends EventName> = `on${Capitalize<K>}`;
export const subscriberName = <K extends EventName>(name: K): EventSubscriberName<K> =>
  `on${name[0]!.toUpperCase()}${name.slice(1)}` as EventSubscriberName<K>;

export type Api = {
  [K in InvokeName]: (input: InvokeInput<K>) => Promise<Result<InvokeOutput<K>>>;
} & {
  [K in EventName as EventSubscriberName<K>]: (listener: (payload: EventPayload<K>) => void) => () => void;
};

/** What main implements: one handler per invoke. A missing one is a compile error. */
export type Handlers = {
  [K in InvokeName]: (input: z.output<(typeof invokes)[K]['input']>) => Promise<InvokeOutput<K>>;
};

/** Parse an inbound payload against the contract; the error names the method and the field. */
export function parseInput<K extends InvokeName>(name: K, payload: unknown): Result<z.output<(typeof invokes)[K]['input']>> {
  const parsed = invokes[name].input.safeParse(payload ?? {});
  if (parsed.success) return ok(parsed.data as z.output<(typeof invokes)[K]['input']>);
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length ? ` at "${issue.path.join('.')}"` : '';
  return fail('invalid_input', `${name}: invalid payload${where}: ${issue.message}`);
}

export const isInvokeName = (name: string): name is InvokeName => Object.hasOwn(invokes, name);
