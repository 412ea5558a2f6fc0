import { PartialType } from '@nestjs/swagger';
import { CreateCaseDto } from './create-case.dto';

/**
 * Every create field, optional. A null is read as "leave unset", so a GET body can be sent back
 * (docs/contracts/conventions.md, "Updates"); read-only fields (`id`, `systemPromptId`, `toolIds`, timestamps ...)
 * are not declared, so the global pipe strips them.
 */
export class UpdateCaseDto extends PartialType(CreateCaseDto) {}
