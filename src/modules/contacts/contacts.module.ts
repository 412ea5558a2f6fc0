import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContactGroupsModule } from '../contact-groups/contact-groups.module';
import { ContactEventBodies } from './contact-event-bodies';
import { Contact } from './contact.entity';
import { ContactSearchRepository } from './contact-search.repository';
import { ContactSearchService } from './contact-search.service';
import { ContactsController } from './contacts.controller';
import { ContactsRepository } from './contacts.repository';
import { ContactsService } from './contacts.service';
import { ContactsBatchService } from './contacts-batch.service';

@Module({
  imports: [TypeOrmModule.forFeature([Contact]), ContactGroupsModule],
  controllers: [ContactsController],
  providers: [
    ContactsRepository,
    ContactsService,
    ContactsBatchService,
    ContactSearchRepository,
    ContactSearchService,
    ContactEventBodies,
  ],
  exports: [ContactsService, ContactsBatchService],
})
export class ContactsModule {}
