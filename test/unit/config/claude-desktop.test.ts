import { describe, expect, it } from 'vitest';
import { claudeDesktopConfigPath } from '../../../src-main/core/config/claude-desktop';

describe('claudeDesktopConfigPath', () => {
  it('follows each OS', () => {
    expect(claudeDesktopConfigPath({ HOME: '/Users/a' }, 'darwin')).toBe('/Users/a/Library/Application Support/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfigPath({ HOME: '/home/a' }, 'linux')).toBe('/home/a/.config/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfigPath({ HOME: '/home/a', XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfigPath({ HOME: 'C:\\Users\\a', APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toContain('Claude');
  });
});
