import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { IsE164 } from '../../../common/validation/is-e164.decorator';
import { FlatRecordLimits } from '../../../common/validation/flat-record';
import { IsFlatRecord } from '../../../common/validation/is-flat-record.decorator';
import { IsSafeEmail } from '../../../common/validation/is-safe-email.decorator';

export const CONTACT_LIMITS = { title: 200, notes: 5000, tags: 20, tag: 50, groupIds: 20, email: 320 } as const;

/** docs/contracts/bounds.md: custom fields are a small flat document, so no contact can amplify into events and queues. */
export const CUSTOM_FIELDS_LIMITS: FlatRecordLimits = {
  maxKeys: 100,
  maxKeyLength: 64,
  maxStringLength: 1000,
  scalars: true,
  maxBytes: 16 * 1024,
};

/**
 * The rules of each contact field, written once and shared by create and update. `presence`:
 * - `required`: must be sent;
 * - `optional`: may be omitted, but not null (update of a field that cannot be empty);
 * - `nullable`: may be omitted or null (null stores/clears the value).
 */
type Presence = 'required' | 'optional' | 'nullable';

function presence(kind: Presence, property: string): PropertyDecorator[] {
  if (kind === 'nullable') return [IsOptional()];
  if (kind === 'optional') return [ValidateIf((o: Record<string, unknown>) => o[property] !== undefined)];
  return [];
}

/** Repeated values add nothing to a set (tags, group memberships); the first occurrence's order is kept. */
const dedupe = Transform(({ value }) => (Array.isArray(value) ? [...new Set(value)] : value));

export const TitleField = (kind: Presence) =>
  applyDecorators(
    ApiProperty({
      required: kind === 'required',
      minLength: 1,
      maxLength: CONTACT_LIMITS.title,
      example: 'Alice Smith',
    }),
    ...presence(kind, 'title'),
    IsString(),
    Length(1, CONTACT_LIMITS.title),
  );

export const PhoneField = (kind: Presence) =>
  applyDecorators(
    ApiProperty({
      required: kind === 'required',
      description: 'E.164, unique in the organization; spaces, dashes and brackets are accepted and removed',
      example: '+14155550187',
    }),
    ...presence(kind, 'phone'),
    IsE164(),
  );

export const EmailField = () =>
  applyDecorators(
    ApiProperty({ required: false, type: String, nullable: true, format: 'email', maxLength: CONTACT_LIMITS.email }),
    IsOptional(),
    IsString(),
    MaxLength(CONTACT_LIMITS.email),
    IsSafeEmail(),
  );

export const NotesField = () =>
  applyDecorators(
    ApiProperty({ required: false, type: String, nullable: true, maxLength: CONTACT_LIMITS.notes }),
    IsOptional(),
    IsString(),
    MaxLength(CONTACT_LIMITS.notes),
  );

export const TagsField = (kind: Presence, description: string) =>
  applyDecorators(
    ApiProperty({
      required: false,
      type: [String],
      maxItems: CONTACT_LIMITS.tags,
      description: `${description}. At most ${CONTACT_LIMITS.tags} tags of 1-${CONTACT_LIMITS.tag} characters; duplicates are dropped`,
      example: ['vip'],
    }),
    ...presence(kind, 'tags'),
    IsArray(),
    ArrayMaxSize(CONTACT_LIMITS.tags),
    IsString({ each: true }),
    Length(1, CONTACT_LIMITS.tag, { each: true }),
    dedupe,
  );

export const GroupIdsField = (kind: Presence, description: string) =>
  applyDecorators(
    ApiProperty({
      required: false,
      type: [String],
      maxItems: CONTACT_LIMITS.groupIds,
      description: `${description}. Each must be a contact group of this organization (otherwise 400 VALIDATION_ERROR naming groupIds)`,
    }),
    ...presence(kind, 'groupIds'),
    IsArray(),
    ArrayMaxSize(CONTACT_LIMITS.groupIds),
    IsUUID('all', { each: true }),
    dedupe,
  );

export const CustomFieldsField = (kind: Presence, description: string) =>
  applyDecorators(
    ApiProperty({
      required: false,
      type: Object,
      maxProperties: CUSTOM_FIELDS_LIMITS.maxKeys,
      additionalProperties: {
        oneOf: [
          { type: 'string', maxLength: CUSTOM_FIELDS_LIMITS.maxStringLength, nullable: true },
          { type: 'number' },
          { type: 'boolean' },
        ],
      },
      description:
        `${description}: a flat JSON object of at most ${CUSTOM_FIELDS_LIMITS.maxKeys} keys of ` +
        `1-${CUSTOM_FIELDS_LIMITS.maxKeyLength} characters; each value a string (at most ` +
        `${CUSTOM_FIELDS_LIMITS.maxStringLength} characters), number, boolean or null (no nested objects or arrays); ` +
        `at most 16 KB serialised. Otherwise 400 VALIDATION_ERROR naming customFields`,
      example: { plan: 'gold' },
    }),
    ...presence(kind, 'customFields'),
    IsObject(),
    IsFlatRecord(CUSTOM_FIELDS_LIMITS),
  );
