import { Injectable, OnModuleInit } from '@nestjs/common';
import { ReferenceRegistry } from '../../common/references/reference-registry';
import { CasesRepository } from './cases.repository';

/** Cases whose `toolIds` hold a tool block deleting it (the tools module does not read cases). */
@Injectable()
export class CaseToolsBlocker implements OnModuleInit {
  constructor(
    private readonly registry: ReferenceRegistry,
    private readonly cases: CasesRepository,
  ) {}

  onModuleInit(): void {
    this.registry.registerToolReferrer({
      order: 1,
      one: 'case',
      many: 'cases',
      count: (tx, organizationId, { toolId }) => this.cases.countUsingTool(tx, organizationId, toolId),
    });
  }
}
