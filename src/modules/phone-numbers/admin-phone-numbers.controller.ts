import { Body, Controller, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { CreatePhoneNumberDto } from './dto/create-phone-number.dto';
import { UpdatePhoneNumberDto } from './dto/update-phone-number.dto';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { AdminPhoneNumberResponse } from './phone-number.response';
import { PhoneNumbersService } from './phone-numbers.service';

@ApiTags('Organizations')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/phone-numbers')
export class AdminPhoneNumbersController {
  constructor(private readonly numbers: PhoneNumbersService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'adminCreatePhoneNumber',
    summary: 'Assign a phone number to an organization',
    description:
      'The organization may then call from it (`from`) and receives the calls made to it. 409 CONFLICT when ' +
      'the number is already assigned (to any organization); 422 MAX_PHONE_NUMBERS at the cap of 100 (extension). ' +
      'Without `providerId`, on the Vapi platform (extension), the number is imported: looked up in Vapi, its ' +
      "server URL pointed at `<PUBLIC_BASE_URL>/platform/vapi/events`, and stored with Vapi's id; 422 " +
      "INVALID_PHONE when Vapi does not have the number (docs/providers.md). `platform` (extension): the number's " +
      'voice platform, default `VOICE_PROVIDER`; unknown 400, known but not configured here 422 VALIDATION_ERROR. ' +
      'On Retell the number is likewise looked up and its inbound webhook pointed at this service. `fallback` ' +
      '(extension): the same number on a second platform, for failover.',
  })
  @ApiDataResponse(AdminPhoneNumberResponse, { status: 201 })
  @ApiAdminErrors('CONFLICT', 'MAX_PHONE_NUMBERS', 'INVALID_PHONE', 'VALIDATION_ERROR@422')
  async create(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: CreatePhoneNumberDto,
  ): Promise<{ data: AdminPhoneNumberResponse }> {
    const number = await this.numbers.create(orgId, dto);
    return { data: AdminPhoneNumberResponse.fromRow(number) };
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'adminUpdatePhoneNumber',
    summary: "Set or remove a phone number's fallback platform",
    description:
      'Extension: `fallback` is the same number imported on a second platform (failover, docs/providers.md); ' +
      'null removes it. The same platform as the number, or one not configured here, is 422 VALIDATION_ERROR ' +
      "naming `fallback.platform`; another organization's number is 404.",
  })
  @ApiDataResponse(AdminPhoneNumberResponse)
  @ApiAdminErrors('VALIDATION_ERROR@422')
  async update(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: UpdatePhoneNumberDto,
  ): Promise<{ data: AdminPhoneNumberResponse }> {
    return { data: AdminPhoneNumberResponse.fromRow(await this.numbers.setFallback(orgId, id, dto.fallback)) };
  }
}
