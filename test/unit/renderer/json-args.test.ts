import { describe, expect, it } from 'vitest';
import { checkEditedArgs, formatArgs } from '../../../src-renderer/lib/chat/json-args';

const schema = {
  type: 'object',
  properties: { message: { type: 'string' }, count: { type: 'integer' }, mode: { type: 'string', enum: ['fast', 'slow'] }, ratio: { type: 'number' } },
  required: ['message'],
  additionalProperties: false,
};

describe('checkEditedArgs', () => {
  it('accepts valid arguments and returns them parsed', () => {
    expect(checkEditedArgs('{"message":"hi","count":2,"mode":"slow","ratio":0.5}', schema)).toEqual({
      ok: true,
      value: { message: 'hi', count: 2, mode: 'slow', ratio: 0.5 },
    });
  });

  it('names the JSON syntax error', () => {
    const result = checkEditedArgs('{"message": "hi",}', schema);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/^the arguments are not valid JSON: /);
  });

  it('refuses anything but an object', () => {
    expect(checkEditedArgs('[1]', schema)).toEqual({ ok: false, error: 'the arguments must be a JSON object, not an array' });
    expect(checkEditedArgs('null', schema)).toEqual({ ok: false, error: 'the arguments must be a JSON object, not null' });
    expect(checkEditedArgs('"x"', schema)).toEqual({ ok: false, error: 'the arguments must be a JSON object, not a string' });
  });

  it('names a missing required argument', () => {
    expect(checkEditedArgs('{"count":1}', schema)).toEqual({ ok: false, error: 'missing required argument "message"' });
  });

  it('names an argument the tool does not accept when extra ones are forbidden', () => {
    expect(checkEditedArgs('{"message":"a","evil":true}', schema)).toEqual({
      ok: false,
      error: 'unknown argument "evil" (the tool accepts "message", "count", "mode", "ratio")',
    });
    expect(checkEditedArgs('{"message":"a","extra":1}', { ...schema, additionalProperties: true })).toMatchObject({ ok: true });
  });

  it('names an argument of the wrong type', () => {
    expect(checkEditedArgs('{"message":5}', schema)).toEqual({ ok: false, error: 'argument "message" must be a string, not an integer' });
    expect(checkEditedArgs('{"message":"a","count":1.5}', schema)).toEqual({ ok: false, error: 'argument "count" must be an integer, not a number' });
    expect(checkEditedArgs('{"message":"a","ratio":"x"}', schema)).toEqual({ ok: false, error: 'argument "ratio" must be a number, not a string' });
  });

  it('names an argument outside its enum', () => {
    expect(checkEditedArgs('{"message":"a","mode":"warp"}', schema)).toEqual({ ok: false, error: 'argument "mode" must be one of "fast", "slow"' });
  });

  it('accepts any object when the schema says nothing', () => {
    expect(checkEditedArgs('{"a":[1,{"b":null}]}', { type: 'object' })).toEqual({ ok: true, value: { a: [1, { b: null }] } });
  });
});

describe('formatArgs', () => {
  it('pretty-prints so the dialog shows one argument per line', () => {
    expect(formatArgs({ a: 1, b: 'x' })).toBe('{\n  "a": 1,\n  "b": "x"\n}');
  });
});
