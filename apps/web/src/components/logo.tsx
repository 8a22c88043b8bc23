type LogoProps = { size?: number; showName?: boolean; inverted?: boolean };

/** The Imprest mark, optionally with the product name beside it. */
export function Logo({ size = 32, showName = true, inverted = false }: LogoProps) {
  return (
    <span className={inverted ? 'logo logo-inverted' : 'logo'}>
      <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        <rect width="64" height="64" rx="14" fill={inverted ? '#ffffff' : '#1d4ed8'} />
        <path d="M20 18h24v6H35v16h9v6H20v-6h9V24h-9z" fill={inverted ? '#1d4ed8' : '#ffffff'} />
      </svg>
      {showName ? <span className="logo-name">Imprest</span> : null}
    </span>
  );
}
