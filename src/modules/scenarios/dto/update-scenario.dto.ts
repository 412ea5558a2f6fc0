import { OmitType, PartialType } from '@nestjs/swagger';
import { CreateScenarioDto } from './create-scenario.dto';

/**
 * A scenario's change: any of its fields with the bounds of a new one, each given replacing the stored one
 * (`expect` as a whole). Its case is fixed: a scenario for another case is a new scenario.
 */
export class UpdateScenarioDto extends PartialType(OmitType(CreateScenarioDto, ['caseId'] as const)) {}
