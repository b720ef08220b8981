import { createHash } from 'node:crypto';
import type { DefinitionChange } from '../../../src-preload/contract/chat';
import type { CatalogTool } from '../../../src-preload/contract/tools';

/** The parts of a tool definition that an approval vouches for (SECURITY A3). */
export interface ToolDefinition {
  tool: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: Record<string, unknown>;
}

/** Field by field, text as approved before and now (JSON for schema and annotations). */
export type { DefinitionChange };

export function toolDefinition(tool: CatalogTool): ToolDefinition {
  return {
    tool: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description ?? '',
    inputSchema: tool.inputSchema,
    annotations: { ...tool.annotations },
  };
}

/** JSON with object keys sorted, so the same definition always hashes the same. */
export function canonicalJson(value: unknown, indent?: number): string {
  return JSON.stringify(sortKeys(value), null, indent);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export function fingerprint(definition: ToolDefinition): string {
  return createHash('sha256').update(canonicalJson(definition)).digest('hex');
}

/** What changed between the approved definition and the current one, field by field. */
export function diffDefinitions(before: ToolDefinition, after: ToolDefinition): DefinitionChange[] {
  const fields: DefinitionChange['field'][] = ['tool', 'title', 'description', 'inputSchema', 'annotations'];
  const changes: DefinitionChange[] = [];
  for (const field of fields) {
    const a = fieldText(before, field);
    const b = fieldText(after, field);
    if (a !== b) changes.push({ field, before: a, after: b });
  }
  return changes;
}

function fieldText(definition: ToolDefinition, field: DefinitionChange['field']): string {
  const value = definition[field];
  if (value === undefined) return '';
  return typeof value === 'string' ? value : canonicalJson(value, 2);
}
