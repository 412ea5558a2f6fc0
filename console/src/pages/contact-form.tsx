import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../api';
import { Field, FormActions } from '../ui';
import { GroupSelect } from './choices';
import { useLivemode, useOrgId, worldParams } from './org-layout';

/**
 * A new contact in the world the switch shows: name, phone, email, notes and one group. The API checks it as
 * POST /api/v1/contacts does (E.164 phone, email, bounds; 409 CONFLICT for a phone already used) and its message
 * is shown as it is.
 */
export function ContactForm({ onDone }: { onDone: () => void }) {
  const orgId = useOrgId();
  const livemode = useLivemode();
  const client = useQueryClient();
  const [title, setTitle] = useState('');
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [notes, setNotes] = useState('');
  const [groupId, setGroupId] = useState('');
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/admin/v1/organizations/{orgId}/contacts', {
          params: worldParams(orgId, livemode),
          body: {
            title,
            phone,
            ...(email ? { email } : {}),
            ...(notes ? { notes } : {}),
            ...(groupId ? { groupIds: [groupId] } : {}),
          },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['contacts', orgId] });
      void client.invalidateQueries({ queryKey: ['groups', orgId] });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="panel" onSubmit={submit} aria-label="New contact">
      <Field label="Name">
        {(id) => <input id={id} required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />}
      </Field>
      <Field label="Phone" hint="International form, e.g. +14155550123">
        {(id) => <input id={id} required maxLength={40} value={phone} onChange={(e) => setPhone(e.target.value)} />}
      </Field>
      <Field label="Email">
        {(id) => (
          <input id={id} type="email" maxLength={320} value={email} onChange={(e) => setEmail(e.target.value)} />
        )}
      </Field>
      <Field label="Notes">
        {(id) => (
          <textarea id={id} maxLength={5000} rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} />
        )}
      </Field>
      <GroupSelect orgId={orgId} livemode={livemode} label="Group" value={groupId} onChange={setGroupId} none="None" />
      <FormActions saveLabel="Create contact" busy={create.isPending} error={create.error} onCancel={onDone} />
    </form>
  );
}
