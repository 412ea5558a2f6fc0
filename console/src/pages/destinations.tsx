import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { DESTINATION_RULE_BOUNDS } from '../../../src/modules/destinations/destination-rule-bounds';
import { api, problemWith, unwrap, type Schemas } from '../api';
import { ErrorNote, Field, QueryView, Table } from '../ui';
import { orgPath, useOrgId } from './org-layout';

type Rules = Schemas['DestinationRulesResponse'];
type DestinationClass = Schemas['DestinationClass'];
type Body = Schemas['PutDestinationRulesDto'];

const CLASSES: Array<{ value: DestinationClass; label: string }> = [
  { value: 'premium-rate', label: 'Premium-rate numbers' },
  { value: 'satellite', label: 'Satellite phones' },
  { value: 'international-network', label: 'International networks' },
];

/** Codes or prefixes typed one per line, or separated by commas or spaces. */
const listOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/**
 * Where the organization's calls may go (docs/contracts/destinations.md): premium-rate, satellite and
 * international-network ranges are refused unless opted in; the countries and prefixes narrow it further. The
 * same rules for the test and the live world, so this page has no world.
 */
export function DestinationsPage() {
  const orgId = useOrgId();
  const rules = useQuery({
    queryKey: ['destination-rules', orgId],
    queryFn: () => unwrap(api.GET('/admin/v1/organizations/{orgId}/destination-rules', { params: orgPath(orgId) })),
  });
  return (
    <>
      <h1>Destinations</h1>
      <p className="muted">
        Where this organization may call, in both worlds. A refused number is answered 422 DESTINATION_NOT_ALLOWED; a
        call already queued to it ends with <code>destination-not-allowed</code>, a campaign entry is skipped.
      </p>
      <QueryView query={rules}>{({ data }) => <RulesForm orgId={orgId} rules={data} />}</QueryView>
    </>
  );
}

function RulesForm({ orgId, rules }: { orgId: string; rules: Rules }) {
  const client = useQueryClient();
  const [limitCountries, setLimitCountries] = useState(rules.allowedCountries !== null);
  const [countries, setCountries] = useState((rules.allowedCountries ?? []).join(', '));
  const [prefixes, setPrefixes] = useState(rules.blockedPrefixes.join('\n'));
  const [classes, setClasses] = useState<DestinationClass[]>(rules.allowedClasses);
  const [saved, setSaved] = useState(false);
  useEffect(() => setSaved(false), [limitCountries, countries, prefixes, classes]);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/admin/v1/organizations/{orgId}/destination-rules', {
          params: orgPath(orgId),
          body: {
            // Checked by the API (an unknown code is a 400 naming the field), not here.
            allowedCountries: (limitCountries ? listOf(countries.toUpperCase()) : null) as Body['allowedCountries'],
            blockedPrefixes: listOf(prefixes),
            allowedClasses: classes,
          },
        }),
      ),
    onSuccess: (result) => {
      client.setQueryData(['destination-rules', orgId], result);
      setSaved(true);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const toggle = (value: DestinationClass, on: boolean) =>
    setClasses(on ? [...classes, value] : classes.filter((c) => c !== value));
  return (
    <>
      <form className="panel" onSubmit={submit} aria-label="Destination rules">
        <fieldset>
          <legend>Ranges blocked by default: allow calls to</legend>
          <div className="checks">
            {CLASSES.map((c) => (
              <label key={c.value}>
                <input
                  type="checkbox"
                  checked={classes.includes(c.value)}
                  onChange={(e) => toggle(c.value, e.target.checked)}
                />{' '}
                {c.label} (<code>{c.value}</code>)
              </label>
            ))}
          </div>
          {problemWith(save.error, 'allowedClasses') && (
            <small className="field-problem" role="alert">
              {problemWith(save.error, 'allowedClasses')}
            </small>
          )}
        </fieldset>
        <label>
          <input type="checkbox" checked={limitCountries} onChange={(e) => setLimitCountries(e.target.checked)} /> Call
          only these countries
        </label>
        {limitCountries && (
          <Field
            label="Allowed countries"
            hint={`ISO country codes such as US, CA, GB, separated by commas; at most ${DESTINATION_RULE_BOUNDS.countries}. None: no geographic number may be called.`}
            problem={problemWith(save.error, 'allowedCountries')}
          >
            {(id) => <textarea id={id} rows={2} value={countries} onChange={(e) => setCountries(e.target.value)} />}
          </Field>
        )}
        <Field
          label="Blocked prefixes"
          hint={`International prefixes never called, one a line (e.g. +1268); at most ${DESTINATION_RULE_BOUNDS.prefixes}, each + and up to ${DESTINATION_RULE_BOUNDS.prefixDigits} digits.`}
          problem={problemWith(save.error, 'blockedPrefixes')}
        >
          {(id) => <textarea id={id} rows={4} value={prefixes} onChange={(e) => setPrefixes(e.target.value)} />}
        </Field>
        <button type="submit" disabled={save.isPending}>
          Save rules
        </button>
        {save.isError && <ErrorNote error={save.error} />}
        {saved && (
          <p role="status" className="muted">
            Saved. Calls already queued are checked again when they are dispatched.
          </p>
        )}
      </form>
      <h2>Ranges blocked by default</h2>
      <Table
        headers={['Prefix', 'Class', 'What it is', 'Calls']}
        testId="blocked-ranges"
        label="Ranges blocked by default"
      >
        {rules.blockedRanges.map((r) => (
          <tr key={r.prefix}>
            <td>
              <code>{r.prefix}</code>
            </td>
            <td>{r.class}</td>
            <td>{r.description}</td>
            <td>{r.allowed ? 'allowed (opted in)' : 'blocked'}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}
