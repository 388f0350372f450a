/**
 * The simulator's text. Realistic by default: a real-looking week of a sportswear brand (what the demo
 * and its README picture show). With `hostile: true` (the tests that need it), creator names, captions,
 * account and campaign names mix in hostile text, so exporters must quote CSV, guard formulas, escape
 * HTML and keep Unicode intact; posts also carry `creator.id` beside `creatorId` (a column collision).
 */
export const HOSTILE_NAMES: readonly string[] = [
  'Smith, Jane',
  'The "Real" Deal',
  '=HYPERLINK("http://x.invalid","click")',
  '+49 Studio',
  '-minus creator',
  '@handle_at_start',
  '<script>alert(1)</script>',
  'Tom &amp; Jerry',
  'Line\nBreak',
  'Carriage\r\nReturn',
  'Tab\tSeparated',
  'Zoë 👩‍👩‍👧‍👦 Family',
  'Flags 🇩🇪🇯🇵',
  'مرحبا بالعالم',
  'שלום עולם',
];

export const PLAIN_NAMES: readonly string[] = [
  'Ava Stone',
  'Noah Park',
  'Mia Rossi',
  'Liam Chen',
  'Emma Novak',
  'Lucas Silva',
  'Olivia Brown',
  'Ethan Müller',
  'Sofia García',
  'Leo Dubois',
];

export const CAPTION_PARTS: readonly string[] = [
  'New drop, out now!',
  'She said "wow", we said "yes"',
  '=1+1',
  '+1 if you agree',
  '-50% today only',
  '@everyone look',
  '<script>alert(1)</script>',
  'Salt &amp; pepper',
  'first line\nsecond line',
  'windows\r\nline end',
  'col1\tcol2',
  'love it ❤️🔥',
  'family 👨‍👩‍👧 time',
  'travel 🇫🇷🇮🇹🇪🇸',
  'عرض خاص اليوم',
  'plain caption',
  'behind the scenes',
  'giveaway; rules in bio',
];

export const HASHTAGS: readonly string[] = [
  'ootd',
  'summer',
  'ad',
  'sponsored',
  'fitness',
  'food',
  'travel',
  'tech',
  'beauty',
  'café',
  '日本',
];

/** Realistic creator names (first × last, so 60 creators get distinct names). */
const FIRST = [
  'Ava',
  'Noah',
  'Mia',
  'Liam',
  'Emma',
  'Lucas',
  'Olivia',
  'Ethan',
  'Sofia',
  'Leo',
  'Zoë',
  'Jonas',
];
const LAST = [
  'Stone',
  'Park',
  'Rossi',
  'Chen',
  'Novak',
  'Silva',
  'Brown',
  'Müller',
  'García',
  'Dubois',
  'Berg',
];
export function realisticCreator(i: number): { name: string; handle: string } {
  const first = FIRST[i % FIRST.length] as string;
  const last = LAST[(i + Math.floor(i / FIRST.length) * 3) % LAST.length] as string;
  // no leading @: a cell starting with @ is a formula to a spreadsheet, and the attached CSV would
  // show it guarded ('@…), which belongs to the hostile data, not a brand's week
  const handle = `${first}.${last}`
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
  return { name: `${first} ${last}`, handle };
}

export const REALISTIC_CAPTIONS: readonly string[] = [
  'New season, new trails',
  'Our lightest running shoe yet',
  'Morning run in the city',
  'Behind the scenes at the shoot',
  'Three ways to style the fleece',
  'Giveaway: rules in bio',
  'Weekend hike essentials',
  'Meet the design team',
  'Rain or shine, we run',
  'Training for the marathon',
  'Recycled materials, same grip',
  'Which colour is your favourite?',
  'Unboxing the winter jacket',
  'Five-minute warm-up routine',
  'Ready for the first snow',
  'Thank you for 1M followers',
];

export const REALISTIC_HASHTAGS: readonly string[] = [
  'running',
  'outdoors',
  'hiking',
  'fitness',
  'sustainability',
  'newcollection',
  'ad',
  'winterready',
  'trailrunning',
];

export const REALISTIC_ACCOUNTS: readonly string[] = [
  'Northpeak DE',
  'Northpeak UK',
  'Northpeak FR',
  'Northpeak Archive',
];

export const REALISTIC_CAMPAIGNS: readonly string[] = [
  'Autumn Trail Collection',
  'Black Friday',
  'Holiday Gift Guide',
  'Winter Jacket Launch',
  'Always-On Running',
  'Marathon Season',
  'Back to Campus',
  'Spring Preview',
  'Creator Collab: Trails',
  'Recycled Fleece',
  'City Run Series',
  'New Year Challenge',
  'Summer Trail Days',
  'Yoga Essentials',
  'Kids Outdoor',
  'Women\u2019s Running Week',
  'Alpine Ski Preview',
  'Earth Day Repair',
  'Festival Rainwear',
  'Cycling Commute',
  'Travel Light',
  'Spring Clean Sale',
  'Student Discount',
  'Member Days',
];

export const HOSTILE_ACCOUNTS: readonly string[] = [
  'Acme Global',
  'Acme EU, Brand "North"',
  'Acme APAC',
  'Acme Test (unbound)',
];

export const HOSTILE_CAMPAIGNS: readonly string[] = [
  'Spring Launch',
  'Summer, Sun & Fun',
  'Back to School',
  'Holiday "Gifts"',
  'Always-On',
];
