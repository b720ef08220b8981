/**
 * Tool poisoning signs in server-supplied text (SECURITY A2). Flags are shown to the user next to
 * the full text; nothing is stripped, because hiding the evidence would hide the attack too.
 */
import type { HiddenCategory, TextFlag } from '../../../src-preload/contract/chat';

export type { TextFlag };

const HIDDEN: Array<{ category: HiddenCategory; test: (cp: number) => boolean }> = [
  { category: 'unicode_tags', test: (cp) => cp >= 0xe0000 && cp <= 0xe007f },
  { category: 'zero_width', test: (cp) => (cp >= 0x200b && cp <= 0x200d) || (cp >= 0x2060 && cp <= 0x2064) || cp === 0xfeff || cp === 0x180e },
  { category: 'bidi_control', test: (cp) => cp === 0x200e || cp === 0x200f || cp === 0x061c || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) },
];

/** Patterns seen in published tool-poisoning attacks; each flag names the one that matched. */
const INSTRUCTION_PATTERNS: Array<{ name: string; regex: RegExp }> = [
  { name: '<IMPORTANT> block', regex: /<\s*important\s*>/i },
  { name: '<SYSTEM> block', regex: /<\s*(system|instructions?)\s*>/i },
  { name: 'ignore previous instructions', regex: /\b(ignore|disregard|forget)\b[^.\n]{0,30}\b(previous|prior|above|earlier|all)\b[^.\n]{0,20}\b(instructions?|prompts?|rules)\b/i },
  { name: 'keep it from the user', regex: /\b(do not|don't|never)\b[^.\n]{0,20}\b(tell|mention|inform|show|reveal)\b[^.\n]{0,20}\b(the )?user\b/i },
  { name: 'before using this tool', regex: /\bbefore (using|calling) this tool\b/i },
  { name: 'mentions secret files', regex: /(~\/\.ssh|\bid_rsa\b|\bmcp\.json\b|\/etc\/passwd|\.aws\/credentials)/i },
  { name: 'override other tools', regex: /\b(instead of|rather than) (the |using )?(other|any other)\b[^.\n]{0,20}\btools?\b/i },
];

function hex(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The match with up to 20 characters either side, never cutting a character in half (a surrogate pair split shows as "�"). */
function excerpt(text: string, from: number, to: number, pad = 20): string {
  let start = Math.max(0, from - pad);
  let end = Math.min(text.length, to + pad);
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start--;
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end++;
  return text.slice(start, end);
}

const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** Flags for one piece of text; `where` names it in the UI (e.g. "description", "inputSchema.properties.path.description"). */
export function flagText(text: string, where: string): TextFlag[] {
  const flags: TextFlag[] = [];
  for (const { category, test } of HIDDEN) {
    const found: number[] = [];
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      if (test(cp)) found.push(cp);
    }
    if (found.length === 0) continue;
    const codepoints = [...new Set(found)].map(hex);
    // Tag characters mirror ASCII (U+E0041 is "A"): show the smuggled text.
    const decoded = category === 'unicode_tags' ? found.filter((cp) => cp >= 0xe0020 && cp <= 0xe007e).map((cp) => String.fromCodePoint(cp - 0xe0000)).join('') : undefined;
    flags.push({ kind: 'hidden_characters', where, category, count: found.length, codepoints, ...(decoded ? { decoded } : {}) });
  }
  for (const { name, regex } of INSTRUCTION_PATTERNS) {
    const match = regex.exec(text);
    if (!match) continue;
    flags.push({ kind: 'instruction_block', where, pattern: name, excerpt: excerpt(text, match.index, match.index + match[0].length) });
  }
  return flags;
}

/** Flags across a tool's title, description and every string inside its input schema. */
export function flagToolDefinition(definition: { title?: string; description?: string; inputSchema: unknown }): TextFlag[] {
  const flags: TextFlag[] = [];
  if (definition.title) flags.push(...flagText(definition.title, 'title'));
  flags.push(...flagText(definition.description ?? '', 'description'));
  walkStrings(definition.inputSchema, 'inputSchema', (text, where) => flags.push(...flagText(text, where)));
  return flags;
}

function walkStrings(value: unknown, where: string, visit: (text: string, where: string) => void): void {
  if (typeof value === 'string') visit(value, where);
  else if (Array.isArray(value)) value.forEach((v, i) => walkStrings(v, `${where}.${i}`, visit));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      visit(k, `${where}.${k} (key)`);
      walkStrings(v, `${where}.${k}`, visit);
    }
  }
}
