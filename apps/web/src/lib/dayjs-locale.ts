import dayjs from 'dayjs';
import 'dayjs/locale/en-gb';

// Spec §9: dates in en-GB format, the calendar following the locale. Imported by the dashboard's
// frame and the date helpers rather than main.tsx: the sign-in page shows no date (issue 13).
dayjs.locale('en-gb');
