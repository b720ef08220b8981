/** Characters shown of what an app's console said: one line in its card's failure. */
export const CONSOLE_LINE_MAX = 300;

// Controls, zero-width and bidi marks, and Unicode tag characters: they could hide or reorder what the line says.
// eslint-disable-next-line no-control-regex -- control characters are exactly what this takes out
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\u{e0000}-\u{e007f}]/gu;

/**
 * The app's own error text as one plain, bounded line (its data, never markup or instructions; SECURITY R6):
 * hidden characters out, whitespace runs folded to one space, cut at CONSOLE_LINE_MAX with an ellipsis.
 */
export function consoleLine(text: string): string {
  const line = text.replace(HIDDEN, ' ').replace(/\s+/g, ' ').trim();
  return line.length > CONSOLE_LINE_MAX ? `${line.slice(0, CONSOLE_LINE_MAX - 1)}…` : line;
}
