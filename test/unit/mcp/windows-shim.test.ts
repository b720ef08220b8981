import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBatchFile, launchWithoutShell, shimScript } from '../../../src-main/core/mcp/windows-shim';

// npm's cmd-shim output for npx, as installed with Node on Windows.
const NPX_CMD = `@ECHO off
GOTO start
:find_dp0
SET dp0=%~dp0
EXIT /b
:start
SETLOCAL
CALL :find_dp0

IF EXIST "%dp0%\\node.exe" (
  SET "_prog=%dp0%\\node.exe"
) ELSE (
  SET "_prog=node"
  SET PATHEXT=%PATHEXT:;.JS;=;%
)

endLocal & goto #_undefined_# 2>NUL || title %COMSPEC% & "%_prog%"  "%dp0%\\node_modules\\npm\\bin\\npx-cli.js" %*
`;

describe('Windows command shims', () => {
  it('finds the script an npm cmd-shim runs, so node can run it without a shell', () => {
    expect(shimScript('/nodejs/npx.cmd', NPX_CMD)).toEqual({ ok: true, script: join('/nodejs', 'node_modules', 'npm', 'bin', 'npx-cli.js') });
  });

  it('refuses a batch file of any other shape with a reason', () => {
    expect(shimScript('/tools/run.bat', '@echo off\r\npython server.py %*\r\n')).toEqual({
      ok: false,
      message: '/tools/run.bat is a batch script, and Switchboard runs commands without a shell; set "command" to the program it starts',
    });
  });

  it('launches node with the shim script and the server args on Windows, and leaves other platforms alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-shim-'));
    try {
      await writeFile(join(dir, 'npx.cmd'), NPX_CMD);
      const path = dirname(process.execPath);
      expect(await launchWithoutShell(join(dir, 'npx.cmd'), ['-y', 'pkg'], path, 'win32')).toEqual({
        ok: true,
        command: join(path, 'node'),
        args: [join(dir, 'node_modules', 'npm', 'bin', 'npx-cli.js'), '-y', 'pkg'],
      });
      expect(await launchWithoutShell(join(dir, 'npx.cmd'), ['x'], path, 'linux')).toEqual({ ok: true, command: join(dir, 'npx.cmd'), args: ['x'] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('knows a batch file by its extension', () => {
    expect(isBatchFile('C:\\nodejs\\npx.CMD')).toBe(true);
    expect(isBatchFile('C:\\nodejs\\node.exe')).toBe(false);
  });
});
