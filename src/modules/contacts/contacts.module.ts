import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContactGroupsModule } from '../contact-groups/contact-groups.module';
import { ContactEventBodies } from './contact-event-bodies';
import { Contact } from './contact.entity';
import { ContactSearchService } from './contact-search.service';
import { ContactsController } from './contacts.controller';
import { ContactsService } from './contacts.service';

@Module({
  imports: [TypeOrmModule.forFeature([Contact]), ContactGroupsModule],
  controllers: [ContactsController],
  providers: [ContactsService, ContactSearchService, ContactEventBodies],
  exports: [ContactsService],
})
export class ContactsModule {}
