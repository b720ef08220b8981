import type { BundleFieldView, SandboxBlockView } from '../../../src-preload/contract';
import { formPayload, type FieldInput } from './bundle-form';

/** One line of the install form's sandbox section: what it may do, item by item, and the entry field it is written to. */
export interface SandboxLine {
  label: string;
  field: 'allowWrite' | 'allowRead' | 'denyRead' | 'denyWrite' | 'allowedDomains' | 'deniedDomains' | 'own';
  items: string[];
}

/**
 * The sandbox an install writes, in plain words (SECURITY V2, X1): "Runs sandboxed. Can write: ~/notes.
 * Network: api.github.com", each item exactly as the entry will hold it. Off says what that means.
 */
export function sandboxSummary(block: SandboxBlockView, on: boolean, extra: SandboxLine[] = []): { headline: string; lines: SandboxLine[] } {
  if (!on) return { headline: 'Runs unsandboxed, with all your rights: it can read and change your files and reach any host.', lines: [] };
  const fs = block.filesystem ?? {};
  const net = block.network ?? {};
  const lines: SandboxLine[] = [
    ...extra,
    { label: 'Can write', field: 'allowWrite', items: fs.allowWrite ?? [] },
    { label: 'Can also read', field: 'allowRead', items: fs.allowRead ?? [] },
    { label: 'Cannot read', field: 'denyRead', items: fs.denyRead ?? [] },
    { label: 'Cannot write', field: 'denyWrite', items: fs.denyWrite ?? [] },
    { label: 'Network', field: 'allowedDomains', items: net.allowedDomains ?? [] },
    { label: 'Blocked hosts', field: 'deniedDomains', items: net.deniedDomains ?? [] },
  ];
  return {
    headline: 'Runs sandboxed: it never sees your home folder’s secret places (~/.ssh, keyrings, browser profiles) or Switchboard’s own data.',
    // Write and network are always said, even when empty: "nothing" is the answer a person looks for.
    lines: lines.filter((l) => l.items.length > 0 || l.field === 'allowWrite' || l.field === 'allowedDomains'),
  };
}

/** What an empty line means, in words. */
export function emptyLine(line: SandboxLine): string {
  return line.field === 'allowedDomains' ? 'none (no network at all)' : line.field === 'allowWrite' ? 'only its own temporary folder' : 'nothing';
}

/**
 * A bundle's sandbox block from the card's current settings, as main builds it (install/bundle-sandbox): each
 * picked folder a write grant, each picked file a read grant, a path starting with ~/ in the home folder.
 */
export function bundleSandboxBlock(fields: BundleFieldView[], inputs: Record<string, FieldInput>): SandboxBlockView {
  const { values } = formPayload(fields, inputs);
  const allowWrite: string[] = [];
  const allowRead: string[] = [];
  for (const field of fields) {
    if (!field.grants) continue;
    const value = values[field.key];
    const paths = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string' && v.trim() !== '');
    (field.grants === 'write' ? allowWrite : allowRead).push(...paths);
  }
  const filesystem = { ...(allowWrite.length ? { allowWrite } : {}), ...(allowRead.length ? { allowRead } : {}) };
  return Object.keys(filesystem).length ? { filesystem } : {};
}
