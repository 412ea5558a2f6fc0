import { ToolFieldsDto } from './tool-fields.dto';

/** Any field of the tool's type; `type` cannot change (undeclared, so the global pipe strips it). */
export class UpdateToolDto extends ToolFieldsDto {}
