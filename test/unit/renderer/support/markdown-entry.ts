import { clickedLink, renderMarkdown } from '../../../../src-renderer/lib/markdown';

Object.assign(window, { renderMarkdown, clickedLink });
