import { authenticateRequest, type AuthResponse } from '@imprest/domain/api/auth.ts';
import { messages } from '@imprest/domain/messages.ts';
import { useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../../../lib/api-client.ts';
import { paths } from '../../../paths.ts';
import { useAuthenticate } from '../api/authenticate.ts';
import { ErrorIcon, EyeIcon, EyeInvisibleIcon, SpinnerIcon } from './auth-icons.tsx';
import './sign-in-form.css';

type SignInValues = { email: string; password: string };
type Field = keyof SignInValues;

type SignInFormProps = { onSignedIn: (auth: AuthResponse) => void };

/** Spec §8: a failed sign-in says 'Invalid credentials'; throttling shows the server's words. */
function signInError(error: unknown): string {
  if (isApiError(error, 429)) return error.message;
  return messages.invalidCredentials;
}

const noChanges = () => () => undefined;

/**
 * False while React renders the page's HTML (the build's, vite/prerender-sign-in.ts) and takes it
 * over in the browser; true once the app runs it, and from the start of any later render.
 */
function useIsRunning(): boolean {
  return useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );
}

/** The first message of the shared schema of a field, or null when the value is valid. */
function fieldError(field: Field, value: string): string | null {
  const result = authenticateRequest.shape[field].safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Invalid value');
}

/**
 * E-mail and password sign-in (spec §2, route /). Plain HTML styled after antd's large inputs
 * (sign-in-form.css): the sign-in page is the first download and antd alone would exceed its
 * budget (issue 13). The e-mail is checked on leaving the field, the password as it is typed, and
 * both on submit, with the shared schema's messages.
 */
export function SignInForm({ onSignedIn }: SignInFormProps) {
  const authenticate = useAuthenticate();
  const id = useId();
  const [values, setValues] = useState<SignInValues>({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [isPasswordShown, setIsPasswordShown] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const isPending = authenticate.isPending;
  const isRunning = useIsRunning();

  useEffect(() => {
    // The form is in the page's HTML: the visitor, or the browser's autofill, may have filled it
    // before the app's code had arrived. Its state starts from what the fields hold.
    const email = emailRef.current?.value ?? '';
    const password = passwordRef.current?.value ?? '';
    if (email || password) setValues({ email, password });
    // The page's one task: the field is where the visitor starts (as antd's form had it), unless
    // they have started elsewhere. Focused once the page has painted, not with autoFocus: React
    // focuses those inside its first commit, which forces the page's first layout into that task,
    // 15 ms of it (issue 13: sign-in's TBT).
    if (!document.activeElement || document.activeElement === document.body) {
      emailRef.current?.focus();
    }
  }, []);

  function check(field: Field, value: string): boolean {
    const message = fieldError(field, value);
    setErrors((previous) => ({ ...previous, [field]: message ?? undefined }));
    return message === null;
  }

  function handleChange(field: Field, value: string) {
    setValues((previous) => ({ ...previous, [field]: value }));
    if (field === 'password' || errors[field]) check(field, value);
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const isEmailValid = check('email', values.email);
    const isPasswordValid = check('password', values.password);
    if (!isEmailValid) emailRef.current?.focus();
    else if (!isPasswordValid) passwordRef.current?.focus();
    if (!isEmailValid || !isPasswordValid) return;
    const parsed = authenticateRequest.safeParse(values);
    authenticate.mutate(parsed.success ? parsed.data : values, { onSuccess: onSignedIn });
  }

  function describedBy(field: Field): string | undefined {
    return errors[field] ? `${id}-${field}-error` : undefined;
  }

  return (
    <form className="sign-in-form" noValidate onSubmit={handleSubmit}>
      {authenticate.isError ? (
        <div className="sign-in-alert" role="alert">
          <ErrorIcon className="sign-in-alert-icon" />
          <span>{signInError(authenticate.error)}</span>
        </div>
      ) : null}
      <fieldset className="sign-in-fieldset" disabled={isPending}>
        <div className={errors.email ? 'sign-in-field sign-in-field-invalid' : 'sign-in-field'}>
          <label className="sign-in-label" htmlFor={`${id}-email`}>
            Email
          </label>
          <input
            ref={emailRef}
            id={`${id}-email`}
            className="sign-in-input"
            type="email"
            name="email"
            autoComplete="username"
            value={values.email}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={describedBy('email')}
            onChange={(event) => handleChange('email', event.target.value)}
            onBlur={(event) => {
              // Leaving the field empty before typing in it is not a mistake yet: the visitor may
              // be on their way to Forgot password? (Sign In still checks it).
              if (event.target.value !== '' || errors.email) check('email', event.target.value);
            }}
          />
          {errors.email ? (
            <div id={`${id}-email-error`} className="sign-in-field-error" role="alert">
              {errors.email}
            </div>
          ) : null}
        </div>
        <div className="sign-in-field sign-in-field-password">
          <label className="sign-in-label" htmlFor={`${id}-password`}>
            Password
          </label>
          <span className="sign-in-affix" aria-invalid={errors.password ? true : undefined}>
            <input
              ref={passwordRef}
              id={`${id}-password`}
              className="sign-in-input"
              type={isPasswordShown ? 'text' : 'password'}
              name="password"
              autoComplete="current-password"
              value={values.password}
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={describedBy('password')}
              onChange={(event) => handleChange('password', event.target.value)}
            />
            <button
              type="button"
              className="sign-in-reveal"
              aria-pressed={isPasswordShown}
              onClick={() => setIsPasswordShown((isShown) => !isShown)}
            >
              {isPasswordShown ? <EyeIcon /> : <EyeInvisibleIcon />}
              <span className="sr-only">Show password</span>
            </button>
          </span>
          {errors.password ? (
            <div id={`${id}-password-error`} className="sign-in-field-error" role="alert">
              {errors.password}
            </div>
          ) : null}
        </div>
        <div className="sign-in-forgot">
          <Link to={paths.resetPassword.getHref()}>Forgot password?</Link>
        </div>
        {/* Disabled in the page's HTML until the app runs: the browser would otherwise send the
            form itself, as a GET with the password in the address (Enter in a field too). */}
        <button
          type="submit"
          className="sign-in-button sign-in-button-primary"
          aria-busy={isPending || undefined}
          disabled={!isRunning}
        >
          {isPending ? <SpinnerIcon className="sign-in-spinner" /> : null}
          <span>Sign In</span>
        </button>
      </fieldset>
    </form>
  );
}
