import { Body, Controller, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { DestinationRulesRepository } from './destination-rules.repository';
import { DestinationRulesResponse } from './destination-rules.response';
import { PutDestinationRulesDto } from './dto/put-destination-rules.dto';

const RULES_DOCS =
  'Extension (docs/contracts/destinations.md): where the organization may call, in both worlds. A number is ' +
  'refused when it starts with one of `blockedPrefixes`, falls in a range blocked by default (premium-rate, ' +
  'satellite, international networks; listed in `blockedRanges`) whose class is not in `allowedClasses`, or is ' +
  'in a country outside `allowedCountries` (when set). A refused number is answered 422 DESTINATION_NOT_ALLOWED ' +
  'by POST /api/v1/calls, the test call, campaign creation and transfer tools; a queued call ends in `error` with ' +
  'endedReason `destination-not-allowed`, and a campaign entry is skipped with skipReason DESTINATION_NOT_ALLOWED.';

/** The operator reads and sets an organization's destination rules (docs/contracts/destinations.md). */
@ApiTags('Organizations')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/destination-rules')
export class AdminDestinationRulesController {
  constructor(private readonly rules: DestinationRulesRepository) {}

  @Get()
  @ApiOperation({
    operationId: 'adminGetDestinationRules',
    summary: "An organization's destination rules (defaults until set)",
    description: RULES_DOCS,
  })
  @ApiDataResponse(DestinationRulesResponse)
  @ApiAdminErrors()
  async get(@Param('orgId', ExistingOrganizationPipe) orgId: string): Promise<{ data: DestinationRulesResponse }> {
    return { data: DestinationRulesResponse.from(orgId, await this.rules.find(orgId)) };
  }

  @Put()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'adminPutDestinationRules',
    summary: "Set an organization's destination rules (omitted fields take their defaults)",
    description: `${RULES_DOCS} Applies to calls already queued or scheduled when they are dispatched.`,
  })
  @ApiDataResponse(DestinationRulesResponse)
  @ApiAdminErrors()
  async put(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: PutDestinationRulesDto,
  ): Promise<{ data: DestinationRulesResponse }> {
    const rules = {
      allowedCountries: dto.allowedCountries ?? null,
      blockedPrefixes: dto.blockedPrefixes ?? [],
      allowedClasses: dto.allowedClasses ?? [],
    };
    await this.rules.save(orgId, rules);
    return { data: DestinationRulesResponse.from(orgId, rules) };
  }
}
