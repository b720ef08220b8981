import { describe, expect, it } from 'vitest';
import { formAnswer, formFields, initialValues } from '../../../src-renderer/lib/chat/elicitation-form';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', description: 'as on your passport', minLength: 2 },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    height: { type: 'number' },
    subscribe: { type: 'boolean', default: true },
    color: { type: 'string', enum: ['red', 'green'], enumNames: ['Red', 'Green'], default: 'green' },
    size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] },
    instruments: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['Guitar', 'Piano', 'Drums'] }, default: ['Guitar'] },
    fish: { type: 'array', items: { anyOf: [{ const: 'fish-1', title: 'Tuna' }, { const: 'fish-2', title: 'Salmon' }] } },
    tags: { type: 'array' },
  },
  required: ['name', 'age'],
};

describe('formFields', () => {
  it('turns each property into a field of its kind, with titles, descriptions and required marks', () => {
    const fields = formFields(schema);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['name', 'string', true],
      ['age', 'integer', true],
      ['height', 'number', false],
      ['subscribe', 'boolean', false],
      ['color', 'enum', false],
      ['size', 'enum', false],
      ['instruments', 'multi', false],
      ['fish', 'multi', false],
      ['tags', 'unsupported', false],
    ]);
    expect(fields[6]).toMatchObject({ minItems: 1, maxItems: 2, options: [{ value: 'Guitar' }, { value: 'Piano' }, { value: 'Drums' }] });
    expect(fields[7]).toMatchObject({ options: [{ value: 'fish-1', label: 'Tuna' }, { value: 'fish-2', label: 'Salmon' }] });
    expect(fields[0]).toMatchObject({ label: 'Your name', description: 'as on your passport', minLength: 2 });
    expect(fields[4]).toMatchObject({ options: [{ value: 'red', label: 'Red' }, { value: 'green', label: 'Green' }] });
    expect(fields[5]).toMatchObject({ options: [{ value: 's', label: 'Small' }, { value: 'l', label: 'Large' }] });
  });

  it('has no fields for a schema without properties', () => {
    expect(formFields({ type: 'object' })).toEqual([]);
  });
});

describe('initialValues', () => {
  it('prefills the defaults main sent and leaves the rest empty', () => {
    const fields = formFields(schema);
    expect(initialValues(fields, { subscribe: true, color: 'green', age: 30, instruments: ['Guitar', 3] })).toEqual({
      name: '',
      age: '30',
      height: '',
      subscribe: true,
      color: 'green',
      size: '',
      instruments: ['Guitar'],
      fish: [],
      tags: '',
    });
  });
});

describe('formAnswer', () => {
  const fields = formFields({ ...schema, properties: { ...schema.properties, tags: undefined } });

  it('types each value: numbers as numbers, booleans as booleans, empty optional fields left out', () => {
    expect(formAnswer(fields, { name: 'Ada', age: '36', height: '1.7', subscribe: false, color: 'red', size: '', instruments: ['Piano'], fish: [] })).toEqual({
      ok: true,
      content: { name: 'Ada', age: 36, height: 1.7, subscribe: false, color: 'red', instruments: ['Piano'] },
    });
  });

  it('names every field at fault at once', () => {
    expect(formAnswer(fields, { name: 'A', age: '2.5', height: 'tall', subscribe: true, color: 'blue', size: '', instruments: ['Guitar', 'Piano', 'Drums'], fish: ['fish-9'] })).toEqual({
      ok: false,
      errors: {
        name: 'Your name needs at least 2 characters',
        age: 'age must be a whole number',
        height: 'height must be a number',
        color: 'color must be one of red, green',
        instruments: 'instruments: choose at most 2',
        fish: 'fish: "fish-9" is not one of the choices',
      },
    });
  });

  it('reports missing required fields and bounds', () => {
    expect(formAnswer(fields, { name: '', age: '200', subscribe: false })).toEqual({
      ok: false,
      errors: { name: 'Your name is required', age: 'age must be at most 150' },
    });
  });
});
