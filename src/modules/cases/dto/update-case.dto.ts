import { PartialType } from '@nestjs/swagger';
import { CreateCaseDto } from './create-case.dto';

/**
 * Every create field, optional. A null is read as "leave unset" (the spec's rule, so a GET body can be sent
 * back); read-only fields (`id`, `systemPromptId`, `toolIds`, timestamps ...) are not declared, so the global
 * pipe strips them.
 */
export class UpdateCaseDto extends PartialType(CreateCaseDto) {}
