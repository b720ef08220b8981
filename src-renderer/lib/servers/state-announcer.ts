import type { ServerStateKind, ServerView } from '../../../src-preload/contract';
import { stateLabel } from '../state-labels';

/** Each server's state, by name: what the announcer compares. */
export type StateMap = Record<string, ServerStateKind>;

export const stateMap = (servers: readonly ServerView[]): StateMap => Object.fromEntries(servers.map((s) => [s.name, s.state]));

/**
 * What a screen reader should hear when servers change state: "everything: Connected. files:
 * Error." Servers that appear or leave are not state changes (the list itself says so), and
 * "connecting" is passed over: it is a step on the way, not news.
 */
export function stateChanges(before: StateMap, after: StateMap): string {
  const changes: string[] = [];
  for (const [name, state] of Object.entries(after)) {
    const previous = before[name];
    if (previous === undefined || previous === state || state === 'connecting') continue;
    changes.push(`${name}: ${stateLabel[state]}.`);
  }
  return changes.join(' ');
}
