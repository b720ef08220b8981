import { describe, expect, it } from 'vitest';
import { APP_MIME_TYPE, appResource } from '../../../src-main/core/apps/app-tools';
import { toolUi, visibleTo } from '../../../src-preload/contract/tools';
import { appsHandlers } from '../../../src-main/core/apps/apps-handlers';

const tool = (ui?: unknown, extra: Record<string, unknown> = {}) => ({ name: 't', ...(ui === undefined ? {} : { _meta: { ui, ...extra } }) });

describe('tools and MCP Apps (_meta.ui)', () => {
  it('finds the ui:// resource in _meta.ui.resourceUri or the deprecated flat key, and nothing else', () => {
    expect(toolUi(tool({ resourceUri: 'ui://a/app.html' })).resourceUri).toBe('ui://a/app.html');
    expect(toolUi({ _meta: { 'ui/resourceUri': 'ui://old/app.html' } }).resourceUri).toBe('ui://old/app.html');
    expect(toolUi(tool({ resourceUri: 'https://evil.example/app.html' })).resourceUri).toBeUndefined();
    expect(toolUi(tool({ resourceUri: 42 })).resourceUri).toBeUndefined();
    expect(toolUi(tool()).resourceUri).toBeUndefined();
  });

  it('reads visibility, defaulting to model and app, and hides app-only tools from the model', () => {
    expect(toolUi(tool()).visibility).toEqual(['model', 'app']);
    expect(toolUi(tool({ visibility: ['app'] })).visibility).toEqual(['app']);
    expect(toolUi(tool({ visibility: ['root'] })).visibility).toEqual(['model', 'app']);
    expect(visibleTo(tool({ visibility: ['app'] }), 'model')).toBe(false);
    expect(visibleTo(tool({ visibility: ['model'] }), 'model')).toBe(true);
    expect(visibleTo(tool({ visibility: ['model'] }), 'app')).toBe(false);
    expect(visibleTo(tool(), 'model')).toBe(true);
    expect(visibleTo(tool({ visibility: ['app'] }), 'person')).toBe(true);
  });
});

describe('UI resources (resources/read)', () => {
  const uri = 'ui://a/app.html';
  it('takes the HTML, its declared CSP and permissions', () => {
    const read = appResource({ contents: [{ uri, mimeType: APP_MIME_TYPE, text: '<p>hi</p>', _meta: { ui: { csp: { connectDomains: ['https://a.example'] }, permissions: { camera: {} } } } }] }, uri);
    expect(read).toEqual({ ok: true, resource: { html: '<p>hi</p>', csp: { connectDomains: ['https://a.example'] }, permissions: { camera: {} } } });
  });

  it('decodes a base64 blob', () => {
    const read = appResource({ contents: [{ uri, mimeType: APP_MIME_TYPE, blob: Buffer.from('<p>blob</p>').toString('base64') }] }, uri);
    expect(read).toEqual({ ok: true, resource: { html: '<p>blob</p>' } });
  });

  it('drops a malformed CSP, which leaves the app with no network (fail closed)', () => {
    const read = appResource({ contents: [{ uri, mimeType: APP_MIME_TYPE, text: '<p>x</p>', _meta: { ui: { csp: { connectDomains: 'https://a.example' } } } }] }, uri);
    expect(read).toEqual({ ok: true, resource: { html: '<p>x</p>' } });
  });

  it('refuses a wrong MIME type, empty HTML or no content for the URI, naming why', () => {
    expect(appResource({ contents: [{ uri, mimeType: 'text/html', text: '<p>x</p>' }] }, uri)).toEqual({ ok: false, reason: `${uri}: the MIME type is "text/html", not ${APP_MIME_TYPE}` });
    expect(appResource({ contents: [{ uri, mimeType: APP_MIME_TYPE, text: '  ' }] }, uri)).toEqual({ ok: false, reason: `${uri}: the resource has no HTML` });
    expect(appResource({ contents: [] }, uri)).toEqual({ ok: false, reason: `${uri}: the server returned 0 contents and none for this URI` });
  });
});

describe('the core without a window', () => {
  it('says it has no app sandbox rather than inventing one', async () => {
    await expect(appsHandlers({} as never).appSandbox({ server: 'pdf', uri: 'ui://pdf/viewer' })).rejects.toMatchObject({ code: 'unavailable', message: 'MCP Apps need Switchboard’s window or web mode; this shell has no app sandbox' });
  });
});
