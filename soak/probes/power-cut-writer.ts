/**
 * The process the power-cut soak SIGKILLs: it writes the data home's files through Switchboard's
 * own writers, back to back, each file numbering its versions, and journals every write on stdout
 * (synchronously, so a line printed before the kill is never lost):
 *   "<file> at <n>"     the version on disk when this process started
 *   "<file> begin <n>"  writing version n now
 *   "<file> done <n>"   version n is written
 * Usage: node <compiled writer> <home> (soak/lib/writer-build.ts compiles it)
 */
import { writeSync } from 'node:fs';
import { ConversationStore } from '../../src-main/core/chat/conversation-store';
import { addServer, updateServer } from '../../src-main/core/config/config-writer';
import { ApprovalStore } from '../../src-main/core/approvals/approval-store';
import { ToolCache } from '../../src-main/core/mcp/tool-cache';
import { POWER_CUT_FILES, powerCutPaths, readVersions, soakConversation, soakTool, soakToolList, TOOL_CACHE_KEY, type PowerCutFile } from '../lib/power-cut-files';

const home = process.argv[2];
if (!home) throw new Error('usage: power-cut-writer.ts <home>');
const say = (line: string) => writeSync(1, `${line}\n`);

const paths = powerCutPaths(home);
const approvals = new ApprovalStore(paths.approvals);
await approvals.load();
const conversations = new ConversationStore(paths.conversationDir);
const cache = new ToolCache(home);

const writers: Record<PowerCutFile, (n: number) => Promise<void>> = {
  config: (n) => (n === 1 ? addServer(home, 'alpha', { command: 'node', args: ['server.js', `v${n}`] }) : updateServer(home, 'alpha', { command: 'node', args: ['server.js', `v${n}`] })),
  conversation: (n) => conversations.save(soakConversation(n)),
  approvals: (n) => approvals.grantTool(soakTool(n)),
  toolCache: (n) => cache.write(TOOL_CACHE_KEY, soakToolList(n)),
};

const start = await readVersions(home);
for (const file of POWER_CUT_FILES) say(`${file} at ${start[file] ?? 0}`);
say('ready');
await Promise.all(
  POWER_CUT_FILES.map(async (file) => {
    for (let n = (start[file] ?? 0) + 1; ; n++) {
      say(`${file} begin ${n}`);
      await writers[file](n);
      say(`${file} done ${n}`);
    }
  }),
);
