/**
 * Words people and models use for the same thing in tool requests ("folder" for "directory",
 * "picture" for "image", "remove" for "delete"). A query is widened with the other words of each
 * group a word belongs to; the added words count for less than the ones asked for. General tool
 * vocabulary, not any server's names: a server's own words are already in its index.
 */
const GROUPS: readonly string[][] = [
  ['file', 'document', 'doc'],
  ['folder', 'directory', 'dir', 'mkdir'],
  ['picture', 'image', 'photo', 'logo', 'png', 'media'],
  ['remove', 'delete', 'erase', 'drop', 'forget', 'wipe', 'unlink'],
  ['sum', 'add', 'plus', 'total', 'addition', 'arithmetic', 'calculate', 'compute'],
  ['create', 'make', 'new'],
  ['list', 'show', 'display', 'view', 'ls'],
  ['rename', 'move', 'mv'],
  ['relation', 'relationship', 'link', 'connect', 'connection', 'relate'],
  ['remember', 'memory', 'knowledge', 'recall', 'store'],
  ['entity', 'node', 'person', 'concept'],
  ['observation', 'fact', 'detail', 'note'],
  ['time', 'clock', 'date', 'now', 'timestamp'],
  ['system', 'machine', 'host', 'computer', 'hardware', 'platform'],
  ['cpu', 'processor', 'ram'],
  ['search', 'find', 'locate', 'lookup', 'look', 'query', 'grep', 'glob', 'pattern'],
  ['read', 'open', 'cat', 'contents', 'load'],
  ['write', 'save', 'overwrite'],
  ['edit', 'change', 'modify', 'patch', 'replace', 'update'],
  ['compress', 'zip', 'gzip', 'archive'],
  ['environment', 'env', 'variable'],
  ['echo', 'repeat', 'parrot'],
  ['info', 'information', 'metadata', 'details', 'stat', 'properties'],
  ['size', 'big', 'biggest', 'large', 'largest'],
  ['ask', 'elicit', 'elicitation', 'form', 'input'],
  ['research', 'investigate', 'study'],
  ['pdf', 'document'],
  ['all', 'everything', 'entire', 'whole', 'complete'],
];

/** Each word's companions, by the stemmed word. */
export function synonymTable(stem: (word: string) => string): Map<string, Set<string>> {
  const table = new Map<string, Set<string>>();
  for (const group of GROUPS) {
    const stems = group.map(stem);
    for (const s of stems) {
      const companions = table.get(s) ?? new Set<string>();
      for (const other of stems) if (other !== s) companions.add(other);
      table.set(s, companions);
    }
  }
  return table;
}
