import { Injectable, PipeTransform } from '@nestjs/common';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { OrganizationsService } from './organizations.service';

/**
 * `:orgId` of an admin route: a well-formed id (400 otherwise) of an organization that exists (404 NOT_FOUND
 * otherwise), checked once here instead of at the top of every handler.
 */
@Injectable()
export class ExistingOrganizationPipe implements PipeTransform<string, Promise<string>> {
  private readonly ids = new IdParamPipe();

  constructor(private readonly organizations: OrganizationsService) {}

  async transform(value: string): Promise<string> {
    const id = this.ids.transform(value);
    await this.organizations.mustExist(id);
    return id;
  }
}
