/**
 * The words of a tool definition the search indexes, field by field: names split into words,
 * the description's first sentence apart from the rest (it says what the tool does; the rest is
 * often usage notes that mention every other tool), and the arguments' names, descriptions and
 * enum values at any depth (an `action` enum names what a multi-purpose tool can do).
 */
import type { CatalogTool } from '../../../src-preload/contract/tools';

/** Deeper than any real schema's nesting of meaningful names; bounds a hostile or cyclic-looking one. */
const MAX_DEPTH = 4;
/** Enough for any real schema; bounds the index of a hostile one. */
const MAX_ARGUMENT_CHARS = 20_000;

/** "getSumOfNumbers" and "get-sum_of" both become "get Sum Of" / "get sum of". */
export function splitWords(text: string): string {
  return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-./:]+/g, ' ');
}

/** The first sentence of a description (up to the first ". ", newline or 200 characters). */
export function summaryOf(description: string): string {
  const flat = description.trim();
  const end = flat.search(/\.(\s|$)|\n/);
  return (end >= 0 ? flat.slice(0, end) : flat).slice(0, 200);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function schemaWords(schema: unknown, depth: number, out: string[]): void {
  if (!isRecord(schema) || depth > MAX_DEPTH) return;
  if (typeof schema.description === 'string' && depth > 0) out.push(schema.description);
  if (Array.isArray(schema.enum)) for (const value of schema.enum) if (typeof value === 'string') out.push(splitWords(value));
  if (isRecord(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      out.push(splitWords(name));
      schemaWords(property, depth + 1, out);
    }
  }
  if (isRecord(schema.items)) schemaWords(schema.items, depth + 1, out);
}

/** Argument names, their descriptions and enum values, nested ones included. */
export function argumentText(schema: CatalogTool['inputSchema']): string {
  const out: string[] = [];
  schemaWords(schema, 0, out);
  return out.join(' ').slice(0, MAX_ARGUMENT_CHARS);
}
