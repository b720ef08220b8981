// How main-process code is written out, shared by electron.vite.config.ts (out/main) and the bench's
// build of the same code (bench/lib/node-bundle.ts). V8 keeps every script's source for the process's
// life, at two bytes a character when one character in it is beyond Latin-1 (an arrow in a message
// did that to the core's whole ~390 kB chunk): so ASCII only, the rest written as \u escapes, and no
// doc or annotation comments (most of what non-ASCII was left, and a seventh of the text).
export const MAIN_OUTPUT = { charset: 'ascii', comments: { legal: true, annotation: false, jsdoc: false } } as const;
