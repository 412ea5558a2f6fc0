import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { CreatePhoneNumberDto } from './dto/create-phone-number.dto';
import { PhoneNumberResponse } from './phone-number.response';
import { PhoneNumbersService } from './phone-numbers.service';

@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/phone-numbers')
export class AdminPhoneNumbersController {
  constructor(private readonly numbers: PhoneNumbersService) {}

  @Post()
  @HttpCode(201)
  async create(@Param('orgId', ExistingOrganizationPipe) orgId: string, @Body() dto: CreatePhoneNumberDto) {
    const number = await this.numbers.create(orgId, dto);
    return { data: { ...PhoneNumberResponse.from(number), providerId: number.providerId } };
  }
}
