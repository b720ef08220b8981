import { describe, expect, it } from 'vitest';
import { APP_MIME_TYPE, appMayCall, appResource, toolAudience, toolUiResource, visibleToModel } from '../../../src-main/core/apps/app-tools';
import { appsHandlers } from '../../../src-main/core/apps/apps-handlers';

const tool = (ui?: unknown, extra: Record<string, unknown> = {}) => ({ name: 't', ...(ui === undefined ? {} : { _meta: { ui, ...extra } }) });

describe('tools and MCP Apps (_meta.ui)', () => {
  it('finds the ui:// resource in _meta.ui.resourceUri or the deprecated flat key, and nothing else', () => {
    expect(toolUiResource(tool({ resourceUri: 'ui://a/app.html' }))).toBe('ui://a/app.html');
    expect(toolUiResource({ _meta: { 'ui/resourceUri': 'ui://old/app.html' } })).toBe('ui://old/app.html');
    expect(toolUiResource(tool({ resourceUri: 'https://evil.example/app.html' }))).toBeUndefined();
    expect(toolUiResource(tool({ resourceUri: 42 }))).toBeUndefined();
    expect(toolUiResource(tool())).toBeUndefined();
  });

  it('reads visibility, defaulting to model and app, and hides app-only tools from the model', () => {
    expect(toolAudience(tool())).toEqual(['model', 'app']);
    expect(toolAudience(tool({ visibility: ['app'] }))).toEqual(['app']);
    expect(toolAudience(tool({ visibility: ['app', 'root'] }))).toEqual(['model', 'app']);
    expect(visibleToModel(tool({ visibility: ['app'] }))).toBe(false);
    expect(visibleToModel(tool({ visibility: ['model'] }))).toBe(true);
    expect(visibleToModel(tool())).toBe(true);
  });

  it('lets an app call only its own server’s tools that the server opened to apps (SECURITY U6)', () => {
    expect(appMayCall(tool({ visibility: ['app'] }), 'monitor', 'monitor')).toEqual({ ok: true });
    expect(appMayCall(tool(), 'monitor', 'monitor')).toEqual({ ok: true });
    expect(appMayCall(tool({ visibility: ['model'] }), 'monitor', 'monitor')).toEqual({ ok: false, reason: 'the server did not make "t" callable by apps' });
    expect(appMayCall(tool({ visibility: ['app'] }), 'files', 'monitor')).toEqual({ ok: false, reason: 'an app of "monitor" may not call tools of another server ("files")' });
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
    await expect(appsHandlers().appSandbox({})).rejects.toMatchObject({ code: 'unavailable', message: 'MCP Apps need Switchboard’s window or web mode; this shell has no app sandbox' });
  });
});
