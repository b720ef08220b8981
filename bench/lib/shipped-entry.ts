// Everything the bench runs of Switchboard in main. bench/lib/shipped-build.ts compiles this file the
// way the app ships (Vite, as electron-vite builds out/main), so the figures time the shipped code, not
// tsx's development transform (which wraps every function it creates in a keep-names helper).
export { SwitchboardCore } from '../../src-main/core/switchboard-core';
export { MemoryVault } from '../../src-main/core/secrets/memory-vault';
export { McpManager } from '../../src-main/core/mcp/mcp-manager';
export { loginShellPath } from '../../src-main/core/mcp/login-path';
export { savedLoginPath } from '../../src-main/core/mcp/saved-login-path';
export { loginPathFile } from '../../src-main/core/data-home';
export { loadConfig } from '../../src-main/core/config/load-config';
export { launchHash } from '../../src-main/core/mcp/launch-hash';
export { ToolCache } from '../../src-main/core/mcp/tool-cache';
export { capCallResult } from '../../src-main/core/mcp/call-result';
export { buildCatalog } from '../../src-main/core/mcp/tool-catalog';
export { startWebHost } from '../../src-main/host/web-host';
export { WS_PATH } from '../../src-main/host/ws-protocol';
export { CoreCallPath } from './core-call-path';
export { ToolLoading } from '../../src-main/core/tools/tool-loading';
export { FIND_TOOLS_DEFINITION, runFindTools } from '../../src-main/core/tools/find-tools';
export { schemaTokens } from '../../src-main/core/tools/tool-tokens';
export { visibleTo } from '../../src-preload/contract/tools';
export { isInvokeName } from '../../src-preload/contract';
