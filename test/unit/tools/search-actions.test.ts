import { describe, expect, it } from 'vitest';
import { fileNameWords, requestedActions, toolActions } from '../../../src-main/core/tools/search-actions';

const words = (request: string) => request.split(/\W+/).filter(Boolean);
const actionsOf = (request: string) => requestedActions(request, words(request));

describe('the action lexicon of the tool search', () => {
  it('reads a delete in plain verbs and in a fact that stopped holding', () => {
    expect(actionsOf('forget Dana')).toEqual(['remove']);
    expect(actionsOf('Dana no longer speaks French')).toEqual(['remove']);
    expect(actionsOf('get rid of the draft')).toEqual(['remove']);
    expect(actionsOf('Dana speaks French')).toEqual([]);
  });

  it('reads the other actions by their words and phrasings', () => {
    expect(actionsOf('relocate the report')).toEqual(['move']);
    expect(actionsOf('fix a typo')).toEqual(['edit']);
    expect(actionsOf('set up a folder for logs')).toEqual(['create']);
    expect(actionsOf('what files are in the current folder')).toEqual(['list']);
    expect(actionsOf('which pdf files can I look at')).toEqual(expect.arrayContaining(['list', 'read']));
    expect(actionsOf('look for a file named x')).toEqual(['read', 'search']);
  });

  it("takes a tool's action from its name's leading verb, in any naming style", () => {
    expect(toolActions(['delete', 'observations'])).toEqual(['remove']);
    expect(toolActions(['get', 'Tiny', 'Image'])).toEqual(['read']);
    expect(toolActions(['Move', 'file'])).toEqual(['move']);
    expect(toolActions(['interact'])).toEqual([]);
    expect(toolActions([])).toEqual([]);
  });
});

describe('file names in a request', () => {
  it('stand for "file" and, by the MIME database, their kind', () => {
    expect(fileNameWords(['open', 'main.py'])).toEqual(['file']);
    expect(fileNameWords(['show', 'logo.png,'])).toEqual(['file', 'image', 'png']);
    expect(fileNameWords(['"notes.md"'])).toEqual(['file', 'text', 'md', 'markdown']);
    expect(fileNameWords(['report.pdf'])).toEqual(['file', 'pdf']);
  });

  it('are not numbers, and a bare extension counts only for media', () => {
    expect(fileNameWords(['add', '3.5', 'and', '8'])).toEqual([]);
    expect(fileNameWords(['a', 'png', 'screenshot'])).toEqual(['file', 'image', 'png']);
    expect(fileNameWords(['the', 'mp3'])).toEqual(['file', 'audio', 'mp3', 'mpeg']);
    // "log" is a text extension too, but said alone it is a word.
    expect(fileNameWords(['random', 'log', 'output'])).toEqual([]);
  });
});
