/**
 * An e-mail address that, where it must wrap (a phone's narrow column), wraps before its "@",
 * "finance" / "@example.com", rather than inside a word ("finance@exampl" / "e.com"); a part wider
 * than the whole column still breaks anywhere rather than push the page sideways.
 */
export function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  return (
    <span style={{ overflowWrap: 'anywhere' }}>
      {at > 0 ? (
        <>
          {email.slice(0, at)}
          <wbr />
          {email.slice(at)}
        </>
      ) : (
        email
      )}
    </span>
  );
}
