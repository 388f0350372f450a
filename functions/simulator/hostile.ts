/**
 * Hostile text the simulator mixes into creator names and captions, so exporters must quote CSV,
 * guard formulas, escape HTML and keep Unicode intact.
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
