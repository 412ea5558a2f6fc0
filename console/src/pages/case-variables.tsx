import type { Schemas } from '../api';
import { Field } from '../ui';

type Variable = Schemas['CaseVariableDto'];
type Source = Variable['source'];

/** Where a variable's value comes from: the call's contact, or the call itself (`custom`). */
const SOURCES = [
  'custom',
  'contact.title',
  'contact.email',
  'contact.phone',
  'contact.notes',
] as const satisfies readonly Source[];

/** The API's bound on a case's variables (at most 50, names unique); it checks names and lengths itself. */
const MAX_VARIABLES = 50;

/**
 * The `{{variables}}` of a new case: name, where the value comes from, a default, and whether a call must supply
 * it. The API validates each (name pattern, unique names) and its message is shown by the form.
 */
export function CaseVariablesFields({ value, onChange }: { value: Variable[]; onChange: (next: Variable[]) => void }) {
  const set = (index: number, patch: Partial<Variable>) =>
    onChange(value.map((v, i) => (i === index ? { ...v, ...patch } : v)));
  return (
    <fieldset>
      <legend>Variables</legend>
      {value.length === 0 && (
        <p className="muted">None. Use {'{{name}}'} in the prompt or first message, then add it here.</p>
      )}
      {value.map((v, index) => (
        <div key={index} className="variable-row" role="group" aria-label={`Variable ${index + 1}`}>
          <Field label={`Name of variable ${index + 1}`}>
            {(id) => (
              <input
                id={id}
                required
                maxLength={100}
                value={v.name}
                onChange={(e) => set(index, { name: e.target.value })}
              />
            )}
          </Field>
          <Field label={`Source of variable ${index + 1}`}>
            {(id) => (
              <select id={id} value={v.source} onChange={(e) => set(index, { source: e.target.value as Source })}>
                {SOURCES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label={`Default of variable ${index + 1}`}>
            {(id) => (
              <input
                id={id}
                maxLength={1000}
                value={v.defaultValue ?? ''}
                onChange={(e) => set(index, { defaultValue: e.target.value || undefined })}
              />
            )}
          </Field>
          <label>
            <input
              type="checkbox"
              checked={v.required ?? false}
              onChange={(e) => set(index, { required: e.target.checked })}
            />{' '}
            Required
          </label>{' '}
          <button type="button" className="secondary" onClick={() => onChange(value.filter((_, i) => i !== index))}>
            Remove variable {index + 1}
          </button>
        </div>
      ))}
      <button
        type="button"
        className="secondary"
        disabled={value.length >= MAX_VARIABLES}
        onClick={() => onChange([...value, { name: '', source: 'custom' }])}
      >
        Add variable
      </button>
    </fieldset>
  );
}
