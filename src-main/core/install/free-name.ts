/**
 * A server name not taken yet: the wanted one made valid (letters, digits, "_", ".", "-"), then
 * "-2", "-3", … An install never overwrites a server of the same name; it offers this instead.
 */
export function freeName(wanted: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  let base = wanted.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 90);
  if (base === '') base = 'server';
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}
