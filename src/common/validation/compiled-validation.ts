import { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { MetadataStorage, ValidationArguments, ValidationTypes, getMetadataStorage } from 'class-validator';

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/** One constraint of a property, its validator resolved once instead of per request. */
interface Check {
  metadata: ValidationMetadata;
  validate: (value: unknown, args: ValidationArguments) => unknown;
}

/** A property's rules in class-validator's order: its conditions, then its `@IsDefined`, then its constraints. */
interface PropertyRules {
  name: string;
  conditions: ((object: object, value: unknown) => boolean)[];
  checks: Check[];
}

/** Reads a body of `type` into its DTO when every rule holds; `undefined` hands the body to the full pipe. */
export type CompiledValidator<T> = (body: unknown) => T | undefined;

const compiled = new WeakMap<Function, CompiledValidator<object>>();

/**
 * Marks a hot body DTO for the global pipe's compiled path: its class-validator rules are read once, at start-up,
 * instead of class-validator scanning every DTO class's metadata and building an error object per property on each
 * request. The compiled path only ever accepts: a body it does not accept (a broken rule, or anything it does not
 * handle exactly as the pipe would) goes through the full ValidationPipe, which writes the 400 as always, so the
 * contract's messages have one source. Each marked DTO's spec holds the two paths to the same results.
 */
export function CompiledValidation(): ClassDecorator {
  return (target) => {
    compiled.set(target, compile(target as unknown as Type<object>));
  };
}

/** The compiled path of a DTO marked `@CompiledValidation()`, or undefined. */
export function compiledValidatorOf<T>(type: Type<T>): CompiledValidator<T> | undefined {
  return compiled.get(type) as CompiledValidator<T> | undefined;
}

/**
 * Builds a DTO's compiled path from the metadata class-validator would read, with the global pipe's options (no
 * groups, `always` false). Refuses, at start-up, a rule it could not run as class-validator does.
 */
function compile<T extends object>(type: Type<T>): CompiledValidator<T> {
  const storage = getMetadataStorage();
  const grouped = storage.groupByPropertyName(
    storage.getTargetValidationMetadatas(type, undefined as unknown as string, false, false, undefined),
  );
  const properties: PropertyRules[] = Object.entries(grouped).map(([name, metadatas]) => ({
    name,
    conditions: metadatas
      .filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION)
      .map((m) => m.constraints[0] as PropertyRules['conditions'][number]),
    checks: [
      ...metadatas.filter((m) => m.type === ValidationTypes.IS_DEFINED),
      ...metadatas.filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION),
    ].flatMap((metadata) =>
      storage.getTargetValidatorConstraints(metadata.constraintCls).map((constraint) => {
        if (constraint.async) throw new Error(`${type.name}.${name}: an async rule has no compiled path`);
        const instance = constraint.instance as { validate: Check['validate'] };
        return { metadata, validate: instance.validate.bind(instance) };
      }),
    ),
  }));
  const unsupported = Object.values(grouped)
    .flat()
    .find((m) => m.type === ValidationTypes.NESTED_VALIDATION || m.type === ValidationTypes.PROMISE_VALIDATION);
  if (unsupported || !properties.length) {
    throw new Error(`${type.name}: nested, promised or no rules have no compiled path`);
  }
  const known = new Set(properties.map((p) => p.name));

  return (body) => {
    if (!isPlainJson(body)) return undefined;
    // The same transform as the pipe's (its @Transform normalisations included), on the body the pipe would see.
    const dto = plainToInstance(type, body);
    // `whitelist`: what no rule names is dropped, a class field without rules included, before any rule runs.
    for (const key of Object.keys(dto)) if (!known.has(key)) delete (dto as Record<string, unknown>)[key];
    for (const property of properties) if (!holds(dto, property, type.name)) return undefined;
    return dto;
  };
}

/** Whether every rule class-validator would run on this property holds (no rule runs when a condition fails). */
function holds(dto: object, property: PropertyRules, targetName: string): boolean {
  const value = (dto as Record<string, unknown>)[property.name];
  // class-validator evaluates every condition (no short cut): so does this.
  let applies = true;
  for (const condition of property.conditions) applies = condition(dto, value) && applies;
  if (!applies) return true;
  for (const { metadata, validate } of property.checks) {
    if (metadata.validateIf && !metadata.validateIf(dto, value)) continue;
    const args: ValidationArguments = {
      targetName,
      property: metadata.propertyName,
      object: dto,
      value,
      constraints: metadata.constraints,
    };
    const items = metadata.each ? itemsOf(value) : undefined;
    if (items ? !items.every((item) => passed(validate(item, args))) : !passed(validate(value, args))) return false;
  }
  return true;
}

/** class-validator's verdict on a validator's answer; a promise (an async rule) is left to the full pipe. */
function passed(answer: unknown): boolean {
  return !!answer && typeof (answer as { then?: unknown }).then !== 'function';
}

/** The items `each: true` checks one by one (class-validator reads a Set's or a Map's values as an array). */
function itemsOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value instanceof Set || value instanceof Map) return Array.from(value.values());
  return undefined;
}

/** Keys the pipe deletes before transforming (prototype pollution): a body holding one takes the full pipe. */
const STRIPPED_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * Whether the pipe would hand class-transformer this very value: a JSON object (plain objects, arrays without
 * gaps and primitives all the way down) without a key it strips. Anything else (null, an array, a binary or a
 * class instance) takes the full pipe, whose handling of each is its own.
 */
function isPlainJson(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Object.getPrototypeOf(body) !== Object.prototype) return false;
  const pending: object[] = [body];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (Array.isArray(next)) {
      if (Object.getPrototypeOf(next) !== Array.prototype) return false;
      for (let i = 0; i < next.length; i++) if (!(i in next) || !isLeafOrQueued(next[i], pending)) return false;
      continue;
    }
    if (Object.getPrototypeOf(next) !== Object.prototype) return false;
    for (const key of Object.keys(next)) {
      if (STRIPPED_KEYS.has(key) || !isLeafOrQueued((next as Record<string, unknown>)[key], pending)) return false;
    }
  }
  return true;
}

function isLeafOrQueued(value: unknown, pending: object[]): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return true;
  }
  if (typeof value !== 'object') return false;
  pending.push(value);
  return true;
}
