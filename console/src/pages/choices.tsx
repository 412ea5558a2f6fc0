import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { Field } from '../ui';
import { orgPath, worldParams } from './org-layout';

/** A case picker offering the newest 100 cases (enough to pick from on a console page); '' is `none`. */
export function CaseSelect({
  orgId,
  value,
  onChange,
  none,
  hint,
}: {
  orgId: string;
  value: string;
  onChange: (caseId: string) => void;
  none: string;
  hint?: string;
}) {
  const cases = useQuery({
    queryKey: ['case-options', orgId],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/organizations/{orgId}/cases', { params: { ...orgPath(orgId), query: { limit: 100 } } }),
      ),
  });
  return (
    <Field label="Case" hint={hint}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{none}</option>
          {cases.data?.data.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A contact-group picker of the world the switch shows, each group with its size; '' is `none`. */
export function GroupSelect({
  orgId,
  livemode,
  label,
  value,
  onChange,
  none,
}: {
  orgId: string;
  livemode: boolean;
  label: string;
  value: string;
  onChange: (groupId: string) => void;
  none: string;
}) {
  const groups = useQuery({
    queryKey: ['groups', orgId, livemode],
    queryFn: () =>
      unwrap(api.GET('/admin/v1/organizations/{orgId}/contact-groups', { params: worldParams(orgId, livemode) })),
  });
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{none}</option>
          {groups.data?.data.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name} ({g.contactCount})
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
