import { z } from 'zod';

// The page's Content-Security-Policy allows no eval (script-src 'self'): zod must not compile its
// object parsers with `new Function`, nor probe whether it may (each probe is a reported
// violation). It parses the same without. A schema reads this when it is built, so main.tsx
// imports this module before any other.
z.config({ jitless: true });
