import { RuleScope } from '../../../src-shared/domain/enums';
import type { PreviewRule } from '../../../src-shared/domain/numbering';
import { formatSerial } from '../../../src-shared/rules/numbering';

// The number a contract drafted offline shows until sync: the next number of the rule the server
// would number it by, from the numbering preview kept in the catalogue. The server allocates the
// real one on sync and confirms or replaces this one.

/** What chooses a rule, as on the server: the contract type, and the initiator's department. */
export interface DraftContext {
  contractTypeId: string | null;
  departmentId: string | null;
}

/**
 * The preview rule a draft is numbered by: the rules in use share one scope, and a rule is for
 * the default scope, a contract type, or a department. The replica knows the user's own
 * department only (not a designated main one, nor the department tree), so for those scopes the
 * server may choose another rule and replace the number.
 */
export function previewRuleFor(preview: readonly PreviewRule[], context: DraftContext): PreviewRule | undefined {
  const scope = preview[0]?.conditionType;
  if (scope === undefined) return undefined;
  if (scope === RuleScope.Default) return preview.find((rule) => rule.values.length === 0);
  const key = scope === RuleScope.ContractType ? context.contractTypeId : context.departmentId;
  return key === null ? undefined : preview.find((rule) => rule.values.includes(key));
}

/**
 * The preview's number `step` serials further on: the serial is the number's trailing digits,
 * kept at their width (a zero-padded serial stays padded, a natural one has no leading zero).
 */
export function numberAfter(format: string, step: number): string {
  const match = /^(.*?)(\d+)$/.exec(format);
  if (!match) return step === 0 ? format : `${format}-${step}`;
  const [, prefix, serial] = match as unknown as [string, string, string];
  return `${prefix}${formatSerial({ digits: serial.length, isNatural: false }, Number(serial) + step)}`;
}
