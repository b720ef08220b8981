import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INSTALL_LINK_SCHEME } from '../../../src-main/electron/install-links';

// js-yaml and app-builder-lib come with electron-builder; they have no types of their own here.
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as { validateConfiguration(config: unknown, logger: unknown): Promise<void> };
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

const root = resolve(import.meta.dirname, '../../..');
const text = readFileSync(resolve(root, 'electron-builder.yml'), 'utf8');

interface BuilderConfig {
  appId: string;
  productName: string;
  files: string[];
  npmRebuild: boolean;
  asarUnpack: string[];
  electronFuses: Record<string, boolean>;
  linux: { target: string[]; icon: string };
  mac: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
  protocols: { name: string; schemes: string[] }[];
}
const config = yaml.load(text) as BuilderConfig;

describe('electron-builder.yml', () => {
  it('flips the Electron fuses SECURITY R7 asks for', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('packages the built app with its runtime assets, never rebuilds natives, and unpacks keytar from the asar', () => {
    expect(config.productName).toBe('Switchboard');
    expect(config.files).toEqual(expect.arrayContaining(['out/**', 'package.json', 'assets/icon.png', 'assets/tray-*.png']));
    expect(config.npmRebuild).toBe(false);
    expect(config.asarUnpack).toContain('**/node_modules/keytar/**/*.node');
  });

  it('builds AppImage and deb on Linux, dmg on macOS and nsis on Windows, with icons that exist', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    for (const icon of [config.linux.icon, config.mac.icon, config.win.icon]) expect(existsSync(resolve(root, icon)), icon).toBe(true);
  });

  it('declares the switchboard: scheme the shell registers for install links, so the OS hands links to the app', () => {
    expect(config.protocols).toEqual([{ name: 'Switchboard install link', schemes: [INSTALL_LINK_SCHEME] }]);
  });

  it("passes electron-builder's own schema check, which refuses an unknown option", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    const misspelt = { ...config, electronFuses: { ...config.electronFuses, runAsNodee: false } };
    await expect(validateConfiguration(misspelt, new DebugLogger(false))).rejects.toThrow(/configuration\.electronFuses should be/);
  });
});
