// The form's text as the user reads it, for a search excerpt (issue 31): the index holds every
// text value of a contract's form, a clause's field keys ('clause_instalments_4bea673d') and ids
// among them; an excerpt shows each clause field by its label with its value instead, and leaves
// keys, ids and stored-file paths out.

/** A clause's chosen statement as the form stores it: its fields (label, key) and their values. */
interface ClauseFields {
  fieldList: { name?: unknown; positionName?: unknown; id?: unknown }[];
  values: Record<string, unknown>;
}

const isClause = (value: object): value is ClauseFields =>
  Array.isArray((value as ClauseFields).fieldList) && typeof (value as ClauseFields).values === 'object' && (value as ClauseFields).values !== null;

/** Ids, keys and stored-file paths: values that mean nothing to a reader. */
const unreadable = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\/api\/.*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)$/s;
/** An object's keys whose values are a field's id or key, never shown. */
const keyNames = new Set(['id', 'positionName', 'labelID', 'fieldId']);

function texts(value: unknown, out: string[]): void {
  if (typeof value === 'string') {
    if (value.trim() !== '' && !unreadable.test(value)) out.push(value);
  } else if (typeof value === 'number') {
    out.push(String(value));
  } else if (Array.isArray(value)) {
    for (const item of value) texts(item, out);
  } else if (value !== null && typeof value === 'object') {
    if (isClause(value)) {
      for (const field of value.fieldList) {
        const shown = typeof field.positionName === 'string' ? value.values[field.positionName] : undefined;
        if (typeof field.name === 'string') out.push(shown === undefined || shown === '' ? field.name : `${field.name}: ${String(shown)}`);
      }
      return;
    }
    for (const [key, item] of Object.entries(value)) if (!keyNames.has(key)) texts(item, out);
  }
}

/** The readable text of a contract's form values (JSON), in the order the form keeps them. */
export function readableFormText(formValues: string | null): string | null {
  if (formValues === null) return null;
  const out: string[] = [];
  texts(JSON.parse(formValues) as unknown, out);
  return out.length === 0 ? null : out.join(' ');
}
