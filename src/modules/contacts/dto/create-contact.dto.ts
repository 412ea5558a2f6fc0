import { CompiledValidation } from '../../../common/validation/compiled-validation';
import {
  CustomFieldsField,
  EmailField,
  GroupIdsField,
  NotesField,
  PhoneField,
  TagsField,
  TitleField,
} from './contact-fields';

/** The busiest write's body (imports, CRM syncs): validated on the compiled path. */
@CompiledValidation()
export class CreateContactDto {
  @TitleField('required') title: string;
  @PhoneField('required') phone: string;
  @EmailField() email?: string | null;
  @NotesField() notes?: string | null;
  @TagsField('optional', 'Tags') tags?: string[];
  @GroupIdsField('optional', 'Contact groups to put the contact in') groupIds?: string[];
  @CustomFieldsField('optional', 'Custom fields') customFields?: Record<string, unknown>;
}
