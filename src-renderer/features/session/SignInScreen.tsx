import { useState, type FormEvent } from 'react';
import { Button, Callout, Card, Classes, FormGroup, H3, InputGroup, type Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { toAppError, type AppError } from '../../../src-shared/errors';
import { useSettingsQuery, useSignInMutation } from '../../api/api';
import { errorText } from '../../i18n/errorText';
import { LanguageMenu } from '../settings/LanguageMenu';

const fields = [
  { name: 'serverUrl', id: 'signin-server', labelKey: 'signIn.serverUrl', type: 'text', autoComplete: 'url' },
  { name: 'username', id: 'signin-username', labelKey: 'signIn.username', type: 'text', autoComplete: 'username' },
  { name: 'password', id: 'signin-password', labelKey: 'signIn.password', type: 'password', autoComplete: 'current-password' },
] as const;
type FieldName = (typeof fields)[number]['name'];

/**
 * Server address (the saved one, prefilled), user name and password → `session.signIn`.
 * `problem` says why the session kept from last time could not be opened (e.g. a damaged replica).
 */
export function SignInScreen({ lastServerUrl, problem }: { lastServerUrl: string | null; problem?: AppError }) {
  const { t } = useTranslation();
  const { data: settings } = useSettingsQuery();
  const [signIn, { isLoading, error }] = useSignInMutation();
  // A field is unset until edited, so the saved address shows as soon as the settings arrive.
  const [edited, setEdited] = useState<Partial<Record<FieldName, string>>>({});
  const values: Record<FieldName, string> = {
    serverUrl: edited.serverUrl ?? settings?.serverUrl ?? lastServerUrl ?? '',
    username: edited.username ?? '',
    password: edited.password ?? '',
  };
  const appError = error ? toAppError(error) : undefined;
  const issues = appError?.issues ?? [];
  const label = (name: string) => {
    const field = fields.find((f) => f.name === name);
    return field ? t(field.labelKey) : name;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void signIn(values);
  };

  return (
    <div className="app-centered">
      <Card className="sign-in" elevation={2}>
        <div className="sign-in__header">
          <H3>{`${t('app.name')} · ${t('signIn.title')}`}</H3>
          <LanguageMenu />
        </div>
        <form onSubmit={submit} noValidate>
          {fields.map((field) => {
            const intent: Intent = issues.some((issue) => issue.path === field.name) ? 'danger' : 'none';
            return (
              <FormGroup key={field.name} label={t(field.labelKey)} labelFor={field.id} intent={intent}>
                <InputGroup
                  id={field.id}
                  name={field.name}
                  type={field.type}
                  autoComplete={field.autoComplete}
                  intent={intent}
                  value={values[field.name]}
                  onValueChange={(value) => setEdited((previous) => ({ ...previous, [field.name]: value }))}
                />
              </FormGroup>
            );
          })}
          {problem && !appError && (
            <Callout intent="warning" icon="warning-sign" data-testid="signin-problem" role="alert">
              {errorText(t, problem)}
            </Callout>
          )}
          {appError && (
            <Callout intent="danger" icon="error" data-testid="signin-error" role="alert">
              {errorText(t, appError)}
              {issues.length > 0 && (
                <ul className="sign-in__issues">
                  {issues.map((issue) => (
                    <li key={`${issue.path}:${issue.message}`}>{`${label(issue.path)}: ${issue.message}`}</li>
                  ))}
                </ul>
              )}
            </Callout>
          )}
          <Button
            type="submit"
            intent="primary"
            fill
            data-testid="signin-submit"
            loading={isLoading}
            text={t('signIn.submit')}
            className="sign-in__submit"
          />
        </form>
        <p className={`${Classes.TEXT_MUTED} sign-in__hint`}>{t('signIn.demoHint')}</p>
      </Card>
    </div>
  );
}
