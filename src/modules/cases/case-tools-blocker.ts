import { Injectable, OnModuleInit } from '@nestjs/common';
import { ArrayContains } from 'typeorm';
import { ReferenceRegistry } from '../../common/references/reference-registry';
import { Case } from './case.entity';

/** Cases whose `toolIds` hold a tool block deleting it (the tools module does not read cases). */
@Injectable()
export class CaseToolsBlocker implements OnModuleInit {
  constructor(private readonly registry: ReferenceRegistry) {}

  onModuleInit(): void {
    this.registry.registerToolReferrer({
      order: 1,
      one: 'case',
      many: 'cases',
      count: (tx, organizationId, { toolId }) => tx.countBy(Case, { organizationId, toolIds: ArrayContains([toolId]) }),
    });
  }
}
