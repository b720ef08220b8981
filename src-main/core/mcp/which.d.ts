// `which` ships no types; this is the part of its API Switchboard uses.
declare module 'which' {
  interface WhichOptions {
    path?: string;
    pathExt?: string;
    nothrow?: boolean;
  }
  function which(cmd: string, options: WhichOptions & { nothrow: true }): Promise<string | null>;
  export default which;
}
