import {
  CustomFieldsField,
  EmailField,
  GroupIdsField,
  NotesField,
  PhoneField,
  TagsField,
  TitleField,
} from './contact-fields';

/**
 * Every field optional. `tags`, `groupIds` and `customFields` replace the stored value; `email` and `notes` may be
 * null to clear them; the other fields cannot be null (a null is a 400 naming the field, not a silent no-op).
 */
export class UpdateContactDto {
  @TitleField('optional') title?: string;
  @PhoneField('optional') phone?: string;
  @EmailField() email?: string | null;
  @NotesField() notes?: string | null;
  @TagsField('optional', 'Replaces all tags') tags?: string[];
  @GroupIdsField('optional', 'Replaces all group memberships') groupIds?: string[];
  @CustomFieldsField('optional', 'Replaces all custom fields') customFields?: Record<string, unknown>;
}
