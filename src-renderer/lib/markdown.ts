/**
 * The model's markdown as sanitized HTML (SECURITY R6, CVE-2025-58444). Raw HTML in the markdown
 * is shown as text, images are not loaded (they could carry data out in their URL), and the
 * result goes through DOMPurify anyway. Links keep only http(s) targets and never navigate the
 * window: the view hands them to `api.openExternal`, which main validates (O8).
 * Server text never comes here: it is rendered with `{text}` interpolation.
 */
import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: (token: Tokens.HTML | Tokens.Tag) => escapeHtml(token.text),
    image: (token: Tokens.Image) => `<span class="md-image">[image: ${escapeHtml(token.text || token.href)}]</span>`,
  },
});

const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A') return;
  const href = node.getAttribute('href') ?? '';
  if (!isWebUrl(href)) node.removeAttribute('href');
  node.removeAttribute('target');
  node.setAttribute('rel', 'noopener noreferrer');
});

const PURIFY_CONFIG = {
  FORBID_TAGS: ['img', 'style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math', 'video', 'audio', 'source'],
  FORBID_ATTR: ['style', 'class', 'id', 'srcset'],
  ALLOW_DATA_ATTR: false,
};

export function isWebUrl(href: string): boolean {
  if (!URL.canParse(href)) return false;
  const protocol = new URL(href).protocol;
  return protocol === 'https:' || protocol === 'http:';
}

/** Rows remount as the list scrolls: keep the latest renders so scrolling back costs nothing. */
const CACHE_SIZE = 2000;
const cache = new Map<string, string>();

export function renderMarkdown(markdown: string): string {
  const hit = cache.get(markdown);
  if (hit !== undefined) {
    cache.delete(markdown);
    cache.set(markdown, hit);
    return hit;
  }
  const html = purify.sanitize(marked.parse(markdown, { async: false }), PURIFY_CONFIG);
  cache.set(markdown, html);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return html;
}

/** The link a click landed on, if any: the caller prevents navigation and opens it externally. */
export function clickedLink(event: MouseEvent): string | undefined {
  const target = event.target instanceof Element ? event.target.closest('a') : null;
  if (!target) return undefined;
  event.preventDefault();
  const href = target.getAttribute('href');
  return href !== null && isWebUrl(href) ? href : undefined;
}
