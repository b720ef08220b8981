// The shipped build of what the bench measures in main (see shipped-entry.ts and shipped-build.ts).
import { shippedModule } from './shipped-build';
import type * as Entry from './shipped-entry';

const shipped = (await import(shippedModule('core'))) as typeof Entry;

export const {
  SwitchboardCore,
  MemoryVault,
  McpManager,
  loginShellPath,
  savedLoginPath,
  loginPathFile,
  loadConfig,
  launchHash,
  ToolCache,
  capCallResult,
  buildCatalog,
  startWebHost,
  WS_PATH,
  isInvokeName,
  CoreCallPath,
  ToolLoading,
  FIND_TOOLS_DEFINITION,
  runFindTools,
  schemaTokens,
  visibleTo,
} = shipped;
