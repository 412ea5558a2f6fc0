import { Type, ValidationPipe } from '@nestjs/common';
import fc from 'fast-check';
import { ApiError } from '../../errors/api-error';
import { compiledValidatorOf } from '../compiled-validation';
import { createValidationPipe, validationPipeOptions } from '../validation.pipe';

/** A field's values: ones its rules accept and ones they refuse (the property test mixes both, and leaves it out). */
export interface FieldValues {
  good: fc.Arbitrary<unknown>;
  bad: fc.Arbitrary<unknown>;
}

const ABSENT = Symbol('absent');

/**
 * JSON bodies of a DTO: each field good, bad or absent, with unknown keys beside them (some named like the DTO's
 * own, so a known field can come twice in the text: JSON.parse keeps the last), and bodies that are no object.
 */
function bodiesOf(fields: Record<string, FieldValues>): fc.Arbitrary<string> {
  const field = ({ good, bad }: FieldValues) =>
    fc.oneof(
      { weight: 8, arbitrary: good },
      { weight: 1, arbitrary: bad },
      { weight: 1, arbitrary: fc.constant(ABSENT) },
    );
  const known = fc.record(Object.fromEntries(Object.entries(fields).map(([name, values]) => [name, field(values)])));
  const unknownKeys = fc.dictionary(
    fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...Object.keys(fields), 'toString', 'hasOwnProperty')),
    fc.jsonValue({ maxDepth: 2 }),
    { maxKeys: 3 },
  );
  const object = fc.tuple(known, fc.option(unknownKeys, { freq: 4 })).map(([values, extra]) => {
    const own = Object.entries(values).filter(([, value]) => value !== ABSENT);
    const members = [...own, ...Object.entries(extra ?? {})].map(
      ([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`,
    );
    return `{${members.join(',')}}`;
  });
  const notAnObject = fc.oneof(
    fc.constantFrom('null', '[]', '"text"', '42', 'true'),
    object.map((body) => `[${body}]`),
  );
  return fc.oneof({ weight: 20, arbitrary: object }, { weight: 1, arbitrary: notAnObject });
}

/** Bodies a pipe must not fall for: the keys it strips against prototype pollution, at every depth. */
export function hostileBodies(valid: Record<string, unknown>): string[] {
  const body = JSON.stringify(valid).slice(1, -1);
  return ['__proto__', 'constructor', 'prototype'].flatMap((key) => [
    `{${body},"${key}":{"polluted":true}}`,
    `{${body},"${key}":"x"}`,
    `{"${key}":{"isAdmin":true},${body}}`,
  ]);
}

type Outcome = { dto: object; keys: string[] } | { refused: unknown };

async function outcomeOf(pipe: ValidationPipe, type: Type<object>, json: string): Promise<Outcome> {
  try {
    const dto = (await pipe.transform(JSON.parse(json), { type: 'body', metatype: type })) as object;
    return { dto, keys: Object.keys(dto) };
  } catch (error) {
    return { refused: summaryOf(error) };
  }
}

/** What the 400 envelope is made of (code, message, details in order), or any other error's class and message. */
function summaryOf(error: unknown): unknown {
  if (error instanceof ApiError) return { code: error.code, message: error.message, details: error.details };
  return error instanceof Error ? { class: error.constructor.name, message: error.message } : error;
}

/**
 * The global pipe (compiled path first) and a plain ValidationPipe of the same options answer `json` alike: the
 * same DTO (class, values, keys in order) or the same refusal (the 400's message and details, in order).
 */
async function expectSameOutcome(type: Type<object>, json: string): Promise<void> {
  const reference = await outcomeOf(new ValidationPipe(validationPipeOptions), type, json);
  const subject = await outcomeOf(createValidationPipe(), type, json);
  expect(subject).toStrictEqual(reference);
  if ('dto' in subject && 'dto' in reference) expect(Object.getPrototypeOf(subject.dto)).toBe(type.prototype);
}

/**
 * Whether the compiled path accepts `json` exactly when the full pipe does: it may hand a body on (the result is
 * the full pipe's), but a valid body it hands on costs the full pipe's CPU, which this keeps from going unnoticed.
 * A body with a key the pipe strips against prototype pollution is the full pipe's by design: not asked (fc.pre).
 */
async function expectCompiledPathTaken(type: Type<object>, json: string): Promise<void> {
  fc.pre(!/"(__proto__|constructor|prototype)"/.test(json));
  const reference = await outcomeOf(new ValidationPipe(validationPipeOptions), type, json);
  const compiled = compiledValidatorOf(type);
  expect(compiled).toBeDefined();
  expect(compiled?.(JSON.parse(json)) !== undefined).toBe('dto' in reference);
}

/**
 * The specs of a DTO marked `@CompiledValidation()`: generated bodies answered alike by both paths, the compiled
 * path taken for exactly the valid ones, and the given bodies (the DTO's edge cases) answered alike.
 */
export function describeCompiledPath(type: Type<object>, fields: Record<string, FieldValues>, bodies: string[]): void {
  describe(`${type.name} on the compiled path`, () => {
    it('validates and transforms every body as the full ValidationPipe does (the same DTO or the same 400)', async () => {
      await fc.assert(
        fc.asyncProperty(bodiesOf(fields), (json) => expectSameOutcome(type, json)),
        { numRuns: 1500 },
      );
    });

    it('accepts every body the full pipe accepts, and no other', async () => {
      await fc.assert(
        fc.asyncProperty(bodiesOf(fields), (json) => expectCompiledPathTaken(type, json)),
        { numRuns: 500 },
      );
    });

    it.each(bodies)('answers %s as the full pipe does', (json) => expectSameOutcome(type, json));
  });
}
