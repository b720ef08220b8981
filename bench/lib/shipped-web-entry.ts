// What web mode's main process (src-main/web.ts) loads on top of the core: the web host. Compiled alone
// by shipped-build.ts for the memory figure's web-mode row.
export { startWebHost } from '../../src-main/host/web-host';
