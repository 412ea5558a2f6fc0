import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { World } from '../../common/auth/world';
import { ApiError } from '../../common/errors/api-error';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { keysetPaginate } from '../../common/pagination/keyset-paginate';
import { Page } from '../../common/pagination/pagination.dto';
import { lockForTransaction } from '../../infra/database/advisory-locks';
import { inTransaction } from '../../infra/database/tx';
import { CasesService } from '../cases/cases.service';
import { CreateScenarioDto } from './dto/create-scenario.dto';
import { ListScenariosQueryDto } from './dto/list-scenarios-query.dto';
import { UpdateScenarioDto } from './dto/update-scenario.dto';
import { SCENARIO_BOUNDS } from './scenario-bounds';
import { Scenario } from './scenario.entity';
import { ScenarioExpect } from './scenario-expectations';
import { ScenarioResponse } from './scenario.response';
import { ScenariosRepository } from './scenarios.repository';

/** Plain JSON without absent optional keys, so what is stored is exactly what the API shows. */
function expectOf(dto: CreateScenarioDto['expect']): ScenarioExpect {
  return {
    ...(dto.replyIncludes ? { replyIncludes: dto.replyIncludes } : {}),
    ...(dto.replyExcludes ? { replyExcludes: dto.replyExcludes } : {}),
    ...(dto.toolCalls
      ? {
          toolCalls: dto.toolCalls.map((c) => ({
            name: c.name,
            ...(c.argumentsInclude ? { argumentsInclude: c.argumentsInclude } : {}),
          })),
        }
      : {}),
    ...(dto.handOff !== undefined ? { handOff: dto.handOff } : {}),
  };
}

/** Scenarios: plain CRUD in the key's world; the case must be the organization's. */
@Injectable()
export class ScenariosService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly scenarios: ScenariosRepository,
    private readonly cases: CasesService,
    private readonly codec: CursorCodec,
  ) {}

  list(world: World, query: ListScenariosQueryDto): Promise<Page<ScenarioResponse>> {
    return keysetPaginate(this.scenarios.listQuery(world, query.caseId), {
      alias: 's',
      filters: { caseId: query.caseId },
      limit: query.limit,
      cursor: query.cursor,
      codec: this.codec,
      map: ScenarioResponse.from,
    });
  }

  async get(world: World, id: string): Promise<Scenario> {
    const found = await this.scenarios.find(world, id);
    if (!found) throw ApiError.notFound('Scenario');
    return found;
  }

  /** At most SCENARIO_BOUNDS.perCase per case and world, counted under the case's lock so the cap holds. */
  create(world: World, dto: CreateScenarioDto): Promise<Scenario> {
    return inTransaction(this.dataSource, async (m) => {
      await lockForTransaction(m, 'scenariosCap', dto.caseId);
      await this.cases.lockReferenced(m, world.organizationId, dto.caseId);
      if ((await this.scenarios.countOfCase(m, world, dto.caseId)) >= SCENARIO_BOUNDS.perCase) {
        throw new ApiError('MAX_SCENARIOS', `A case can have at most ${SCENARIO_BOUNDS.perCase} scenarios`);
      }
      return this.scenarios.insert(m, world, {
        caseId: dto.caseId,
        name: dto.name,
        variables: dto.variables ?? {},
        turns: dto.turns,
        expect: expectOf(dto.expect),
      });
    });
  }

  /** The fields given replace the stored ones; a null leaves a field as it is, as on every update (UpdateCaseDto). */
  async update(world: World, id: string, dto: UpdateScenarioDto): Promise<Scenario> {
    const updated = await this.scenarios.update(world, id, {
      ...(dto.name != null ? { name: dto.name } : {}),
      ...(dto.variables != null ? { variables: dto.variables } : {}),
      ...(dto.turns != null ? { turns: dto.turns } : {}),
      ...(dto.expect != null ? { expect: expectOf(dto.expect) } : {}),
    });
    if (!updated) throw ApiError.notFound('Scenario');
    return updated;
  }

  async delete(world: World, id: string): Promise<void> {
    if (!(await this.scenarios.delete(world, id))) throw ApiError.notFound('Scenario');
  }
}
