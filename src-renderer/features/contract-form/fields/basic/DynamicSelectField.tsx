import { Button, ControlGroup } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { endpoints } from '../../../../../src-shared/api/endpoints';
import { toAppError } from '../../../../../src-shared/errors';
import type { FieldOption, FormField } from '../../../../../src-shared/form/field-config';
import { appendOptionPage } from '../../../../../src-shared/form/options';
import type { CachedAnswer } from '../../../../../src-shared/ipc/cached-reads';
import { errorText } from '../../../../i18n/errorText';
import { AsOfNote } from '../../../cached-reads/AsOfNote';
import { useFormServices } from '../../FormServicesContext';
import type { FieldProps } from '../../types';
import { fieldInputId, OptionSelect, PreviewText, usePlaceholder } from './shared';

export const dynamicSelectPageSize = 20;

/** A select whose options the server lists page by page (GET fields/{fieldId}/dynamic_select). */
export function isDynamicSelect(field: FormField): boolean {
  return field.privateConfig?.dynamicConfig?.isDynamicField === true;
}

/** The value keeps the chosen option's name, so preview needs no server. */
export interface DynamicSelectValue {
  id: string;
  name: string;
}

interface Pages {
  options: FieldOption[];
  count: number;
  page: number;
  loading: boolean;
  error: string | null;
  /** Offline, the first page answered from the kept copy: when it was read. */
  asOf: CachedAnswer<unknown> | undefined;
}

const asChoice = (value: unknown): DynamicSelectValue | null => {
  const choice = value as Partial<DynamicSelectValue> | null | undefined;
  return typeof choice?.id === 'string' && typeof choice.name === 'string' ? { id: choice.id, name: choice.name } : null;
};

/** Options load when the select is first focused; 'load more' appends the next page. */
export function DynamicSelectField(props: FieldProps<DynamicSelectValue>) {
  const { t } = useTranslation();
  const services = useFormServices();
  const placeholder = usePlaceholder(props.field, 'pleaseSelect');
  const [pages, setPages] = useState<Pages>({ options: [], count: 0, page: 0, loading: false, error: null, asOf: undefined });
  const chosen = asChoice(props.value);
  if (props.mode === 'preview') return <PreviewText field={props.field} text={chosen?.name} />;

  const loadPage = (page: number) => {
    setPages((p) => ({ ...p, loading: true, error: null }));
    // Each page is kept when read: offline the pages read before are offered "as of" then.
    services
      .cachedRead('dynamicSelect', { params: { fieldId: props.field.id }, query: { pageNum: page, pageSize: dynamicSelectPageSize } })
      .then((answer) => {
        const { list, count } = endpoints.dynamicSelect.response.parse(answer.value);
        setPages((p) => ({ options: appendOptionPage(p.options, list), count, page, loading: false, error: null, asOf: answer.offline ? (p.asOf ?? answer) : p.asOf }));
      })
      .catch((error: unknown) => setPages((p) => ({ ...p, loading: false, error: errorText(t, toAppError(error)) })));
  };
  const options = chosen && !pages.options.some((o) => o.id === chosen.id) ? [chosen, ...pages.options] : pages.options;
  const more = pages.page > 0 && pages.options.length < pages.count;
  return (
    <>
      <ControlGroup fill onFocus={() => pages.page === 0 && !pages.loading && loadPage(1)}>
        <OptionSelect
          id={fieldInputId(props.field.id)}
          options={options}
          value={chosen?.id ?? ''}
          placeholder={pages.loading ? t('contractForm.loading') : placeholder}
          props={props as FieldProps<never>}
          onSelect={(id) => {
            const option = options.find((o) => o.id === id);
            props.onChange(option ? { id: option.id, name: option.name } : undefined);
          }}
        />
        {more && props.mode === 'edit' && <Button text={t('contractForm.loadMore')} loading={pages.loading} onClick={() => loadPage(pages.page + 1)} />}
      </ControlGroup>
      <AsOfNote answer={pages.asOf} testId={`options-as-of-${props.field.id}`} />
      {pages.error && (
        <div className="contract-form__field-message" role="alert" data-testid={`options-error-${props.field.id}`}>
          {pages.error}
        </div>
      )}
    </>
  );
}
