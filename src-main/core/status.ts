import type { AggregateStatus, ServerView } from '../../src-preload/contract';

/**
 * One glance at MCP health for the tray: every enabled server connected (green), some
 * (amber), none (red); MCP switched off or nothing enabled (neutral).
 */
export function aggregateStatus(servers: readonly ServerView[], mcpDisabled: boolean): AggregateStatus {
  const enabled = servers.filter((s) => s.enabled);
  const connected = enabled.filter((s) => s.state === 'connected').length;
  const needsAuth = enabled.filter((s) => s.state === 'needs_auth').length;
  const base = { connected, enabled: enabled.length, needsAuth };
  if (mcpDisabled) return { ...base, level: 'neutral', label: 'MCP off' };
  if (enabled.length === 0) return { ...base, level: 'neutral', label: servers.length ? 'No servers enabled' : 'No servers' };
  const label = `MCP ${connected}/${enabled.length}${needsAuth ? ` · sign-in needed` : ''}`;
  if (connected === enabled.length) return { ...base, level: 'green', label };
  return { ...base, level: connected === 0 ? 'red' : 'amber', label };
}
