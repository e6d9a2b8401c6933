import { Card, H5 } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Clause } from '../../../src-shared/domain/contract-forms';
import { composedStatementText, clauseValue } from './composedStatementText';

/** The clause text the chosen statements compose, with the values typed into their fields. */
export function StatementText({ clauses, values }: { clauses: readonly Clause[]; values: Readonly<Record<string, unknown>> }) {
  const { t } = useTranslation();
  const document = composedStatementText(clauses, values);
  // Field parts show what was typed at their position, else the field's name as a blank to fill.
  const fieldText = (bookmark: string | undefined, fieldId: string, positionName: string | undefined) => {
    const clause = clauses.find((c) => c.bookmarkName === bookmark);
    const value = clause ? clauseValue(values, clause) : null;
    const typed = positionName ? value?.values[positionName] : undefined;
    if (typeof typed === 'string' || typeof typed === 'number') return String(typed);
    return `[${value?.fieldList.find((f) => f.id === fieldId)?.name ?? fieldId}]`;
  };
  const written = document.paragraphs.some((p) => p.parts.length > 0);
  return (
    <Card className="contract-statement-text" data-testid="contract-statement-text">
      <H5>{t('contracts.statementText')}</H5>
      {written ? (
        document.paragraphs.map((paragraph, index) => (
          <p key={index} data-bookmark={paragraph.bookmark}>
            {paragraph.parts.map((part, at) =>
              part.kind === 'text' ? part.text : <mark key={at}>{fieldText(paragraph.bookmark, part.fieldId, part.positionName)}</mark>,
            )}
          </p>
        ))
      ) : (
        <p className="bp6-text-muted">{t('contracts.noStatementChosen')}</p>
      )}
    </Card>
  );
}
